import { describe, expect, it } from 'vitest';
import type { PageRevisionView } from '../../common/ipc';
import { groupHistory, initials, summarize } from './historyGroups';

const T0 = Date.parse('2026-03-02T09:00:00Z');
const MIN = 60_000;

function rev(id: string, by: string | null, minute: number, extra: Partial<PageRevisionView> = {}): PageRevisionView {
  return {
    revisionId: id,
    change: 'edited',
    title: 'Deploy',
    type: 'edits',
    createdAt: new Date(T0 + minute * MIN).toISOString(),
    by: by && by.toUpperCase(),
    byId: by,
    byPhoto: null,
    restoredFrom: null,
    cached: false,
    pages: [{ id: 'deploy', title: 'Deploy', change: 'edited' }],
    ...extra,
  };
}

describe('history sessions', () => {
  it('joins a writer’s versions with short pauses, and starts anew on another writer, a long pause or a restore', () => {
    const newestFirst = [
      rev('r7', 'ann', 40, { type: 'restore', restoredFrom: 'r2' }),
      rev('r6', 'ann', 39),
      rev('r5', 'bob', 30),
      rev('r4', 'bob', 12),
      rev('r3', 'ann', 11),
      rev('r2', 'ann', 7),
      rev('r1', 'ann', 3, { pages: [{ id: 'intro', title: 'Intro', change: 'added' }] }),
    ];
    const groups = groupHistory(newestFirst);
    expect(groups.map((g) => g.revisions.map((r) => r.revisionId))).toEqual([['r7'], ['r6'], ['r5'], ['r4'], ['r3', 'r2', 'r1']]);
    const ann = groups[4]!;
    expect([ann.author, ann.from, ann.to]).toEqual(['ANN', newestFirst[6]!.createdAt, newestFirst[4]!.createdAt]);
    expect(summarize(ann.pages)).toBe('1 page edited, 1 added');
  });

  it('says what a session did to each page once', () => {
    const groups = groupHistory([
      rev('r3', 'ann', 4, { pages: [{ id: 'old', title: 'Old', change: 'removed' }] }),
      rev('r2', 'ann', 2, {
        pages: [
          { id: 'new', title: 'New page', change: 'edited' },
          { id: 'a', title: 'A', change: 'edited' },
        ],
      }),
      rev('r1', 'ann', 0, {
        pages: [
          { id: 'new', title: 'New', change: 'added' },
          { id: 'b', title: 'B', change: 'edited' },
        ],
      }),
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.pages.find((p) => p.id === 'new')).toEqual({ id: 'new', title: 'New page', change: 'added' });
    expect(summarize(groups[0]!.pages)).toBe('2 pages edited, 1 added, 1 removed');
  });

  it('draws initials for a writer without a picture', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('grace')).toBe('GR');
    expect(initials('ann.lee@example.com')).toBe('AL');
    expect(initials(null)).toBe('?');
  });
});
