import type { Context } from 'hono';
import type { ChangeRequestAction } from '../core/policies/changeRequests';
import type { CollectionAction } from '../core/policies/collections';
import type { OrganizationAction } from '../core/policies/organizations';
import type { SpaceAction } from '../core/policies/spaces';
import { changeRequestSeenBy, collectionSeenBy, orgSeenBy, spaceSeenBy } from '../core/access/resourceAccess';
import type { AppEnv } from './env';

type Ctx = Context<AppEnv>;

/*
 * The request's side of core/resourceAccess.ts, which decides who may see what (404 when
 * not at all, 403 when the resource's policy refuses the action): these only hand it the
 * request's database and the caller's access.
 */

/** The organization, if the caller may see it (404 as for a missing one otherwise). */
export function requireOrg(c: Ctx, orgId: string, action?: OrganizationAction) {
  return orgSeenBy(c.get('deps').db, c.get('access'), orgId, action);
}

export function requireSpace(c: Ctx, spaceId: string, action: SpaceAction = 'view', opts: { includeDeleted?: boolean } = {}) {
  return spaceSeenBy(c.get('deps').db, c.get('access'), spaceId, action, opts);
}

export function requireCollection(c: Ctx, collectionId: string, action: CollectionAction = 'view') {
  return collectionSeenBy(c.get('deps').db, c.get('access'), collectionId, action);
}

/** The space and change request, if the caller may see them (404 when not at all, 403 when `action` is refused). */
export function requireChangeRequest(c: Ctx, spaceId: string, ref: string, action: ChangeRequestAction = 'view') {
  return changeRequestSeenBy(c.get('deps').db, c.get('access'), spaceId, ref, action);
}
