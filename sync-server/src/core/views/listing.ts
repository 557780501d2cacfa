import type { OrgAccess } from '../access/callerAccess';
import type { SpacePage } from '../spaces/lists';
import type { CollectionRow } from '../../store/collections';
import type { Page } from '../../store/paginate';
import { presentCollection } from './collection';
import { presentSpace } from './space';

/** The list envelope from a keyset page. */
export function envelope<R, T>(page: Page<R>, present: (row: R) => T) {
  return { items: page.rows.map(present), count: page.count, ...(page.next ? { next: { page: page.next } } : {}) };
}

export function presentSpaceList(base: string, { page, counts }: SpacePage, access: OrgAccess) {
  return envelope(page, (s) => presentSpace(s, access, base, counts.get(s.id) as never));
}

export function presentCollectionList(base: string, page: Page<CollectionRow>, access: OrgAccess) {
  return envelope(page, (col) => presentCollection(col, access, base));
}
