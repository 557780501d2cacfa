import type { Role } from '@quire/shared';
import type { SyncRoom } from '@quire/shared/sync';
import { forbidden, notFound } from '@quire/shared/domainErrors';
import type { Db } from '../store/db';
import { type ChangeRequestRow, findChangeRequest } from '../store/changeRequests';
import { type CollectionRow, getCollection } from '../store/collections';
import type { OrgRow } from '../store/organizations';
import type { SpaceRow } from '../store/spaces';
import { getChangeRequestForSync } from '../store/syncRooms';
import type { Access, OrgAccess } from './access';
import { orgRow, spaceRow } from './hotRows';
import { atLeast } from './roles';
import { SSO_REQUIRED_MESSAGE } from './sso/enforcement';

/*
 * Who may see what: an organization, space, collection or change request as one caller may
 * reach it. A caller without any access gets 404 exactly as for a missing id, so ids of
 * other organizations reveal nothing; one who can see it but lacks the role needed gets 403.
 */

/** The organization, if the caller is a member (404 otherwise, 403 below `needed`). */
export async function orgSeenBy(db: Db, access: Access, orgId: string, needed?: Role): Promise<{ org: OrgRow; access: OrgAccess }> {
  const [org, orgAccess] = await Promise.all([orgRow(db, orgId), access.org(orgId)]);
  if (org && orgAccess.blockedBySso) throw forbidden(SSO_REQUIRED_MESSAGE);
  if (!org || !orgAccess.isMember) throw notFound('organization');
  if (needed && !atLeast(orgAccess.orgRole, needed)) throw forbidden(`This needs the ${needed} role in the organization.`);
  return { org, access: orgAccess };
}

/** The caller's role on a space or collection that exists: 404 without any, 403 below `needed`. */
async function roleSeenBy(
  access: Access,
  resource: SpaceRow | CollectionRow,
  what: 'space' | 'collection',
  needed: Role,
): Promise<{ access: OrgAccess; role: Role }> {
  const orgAccess = await access.org(resource.org_id);
  if (orgAccess.blockedBySso) throw forbidden(SSO_REQUIRED_MESSAGE);
  const role = orgAccess.roleOn(resource);
  if (!role) throw notFound(what);
  if (!atLeast(role, needed)) throw forbidden(`This needs the ${needed} role on the ${what}.`);
  return { access: orgAccess, role };
}

/** The space, if the caller has any role on it (404 otherwise, 403 below `needed`). */
export async function spaceSeenBy(
  db: Db,
  access: Access,
  spaceId: string,
  needed: Role = 'read',
  opts: { includeDeleted?: boolean } = {},
): Promise<{ space: SpaceRow; access: OrgAccess; role: Role }> {
  const space = await spaceRow(db, spaceId, opts);
  if (!space) throw notFound('space');
  return { space, ...(await roleSeenBy(access, space, 'space', needed)) };
}

/** The collection, if the caller has any role on it (404 otherwise, 403 below `needed`). */
export async function collectionSeenBy(
  db: Db,
  access: Access,
  collectionId: string,
  needed: Role = 'read',
): Promise<{ collection: CollectionRow; access: OrgAccess; role: Role }> {
  const collection = await getCollection(db, collectionId);
  if (!collection) throw notFound('collection');
  return { collection, ...(await roleSeenBy(access, collection, 'collection', needed)) };
}

/**
 * The space and one of its change requests (by id or number), if the caller may read the
 * space: 404 when they cannot or the change request is not there, 403 below `needed`.
 */
export async function changeRequestSeenBy(
  db: Db,
  access: Access,
  spaceId: string,
  ref: string,
  needed: Role = 'read',
): Promise<{ space: SpaceRow; access: OrgAccess; role: Role; cr: ChangeRequestRow }> {
  const found = await spaceSeenBy(db, access, spaceId, 'read');
  const cr = await findChangeRequest(db, found.space.id, ref);
  if (!cr) throw notFound('change request');
  if (!atLeast(found.role, needed)) throw forbidden(`This needs the ${needed} role on the space.`);
  return { ...found, cr };
}

/**
 * A sync room (a space's main content or one of its change requests) the caller may read,
 * as the REST API answers it: 404 for a space they cannot see or a change request that is
 * not the space's.
 */
export async function roomSeenBy(db: Db, access: Access, room: SyncRoom): Promise<void> {
  await spaceSeenBy(db, access, room.spaceId, 'read');
  if (room.kind === 'changeRequest') {
    const cr = await getChangeRequestForSync(db, room.changeRequestId);
    if (!cr || cr.space_id !== room.spaceId) throw notFound('change request');
  }
}
