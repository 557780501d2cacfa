import type { OrgAccess } from '../access/callerAccess';
import type { Queryable } from '../../store/db';
import { placedSpaces, placedSpacesIn } from '../../store/spaces';

/**
 * The live spaces of an organization (or directly in one of its collections) that a
 * caller's access opens: what a guest, who has only what grants give them, may list.
 */
export async function visibleSpaceIds(db: Queryable, access: OrgAccess, within: { orgId: string } | { collectionId: string }) {
  const rows = 'orgId' in within ? await placedSpaces(db, within.orgId) : await placedSpacesIn(db, within.collectionId);
  return rows.filter((s) => access.roleOn(s)).map((s) => s.id);
}
