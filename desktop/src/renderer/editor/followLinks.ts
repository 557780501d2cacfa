import { headingAnchors } from '@quire/shared/content/anchors';
import { isSafeUrl, parseTarget } from '@quire/shared/content/targets';
import { type Editor, Extension } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** What a link's tooltip says: a plain click places the caret, so following needs the modifier. */
export const FOLLOW_HINT = MAC ? 'Cmd+click to follow' : 'Ctrl+click to follow';

/** Positions of the page's headings in document order, nested ones included, as `headingAnchors` counts them. */
export function headingPositions(doc: PMNode): number[] {
  const out: number[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'heading') {
      out.push(pos);
      return false;
    }
    return !node.isTextblock;
  });
  return out;
}

/** Scrolls the editor to the heading with this anchor and puts the caret at its end; false when the page has none. */
export function scrollToAnchor(editor: Editor, anchor: string): boolean {
  const index = headingAnchors(editor.getJSON() as never).findIndex((h) => h.anchor === anchor);
  const pos = headingPositions(editor.state.doc)[index];
  if (index < 0 || pos === undefined) return false;
  const dom = editor.view.nodeDOM(pos);
  if (dom instanceof HTMLElement) dom.scrollIntoView({ block: 'start' });
  const node = editor.state.doc.nodeAt(pos);
  if (node) editor.commands.setTextSelection(pos + node.nodeSize - 1);
  return true;
}

export interface FollowLinksOptions {
  /** The page this editor shows: a link to one of its own headings scrolls rather than reopening it. */
  pageId: string;
  openPage: (pageId: string, anchor: string | null) => void;
}

/** Follows a link as written in a body: a page (and heading) in this space, a heading here, or a web address. */
export function followLink(editor: Editor, href: string, options: FollowLinksOptions): boolean {
  const target = parseTarget(href);
  if (target.kind === 'page') {
    if (target.pageId === options.pageId) return target.anchor ? scrollToAnchor(editor, target.anchor) : true;
    options.openPage(target.pageId, target.anchor);
    return true;
  }
  if (target.kind === 'anchor') return scrollToAnchor(editor, target.anchor);
  if (target.kind === 'url' && isSafeUrl(href) && /^(https?|mailto):/i.test(href)) {
    // The app's window-open handler gives it to the system browser; the browser mode opens a tab.
    window.open(href, '_blank', 'noopener');
    return true;
  }
  return false;
}

/**
 * Ctrl+click (Cmd+click on macOS) on a link follows it; a plain click still only places
 * the caret, as in any editor where links are text being written.
 */
export const FollowLinks = Extension.create<FollowLinksOptions>({
  name: 'followLinks',
  addOptions() {
    return { pageId: '', openPage: () => {} };
  },
  addProseMirrorPlugins() {
    const editor = this.editor;
    const options = this.options;
    return [
      new Plugin({
        key: new PluginKey('followLinks'),
        props: {
          handleClick: (_view, _pos, event) => {
            if (!(MAC ? event.metaKey : event.ctrlKey)) return false;
            const link = (event.target as Element | null)?.closest?.('a[href]');
            const href = link?.getAttribute('href');
            if (!href) return false;
            event.preventDefault();
            followLink(editor, href, options);
            return true;
          },
        },
      }),
    ];
  },
});
