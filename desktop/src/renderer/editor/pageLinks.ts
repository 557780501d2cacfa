import { pageTarget } from '@quire/shared/content/targets';
import type { PageTreeNode } from '@quire/shared/content/tree';
import { Extension } from '@tiptap/core';
import { matchPages } from '../components/pageMatch';
import { inlineSuggestion } from './inlineSuggest';

const SUGGESTIONS = 8;

export interface PageLinksOptions {
  pages: () => PageTreeNode[];
}

/**
 * `[[` at the caret suggests pages (matched as the page switcher does); picking one writes
 * its title linked to it (`page:<id>`, so the link survives renames). Escape leaves `[[`
 * and what followed as typed.
 */
export const PageLinks = Extension.create<PageLinksOptions>({
  name: 'pageLinks',
  addOptions() {
    return { pages: () => [] };
  },
  addProseMirrorPlugins() {
    const pages = this.options.pages;
    return [
      inlineSuggestion({
        editor: this.editor,
        char: '[[',
        name: 'pageLinkSuggestion',
        label: 'Link to a page',
        empty: 'No page matches.',
        allowSpaces: true,
        allowedPrefixes: null,
        items: (query) =>
          matchPages(pages(), query.replace(/\]+$/, ''), SUGGESTIONS).map((p) => ({
            key: p.id,
            label: p.title || 'Untitled',
            detail: p.path,
          })),
        pick: (editor, range, item) => {
          editor
            .chain()
            .focus()
            .deleteRange(range)
            .insertContent({ type: 'text', text: item.label, marks: [{ type: 'link', attrs: { href: pageTarget(item.key) } }] })
            .run();
        },
      }),
    ];
  },
});
