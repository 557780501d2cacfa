import type { Context } from 'hono';
import type { OrgAccess } from '../core/access';
import type { CollectionRow } from '../store/collections';
import type { Page } from '../store/paginate';
import { spaceCounts } from '../store/spaceCounts';
import type { SpaceRow } from '../store/spaces';
import type { AppEnv } from './env';
import { presentCollection } from './presenters/collection';
import { presentSpace } from './presenters/space';
import { baseUrl } from './urls';

/** The list envelope from a keyset page. */
export function envelope<R, T>(page: Page<R>, present: (row: R) => T) {
  return { items: page.rows.map(present), count: page.count, ...(page.next ? { next: { page: page.next } } : {}) };
}

export async function presentSpaceList(c: Context<AppEnv>, page: Page<SpaceRow>, access: OrgAccess) {
  const counts = await spaceCounts(
    c.get('deps').db,
    page.rows.map((s) => s.id),
  );
  const base = baseUrl(c);
  return envelope(page, (s) => presentSpace(s, access, base, counts.get(s.id) as never));
}

export function presentCollectionList(c: Context<AppEnv>, page: Page<CollectionRow>, access: OrgAccess) {
  const base = baseUrl(c);
  return envelope(page, (col) => presentCollection(col, access, base));
}
