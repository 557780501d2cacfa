import { markdownToBody } from '@quire/shared/content/markdown/parse';
import { type Editor, Extension } from '@tiptap/core';
import { Slice } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { notify } from '../components/Toasts';
import { editorBranch, storeFile } from '../files/fileUrls';
import { prepareImage } from './images';

/** Plain text that is very likely markdown: block syntax at a line start, or inline syntax. */
export function looksLikeMarkdown(text: string): boolean {
  if (/^(#{1,6}\s|[-*+]\s|\d+\.\s|>\s|```|\|.*\||\{%\s|- \[[ x]\]\s)/m.test(text)) return true;
  return /(\*\*[^*\n]+\*\*|\[[^\]\n]+\]\([^)\s]+\)|`[^`\n]+`|~~[^~\n]+~~)/.test(text);
}

/** Inserts markdown at the selection through the shared markdown parser (the same one imports use). */
export function insertMarkdown(view: EditorView, markdown: string): boolean {
  const { doc } = markdownToBody(markdown);
  const node = view.state.schema.nodeFromJSON(doc);
  view.dispatch(view.state.tr.replaceSelection(Slice.maxOpen(node.content)).scrollIntoView());
  return true;
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
 * Paste and drop: files become space files (images as image blocks, others as file blocks); plain text that reads as markdown is
 * parsed as markdown (headings, lists, tables, GitBook blocks); HTML goes through the
 * schema's parse rules (ProseMirror's default).
 */
export const PasteHandling = Extension.create({
  name: 'pasteHandling',
  addProseMirrorPlugins() {
    const editor = this.editor;
    return [
      new Plugin({
        key: new PluginKey('quirePaste'),
        props: {
          handlePaste: (view, event) => {
            const data = event.clipboardData;
            if (!data) return false;
            const files = filesOf(data.files);
            if (files.length) {
              void insertFiles(editor, files);
              return true;
            }
            const html = data.getData('text/html');
            const text = data.getData('text/plain');
            if (html || !text) return false;
            if (view.state.selection.$from.parent.type.spec.code) return false;
            if (!looksLikeMarkdown(text)) return false;
            return insertMarkdown(view, text);
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
