import { markdownToBody } from '@quire/shared/content/markdown/parse';
import { Extension } from '@tiptap/core';
import { Slice } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { notify } from '../components/Toasts';
import { imageFileToDataUrl } from './images';

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

/** Inserts image files at `pos` (or the selection), each as an image block stored in the page. */
export async function insertImages(view: EditorView, files: File[], pos?: number): Promise<void> {
  const type = view.state.schema.nodes.image;
  if (!type) return;
  for (const file of files) {
    try {
      const src = await imageFileToDataUrl(file);
      const node = type.create({ src, alt: file.name.replace(/\.[a-z0-9]+$/i, '') });
      const tr = pos === undefined ? view.state.tr.replaceSelectionWith(node) : view.state.tr.insert(pos, node);
      view.dispatch(tr.scrollIntoView());
    } catch (err) {
      notify('error', (err as Error).message);
    }
  }
}

const imageFiles = (list: FileList | null | undefined) => [...(list ?? [])].filter((f) => f.type.startsWith('image/'));

/**
 * Paste and drop: image files become image blocks; plain text that reads as markdown is
 * parsed as markdown (headings, lists, tables, GitBook blocks); HTML goes through the
 * schema's parse rules (ProseMirror's default).
 */
export const PasteHandling = Extension.create({
  name: 'pasteHandling',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('quirePaste'),
        props: {
          handlePaste: (view, event) => {
            const data = event.clipboardData;
            if (!data) return false;
            const images = imageFiles(data.files);
            if (images.length) {
              void insertImages(view, images);
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
            const images = imageFiles(event.dataTransfer?.files);
            if (!images.length) return false;
            const at = view.posAtCoords({ left: event.clientX, top: event.clientY });
            event.preventDefault();
            void insertImages(view, images, at?.pos);
            return true;
          },
        },
      }),
    ];
  },
});
