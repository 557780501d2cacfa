import type { Role } from '@quire/shared';
import type { SyncRoom } from '@quire/shared/sync';
import { forbidden, notFound } from '@quire/shared/domainErrors';
import type { Db } from '../../store/db';
import { type ChangeRequestRow, findChangeRequest } from '../../store/changeRequests';
import { type CollectionRow, getCollection } from '../../store/collections';
import type { OrgRow } from '../../store/organizations';
import type { SpaceRow } from '../../store/spaces';
import { getChangeRequestForSync } from '../../store/syncRooms';
import type { Access, OrgAccess } from './callerAccess';
import { orgRow, spaceRow } from '../readModel/hotRows';
import { CHANGE_REQUEST_ROLES, type ChangeRequestAction } from '../policies/changeRequests';
import { COLLECTION_ROLES, type CollectionAction } from '../policies/collections';
import { type OrganizationAction, mayOrganization, organizationRoleFor } from '../policies/organizations';
import { type RoleTable, roleAllows } from '../policies/roleRules';
import { SPACE_ROLES, type SpaceAction } from '../policies/spaces';
import { SSO_REQUIRED_MESSAGE } from '../sso/enforcement';

/*
 * Who may see what: an organization, space, collection or change request as one caller may
 * reach it. A caller without any access gets 404 exactly as for a missing id, so ids of
 * other organizations reveal nothing; one who can see it but lacks the role needed gets 403.
 */

/** The organization, if the caller is a member (404 otherwise, 403 when its policy refuses `action`). */
export async function orgSeenBy(
  db: Db,
  access: Access,
  orgId: string,
  action: OrganizationAction = 'view',
): Promise<{ org: OrgRow; access: OrgAccess }> {
  const [org, orgAccess] = await Promise.all([orgRow(db, orgId), access.org(orgId)]);
  if (org && orgAccess.blockedBySso) throw forbidden(SSO_REQUIRED_MESSAGE);
  if (!org || !orgAccess.isMember) throw notFound('organization');
  if (action !== 'view' && !mayOrganization(orgAccess, action)) {
    throw forbidden(`This needs the ${organizationRoleFor(action)} role in the organization.`);
  }
  return { org, access: orgAccess };
}

/** The caller's role on a space or collection that exists: 404 without any, 403 below what `action` needs in `table`. */
async function roleSeenBy<A extends string>(
  access: Access,
  resource: SpaceRow | CollectionRow,
  what: 'space' | 'collection',
  table: RoleTable<A>,
  action: A,
): Promise<{ access: OrgAccess; role: Role }> {
  const orgAccess = await access.org(resource.org_id);
  if (orgAccess.blockedBySso) throw forbidden(SSO_REQUIRED_MESSAGE);
  const role = orgAccess.roleOn(resource);
  if (!role) throw notFound(what);
  if (!roleAllows(table, role, action)) throw forbidden(`This needs the ${table[action]} role on the ${what}.`);
  return { access: orgAccess, role };
}

/** The space, if the caller has any role on it (404 otherwise, 403 below the role `action` needs). */
export async function spaceSeenBy(
  db: Db,
  access: Access,
  spaceId: string,
  action: SpaceAction = 'view',
  opts: { includeDeleted?: boolean } = {},
): Promise<{ space: SpaceRow; access: OrgAccess; role: Role }> {
  const space = await spaceRow(db, spaceId, opts);
  if (!space) throw notFound('space');
  return { space, ...(await roleSeenBy(access, space, 'space', SPACE_ROLES, action)) };
}

/** The collection, if the caller has any role on it (404 otherwise, 403 below the role `action` needs). */
export async function collectionSeenBy(
  db: Db,
  access: Access,
  collectionId: string,
  action: CollectionAction = 'view',
): Promise<{ collection: CollectionRow; access: OrgAccess; role: Role }> {
  const collection = await getCollection(db, collectionId);
  if (!collection) throw notFound('collection');
  return { collection, ...(await roleSeenBy(access, collection, 'collection', COLLECTION_ROLES, action)) };
}

/**
 * The space and one of its change requests (by id or number), if the caller may read the
 * space: 404 when they cannot or the change request is not there, 403 below the role `action` needs.
 */
export async function changeRequestSeenBy(
  db: Db,
  access: Access,
  spaceId: string,
  ref: string,
  action: ChangeRequestAction = 'view',
): Promise<{ space: SpaceRow; access: OrgAccess; role: Role; cr: ChangeRequestRow }> {
  const found = await spaceSeenBy(db, access, spaceId, 'view');
  const cr = await findChangeRequest(db, found.space.id, ref);
  if (!cr) throw notFound('change request');
  if (!roleAllows(CHANGE_REQUEST_ROLES, found.role, action)) {
    throw forbidden(`This needs the ${CHANGE_REQUEST_ROLES[action]} role on the space.`);
  }
  return { ...found, cr };
}

/**
 * A sync room (a space's main content or one of its change requests) the caller may read,
 * as the REST API answers it: 404 for a space they cannot see or a change request that is
 * not the space's.
 */
export async function roomSeenBy(db: Db, access: Access, room: SyncRoom): Promise<void> {
  await spaceSeenBy(db, access, room.spaceId, 'view');
  if (room.kind === 'changeRequest') {
    const cr = await getChangeRequestForSync(db, room.changeRequestId);
    if (!cr || cr.space_id !== room.spaceId) throw notFound('change request');
  }
}
