import type { SearchQuery } from '@quire/shared/schemas/search';
import type { z } from 'zod';
import type { OrgAccess } from '../access/callerAccess';
import { visibleSpaceIds } from '../spaces/visible';
import { memoryPage } from './memoryPage';
import { contentAtRevision } from './revisions';
import { type PageHits, rankKey, searchPages } from './search';
import { type EntryTreeNode, pageTreeOf } from './tree';
import type { Db, Queryable } from '../../store/db';
import type { OrgRow } from '../../store/organizations';
import { orgSpaces } from '../../store/search';
import type { SpaceRow } from '../../store/spaces';

type Query = z.output<typeof SearchQuery>;

/** What a search hit shows of its page beyond the hit: its description and the titles above it. */
export interface PageInfo {
  description: string;
  ancestors: { title: string }[];
}

/** Descriptions and ancestor titles of a space's pages, from its current revision. */
async function pageInfo(db: Queryable, space: SpaceRow): Promise<Map<string, PageInfo>> {
  const out = new Map<string, PageInfo>();
  if (!space.revision_id) return out;
  const walk = (nodes: EntryTreeNode[], ancestors: { title: string }[]) => {
    for (const n of nodes) {
      out.set(n.id, { description: n.description ?? '', ancestors });
      walk(n.children, [...ancestors, { title: n.title }]);
    }
  };
  walk(pageTreeOf(await contentAtRevision(db, space.revision_id)), []);
  return out;
}

/** A page of pages matching a search in one space, each with its rank among all hits. */
export interface SpaceSearch {
  rows: PageHits[];
  count: number;
  next: string | undefined;
  rankOf: Map<string, number>;
  info: Map<string, PageInfo>;
}

/** Pages of one space (already checked for the caller) matching the query, best first. */
export async function searchSpace(db: Db, space: SpaceRow, q: Query): Promise<SpaceSearch> {
  const hits = await searchPages(db, [space.id], q.query);
  const page = memoryPage(hits, (h) => rankKey(h.rank, h.pageId), q);
  const info = await pageInfo(db, space);
  const rankOf = new Map(hits.map((h, i) => [h.pageId, i + 1]));
  return { ...page, rankOf, info };
}

/** A space with its pages matching a search; its rank is its best page's. */
export interface SpaceHits {
  space: SpaceRow;
  rank: number;
  pages: PageHits[];
  info: Map<string, PageInfo>;
}

/**
 * Spaces of an organization with their matching pages, as far as the caller may see: a
 * guest (no organization role) only the spaces shared with them.
 */
export async function searchOrganization(
  db: Db,
  org: OrgRow,
  access: OrgAccess,
  q: Query,
): Promise<{ rows: SpaceHits[]; count: number; next: string | undefined }> {
  const rows = await orgSpaces(db, org.id);
  const guestIds = access.orgRole === null ? new Set(await visibleSpaceIds(db, access, { orgId: org.id })) : undefined;
  const spaces = new Map(rows.filter((s) => access.roleOn(s) && (!guestIds || guestIds.has(s.id))).map((s) => [s.id, s]));
  const hits = await searchPages(db, [...spaces.keys()], q.query);
  const bySpace = new Map<string, { space: SpaceRow; rank: number; pages: PageHits[] }>();
  for (const h of hits) {
    const s = bySpace.get(h.spaceId) ?? { space: spaces.get(h.spaceId) as SpaceRow, rank: h.rank, pages: [] };
    s.rank = Math.max(s.rank, h.rank);
    s.pages.push(h);
    bySpace.set(h.spaceId, s);
  }
  const page = memoryPage([...bySpace.values()], (s) => rankKey(s.rank, s.space.id), q);
  const withInfo = await Promise.all(page.rows.map(async (s) => ({ ...s, info: await pageInfo(db, s.space) })));
  return { rows: withInfo, count: page.count, next: page.next };
}
