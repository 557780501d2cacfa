import type { Role } from '@quire/shared';
import type { Context } from 'hono';
import type { CommandContext } from '../core/deps';
import { changeRequestSeenBy, collectionSeenBy, orgSeenBy, spaceSeenBy } from '../core/resourceAccess';
import type { AppEnv } from './env';

type Ctx = Context<AppEnv>;

/*
 * The request's side of core/resourceAccess.ts, which decides who may see what (404 when
 * not at all, 403 below the role needed): these only hand it the request's database and
 * the caller's access.
 */

/** The organization, if the caller may see it (404 as for a missing one otherwise). */
export function requireOrg(c: Ctx, orgId: string, needed?: Role) {
  return orgSeenBy(c.get('deps').db, c.get('access'), orgId, needed);
}

export function requireSpace(c: Ctx, spaceId: string, needed: Role = 'read', opts: { includeDeleted?: boolean } = {}) {
  return spaceSeenBy(c.get('deps').db, c.get('access'), spaceId, needed, opts);
}

export function requireCollection(c: Ctx, collectionId: string, needed: Role = 'read') {
  return collectionSeenBy(c.get('deps').db, c.get('access'), collectionId, needed);
}

/** The space and change request, if the caller may see them with `needed` (404 when not at all, 403 below `needed`). */
export function requireChangeRequest(c: Ctx, spaceId: string, ref: string, needed: Role = 'read') {
  return changeRequestSeenBy(c.get('deps').db, c.get('access'), spaceId, ref, needed);
}

/** The caller's context, as every command and query takes it. */
export function commandContext(c: Ctx): CommandContext {
  return { deps: c.get('deps'), access: c.get('access'), userId: c.get('caller').user.id };
}
