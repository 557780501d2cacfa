import { markdownToBody } from '@quire/shared/content/markdown/parse';
import { type Editor, Extension } from '@tiptap/core';
import { type Fragment, Slice } from '@tiptap/pm/model';
import { Plugin, PluginKey, TextSelection } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { notify } from '../components/Toasts';
import { editorBranch, storeFile } from '../files/fileUrls';
import { prepareImage } from './images';

/** Plain text that is very likely markdown: block syntax at a line start, or inline syntax. */
export function looksLikeMarkdown(text: string): boolean {
  if (/^(#{1,6}\s|[-*+]\s|\d+\.\s|>\s|```|\|.*\||\{%\s|- \[[ x]\]\s)/m.test(text)) return true;
  return /(\*\*[^*\n]+\*\*|\[[^\]\n]+\]\([^)\s]+\)|`[^`\n]+`|~~[^~\n]+~~)/.test(text);
}

/** A pasted text that is one web or mail address, nothing else. */
export function pastedUrl(text: string): string | null {
  const t = text.trim();
  return /^(https?:\/\/|mailto:)[^\s<>"]+$/i.test(t) ? t : null;
}

/**
 * Makes the selected text a link to `href`, its words kept: what a writer means by pasting
 * an address over words. False where there is nothing to link (a caret, code).
 */
function linkSelection(view: EditorView, href: string): boolean {
  const { state } = view;
  const { from, to, empty, $from } = state.selection;
  const link = state.schema.marks.link;
  if (empty || !link || $from.parent.type.spec.code) return false;
  view.dispatch(state.tr.addMark(from, to, link.create({ href })).scrollIntoView());
  return true;
}

/**
 * Puts pasted blocks in the page without cutting into the text that is there: at the
 * start of a block they go before it, at its end (or anywhere inside it) after it, and an
 * empty block is replaced. Opening the slice instead (ProseMirror's default) would join the
 * block the caret is in to the last pasted block: a heading's text ending up in a table's
 * last cell. A selection is deleted first, as any paste replaces it.
 */
export function insertBlocks(view: EditorView, content: Fragment): boolean {
  const tr = view.state.tr;
  if (!tr.selection.empty) tr.deleteSelection();
  const $at = tr.selection.$from;
  let from: number;
  let to: number;
  if (!$at.parent.isTextblock || $at.depth === 0) {
    from = to = $at.pos;
  } else if ($at.parent.content.size === 0) {
    from = $at.before();
    to = $at.after();
  } else {
    from = to = $at.parentOffset === 0 ? $at.before() : $at.after();
  }
  tr.replaceRange(from, to, new Slice(content, 0, 0));
  const end = tr.mapping.map(to, 1);
  tr.setSelection(TextSelection.near(tr.doc.resolve(Math.min(end, tr.doc.content.size)), -1));
  view.dispatch(tr.scrollIntoView());
  return true;
}

/** Whether pasted content is text for the caret's block (one paragraph) rather than blocks. */
function isInline(content: Fragment): boolean {
  return content.childCount === 1 && content.firstChild?.type.name === 'paragraph';
}

/** Inserts markdown at the selection through the shared markdown parser (the same one imports use). */
export function insertMarkdown(view: EditorView, markdown: string): boolean {
  const { doc } = markdownToBody(markdown);
  const node = view.state.schema.nodeFromJSON(doc);
  if (isInline(node.content)) {
    view.dispatch(view.state.tr.replaceSelection(new Slice(node.content, 1, 1)).scrollIntoView());
    return true;
  }
  return insertBlocks(view, node.content);
}

/**
 * Inserts files at `pos` (or the selection): each is kept as a space file of the branch
 * (on this machine at once, uploaded by the outbox) and the block refers to it by id; an
 * image becomes an image block, anything else a file block.
 */
export async function insertFiles(editor: Editor, files: File[], pos?: number): Promise<void> {
  const branch = editorBranch(editor);
  const { image, file: fileType } = editor.schema.nodes;
  if (!branch || !image || !fileType) return;
  let at = pos;
  for (const file of files) {
    try {
      let node;
      if (file.type.startsWith('image/')) {
        const prepared = await prepareImage(file);
        const dims = prepared.width && prepared.height ? { width: prepared.width, height: prepared.height } : undefined;
        const stored = await storeFile(branch, prepared.blob, file.name, dims);
        node = image.create({ src: stored.src, alt: file.name.replace(/\.[a-z0-9]+$/i, '') });
      } else {
        const stored = await storeFile(branch, file, file.name);
        // Pointed at `file:<id>` (`fileId`) by the LocalNode once the upload is acknowledged.
        node = fileType.create({ src: stored.src, caption: stored.name });
      }
      if (editor.isDestroyed) return;
      const { state } = editor.view;
      const tr = at === undefined ? state.tr.replaceSelectionWith(node) : state.tr.insert(Math.min(at, state.doc.content.size), node);
      editor.view.dispatch(tr.scrollIntoView());
      if (at !== undefined) at += node.nodeSize;
    } catch (err) {
      notify('error', (err as Error).message);
    }
  }
}

const filesOf = (list: FileList | null | undefined) => [...(list ?? [])];

/**
 * Paste and drop: files become space files (images as image blocks, others as file blocks);
 * an address pasted over selected words links them; plain text that reads as markdown is
 * parsed as markdown (headings, lists, tables, GitBook blocks); HTML goes through the
 * schema's parse rules. Pasted blocks never cut into the text already there.
 */
export const PasteHandling = Extension.create({
  name: 'pasteHandling',
  addProseMirrorPlugins() {
    const editor = this.editor;
    return [
      new Plugin({
        key: new PluginKey('quirePaste'),
        props: {
          handlePaste: (view, event, slice) => {
            const data = event.clipboardData;
            if (!data) return false;
            const files = filesOf(data.files);
            if (files.length) {
              void insertFiles(editor, files);
              return true;
            }
            const html = data.getData('text/html');
            const text = data.getData('text/plain');
            if (view.state.selection.$from.parent.type.spec.code) return false;
            const url = pastedUrl(text);
            if (url && linkSelection(view, url)) return true;
            if (!html && text && looksLikeMarkdown(text)) return insertMarkdown(view, text);
            // Several blocks (HTML from elsewhere, or copied here) go in whole, like markdown.
            if (slice.content.childCount > 0 && !isInline(slice.content) && slice.content.firstChild?.isBlock)
              return insertBlocks(view, slice.content);
            return false;
          },
          handleDrop: (view, event) => {
            const files = filesOf(event.dataTransfer?.files);
            if (!files.length) return false;
            const at = view.posAtCoords({ left: event.clientX, top: event.clientY });
            event.preventDefault();
            void insertFiles(editor, files, at?.pos);
            return true;
          },
        },
      }),
    ];
  },
});
