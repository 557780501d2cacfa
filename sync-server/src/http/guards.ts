import type { Role } from '@quire/shared';
import type { Context } from 'hono';
import type { OrgAccess } from '../core/access';
import { atLeast } from '../core/roles';
import { SSO_REQUIRED_MESSAGE } from '../core/sso/enforcement';
import { findChangeRequest } from '../store/changeRequests';
import { type CollectionRow, getCollection } from '../store/collections';
import { orgRow, spaceRow } from '../core/hotRows';
import type { OrgRow } from '../store/organizations';
import type { SpaceRow } from '../store/spaces';
import { forbidden, notFound } from '@quire/shared/apiErrors';
import type { AppEnv } from './env';

type Ctx = Context<AppEnv>;

/**
 * The organization, if the caller may see it. Not being a member answers 404 exactly as a
 * missing organization does, so ids of other organizations reveal nothing.
 */
export async function requireOrg(c: Ctx, orgId: string, needed?: Role): Promise<{ org: OrgRow; access: OrgAccess }> {
  const { db } = c.get('deps');
  const [org, access] = await Promise.all([orgRow(db, orgId), c.get('access').org(orgId)]);
  if (org && access.blockedBySso) throw forbidden(SSO_REQUIRED_MESSAGE);
  if (!org || !access.isMember) throw notFound('organization');
  if (needed && !atLeast(access.orgRole, needed)) throw forbidden(`This needs the ${needed} role in the organization.`);
  return { org, access };
}

export async function requireSpace(
  c: Ctx,
  spaceId: string,
  needed: Role = 'read',
  opts: { includeDeleted?: boolean } = {},
): Promise<{ space: SpaceRow; access: OrgAccess; role: Role }> {
  const space = await spaceRow(c.get('deps').db, spaceId, opts);
  if (!space) throw notFound('space');
  const access = await c.get('access').org(space.org_id);
  if (access.blockedBySso) throw forbidden(SSO_REQUIRED_MESSAGE);
  const role = access.roleOn(space);
  if (!role) throw notFound('space');
  if (!atLeast(role, needed)) throw forbidden(`This needs the ${needed} role on the space.`);
  return { space, access, role };
}

export async function requireCollection(
  c: Ctx,
  collectionId: string,
  needed: Role = 'read',
): Promise<{ collection: CollectionRow; access: OrgAccess; role: Role }> {
  const collection = await getCollection(c.get('deps').db, collectionId);
  if (!collection) throw notFound('collection');
  const access = await c.get('access').org(collection.org_id);
  if (access.blockedBySso) throw forbidden(SSO_REQUIRED_MESSAGE);
  const role = access.roleOn(collection);
  if (!role) throw notFound('collection');
  if (!atLeast(role, needed)) throw forbidden(`This needs the ${needed} role on the collection.`);
  return { collection, access, role };
}

/** User ids named in merge rules: each must be a member of the organization, or it is 404 like any unknown id. */
/** The space and change request, if the caller may see them with `needed` (404 when not at all, 403 below `needed`). */
export async function requireChangeRequest(c: Context<AppEnv>, spaceId: string, ref: string, needed: Role = 'read') {
  const found = await requireSpace(c, spaceId, 'read');
  const cr = await findChangeRequest(c.get('deps').db, found.space.id, ref);
  if (!cr) throw notFound('change request');
  if (!atLeast(found.role, needed)) throw forbidden(`This needs the ${needed} role on the space.`);
  return { ...found, cr };
}
