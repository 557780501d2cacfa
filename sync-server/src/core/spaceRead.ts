import { type Access, OrgAccess } from './access';
import { spaceCountsOf, spaceRow } from './hotRows';
import { sameSecret } from './secrets';
import { notFound } from '@quire/shared/domainErrors';
import type { Db } from '../store/db';
import type { SpaceCounts } from '../store/spaceCounts';
import type { SpaceRow } from '../store/spaces';

/** A space as its reader sees it, and whether they read it only by its share link. */
export interface SpaceRead {
  space: SpaceRow;
  access: OrgAccess;
  counts: SpaceCounts;
  byShareLink: boolean;
}

/**
 * A space the caller may read: by their access in its organization, or, for anyone else, a
 * share-link space opened read-only with its key. 404 otherwise, as for an unknown id.
 */
export async function readSpace(db: Db, access: Access, spaceId: string, shareKey: string | undefined): Promise<SpaceRead> {
  const space = await spaceRow(db, spaceId);
  if (!space) throw notFound('space');
  const orgAccess = await access.org(space.org_id);
  if (orgAccess.roleOn(space)) return { space, access: orgAccess, counts: await spaceCountsOf(db, space.id), byShareLink: false };
  if (!(shareKey && space.visibility === 'share-link' && sameSecret(shareKey, space.share_key))) throw notFound('space');
  const readOnly = new OrgAccess(space.org_id, access.userId, undefined, [], new Map());
  return { space, access: readOnly, counts: await spaceCountsOf(db, space.id), byShareLink: true };
}
