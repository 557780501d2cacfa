import type { Page, PageRequest } from '../../store/paginate';
import { type SpaceCounts, spaceCounts } from '../../store/spaceCounts';
import { type SpaceRow, listSpaces } from '../../store/spaces';
import type { Queryable } from '../../store/db';
import type { OrgAccess } from '../access/callerAccess';
import { visibleSpaceIds } from './visible';

/** A page of spaces with the counters each one is presented with. */
export interface SpacePage {
  page: Page<SpaceRow>;
  counts: Map<string, SpaceCounts>;
}

/** Counters for the spaces of a page, read in one statement. */
export async function withCounts(db: Queryable, page: Page<SpaceRow>): Promise<SpacePage> {
  return {
    page,
    counts: await spaceCounts(
      db,
      page.rows.map((s) => s.id),
    ),
  };
}

/**
 * The spaces of an organization, or of one of its collections, that the caller may list:
 * a guest lists only the spaces their grants open.
 */
export async function listVisibleSpaces(
  db: Queryable,
  access: OrgAccess,
  within: { orgId: string } | { orgId: string; collectionId: string },
  query: PageRequest,
): Promise<SpacePage> {
  const parentId = 'collectionId' in within ? within.collectionId : undefined;
  const visibleIds =
    access.orgRole === null
      ? await visibleSpaceIds(db, access, parentId ? { collectionId: parentId } : { orgId: within.orgId })
      : undefined;
  return withCounts(db, await listSpaces(db, within.orgId, { parentId, visibleIds }, query));
}
