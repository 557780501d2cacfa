import { userTarget } from '@quire/shared/content/targets';
import { Extension } from '@tiptap/core';
import type { UserSummary } from '../../common/ipc';
import { inlineSuggestion } from './inlineSuggest';

const SUGGESTIONS = 8;

export interface MentionsOptions {
  /** The space's organization members (asked of the LocalNode, which keeps them for offline use). */
  members: () => Promise<UserSummary[]>;
}

/** Members whose name or email has every typed word at the start of one of its words, names starting with it first. */
export function matchMembers(members: UserSummary[], query: string): UserSummary[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const hits = members.filter((m) => {
    const hay = `${m.displayName} ${m.email ?? ''}`.toLowerCase().split(/[\s@._-]+/);
    return words.every((w) => hay.some((part) => part.startsWith(w)));
  });
  const q = words.join(' ');
  return hits.sort((a, b) => Number(!a.displayName.toLowerCase().startsWith(q)) - Number(!b.displayName.toLowerCase().startsWith(q)));
}

/**
 * `@` at the caret suggests the organization's members; picking one writes `@Name` linked
 * to them (`user:<id>`, the content model's link mark, so the mention syncs, exports and
 * imports as any link does), then a space. Nobody is notified.
 */
export const Mentions = Extension.create<MentionsOptions>({
  name: 'mentions',
  addOptions() {
    return { members: async () => [] };
  },
  addProseMirrorPlugins() {
    const members = this.options.members;
    return [
      inlineSuggestion({
        editor: this.editor,
        char: '@',
        name: 'mentionSuggestion',
        label: 'Mention a member',
        empty: 'No member matches.',
        items: async (query) =>
          matchMembers(await members(), query)
            .slice(0, SUGGESTIONS)
            .map((m) => ({ key: m.id, label: m.displayName, detail: m.email })),
        pick: (editor, range, item) => {
          editor
            .chain()
            .focus()
            .deleteRange(range)
            .insertContent([
              { type: 'text', text: `@${item.label}`, marks: [{ type: 'link', attrs: { href: userTarget(item.key) } }] },
              { type: 'text', text: ' ' },
            ])
            .run();
        },
      }),
    ];
  },
});
