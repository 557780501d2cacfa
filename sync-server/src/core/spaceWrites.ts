import type { MoveBody, Role } from '@quire/shared';
import { forbidden, notFound } from '@quire/shared/domainErrors';
import type { Access, OrgAccess } from './access';
import { spaceCountsOf } from './hotRows';
import { moveItem } from './placement';
import { duplicateSpace, transferSpace, updateSpaceSettings } from './spaces';
import { SSO_REQUIRED_MESSAGE } from './sso/enforcement';
import type { Db } from '../store/db';
import type { SpaceCounts } from '../store/spaceCounts';
import * as spaces from '../store/spaces';
import { maySpace } from './policies/spaces';

/** A space as it is after a write, with its counters and the caller's access to present it with. */
export interface SpaceAfterWrite {
  space: spaces.SpaceRow;
  counts: SpaceCounts;
  access: OrgAccess;
}

async function reread(db: Db, spaceId: string, access: OrgAccess): Promise<SpaceAfterWrite> {
  const space = await spaces.getSpace(db, spaceId, { includeDeleted: true });
  if (!space) throw notFound('space');
  return { space, counts: await spaceCountsOf(db, space.id), access };
}

/** Access in an organization read again: the write changed roles or grants. */
async function afresh(callerAccess: Access, orgId: string): Promise<OrgAccess> {
  callerAccess.reset(orgId);
  return callerAccess.org(orgId);
}

/**
 * Moves a space to the trash. One the caller cannot see (or that is gone) answers as
 * deleted; one they see takes the admin role.
 */
export async function deleteSpace(db: Db, callerAccess: Access, spaceId: string): Promise<void> {
  const space = await spaces.getSpace(db, spaceId);
  if (!space) return;
  const access = await callerAccess.org(space.org_id);
  const role = access.roleOn(space);
  if (!role) return;
  if (access.blockedBySso) throw forbidden(SSO_REQUIRED_MESSAGE);
  if (!maySpace(role, 'administer', space)) throw forbidden('This needs the admin role on the space.');
  await spaces.softDeleteSpace(db, spaceId);
}

/** Changes a space's settings (see `updateSpaceSettings`); they may change who sees it. */
export async function changeSpace(
  db: Db,
  callerAccess: Access,
  space: spaces.SpaceRow,
  role: Role | null,
  fields: Parameters<typeof updateSpaceSettings>[3],
): Promise<SpaceAfterWrite> {
  await updateSpaceSettings(db, space, role, fields);
  return reread(db, space.id, await afresh(callerAccess, space.org_id));
}

/** Copies a space beside the original (see `duplicateSpace`); answers the copy. */
export async function duplicate(db: Db, callerAccess: Access, space: spaces.SpaceRow, access: OrgAccess): Promise<SpaceAfterWrite> {
  const copyId = await duplicateSpace(db, space, access);
  // The copy carries the original's grants, the caller's included.
  return reread(db, copyId, await afresh(callerAccess, space.org_id));
}

/** Takes a space out of the trash (a live one is answered as it is). */
export async function restore(db: Db, space: spaces.SpaceRow, access: OrgAccess): Promise<SpaceAfterWrite> {
  if (space.deleted_at) await spaces.restoreSpace(db, space.id);
  return reread(db, space.id, access);
}

/** Moves a space to another parent or place within its organization (see `moveItem`). */
export async function moveSpace(db: Db, space: spaces.SpaceRow, access: OrgAccess, body: MoveBody): Promise<SpaceAfterWrite> {
  await db.transaction((tx) => moveItem(tx, access, 'space', space, body));
  return reread(db, space.id, access);
}

/** Moves a space to another organization (see `transferSpace`). */
export async function transfer(db: Db, callerAccess: Access, space: spaces.SpaceRow, targetOrgId: string): Promise<SpaceAfterWrite> {
  await transferSpace(db, space, targetOrgId, await callerAccess.org(targetOrgId));
  // Grants were dropped on the way: the caller's standing in the target is read afresh.
  callerAccess.reset();
  return reread(db, space.id, await callerAccess.org(targetOrgId));
}
