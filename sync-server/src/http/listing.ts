import type { Context } from 'hono';
import type { OrgAccess } from '../core/access';
import type { SpacePage } from '../core/spaceLists';
import type { CollectionRow } from '../store/collections';
import type { Page } from '../store/paginate';
import type { AppEnv } from './env';
import { presentCollection } from './presenters/collection';
import { presentSpace } from './presenters/space';
import { baseUrl } from './urls';

/** The list envelope from a keyset page. */
export function envelope<R, T>(page: Page<R>, present: (row: R) => T) {
  return { items: page.rows.map(present), count: page.count, ...(page.next ? { next: { page: page.next } } : {}) };
}

export function presentSpaceList(c: Context<AppEnv>, { page, counts }: SpacePage, access: OrgAccess) {
  const base = baseUrl(c);
  return envelope(page, (s) => presentSpace(s, access, base, counts.get(s.id) as never));
}

export function presentCollectionList(c: Context<AppEnv>, page: Page<CollectionRow>, access: OrgAccess) {
  const base = baseUrl(c);
  return envelope(page, (col) => presentCollection(col, access, base));
}
