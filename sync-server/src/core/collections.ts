import type { MoveBody, Role } from '@quire/shared';
import { SSO_REQUIRED_MESSAGE } from './sso/enforcement';
import type { Access, OrgAccess } from './access';
import { moveItem } from './placement';
import type { Db } from '../store/db';
import {
  type CollectionRow,
  createCollection,
  getCollection,
  listCollections,
  moveCollectionTreeToOrg,
  trashCollectionTree,
  updateCollection,
} from '../store/collections';
import type { OrgRow } from '../store/organizations';
import type { PageRequest } from '../store/paginate';
import { badRequest, forbidden, notFound } from '@quire/shared/domainErrors';
import { mayCollection } from './policies/collections';
import { mayOrganization } from './policies/organizations';

/** A collection as it is after a write, with the caller's access read again (the write may have changed it). */
export interface CollectionAfterWrite {
  collection: CollectionRow;
  access: OrgAccess;
}

async function afterWrite(callerAccess: Access, collection: CollectionRow, orgId: string): Promise<CollectionAfterWrite> {
  callerAccess.reset(orgId);
  return { collection, access: await callerAccess.org(orgId) };
}

async function reread(db: Db, callerAccess: Access, collectionId: string, orgId: string): Promise<CollectionAfterWrite> {
  return afterWrite(callerAccess, (await getCollection(db, collectionId)) as CollectionRow, orgId);
}

/**
 * Deletes a collection and its sub-collections; the spaces inside go to the trash. One the
 * caller cannot see (or that is gone) answers as deleted; one they see takes the admin role.
 */
export async function deleteCollection(db: Db, callerAccess: Access, collectionId: string): Promise<void> {
  const existing = await getCollection(db, collectionId);
  if (!existing) return;
  const access = await callerAccess.org(existing.org_id);
  const role = access.roleOn(existing);
  if (!role) return;
  if (access.blockedBySso) throw forbidden(SSO_REQUIRED_MESSAGE);
  if (!mayCollection(role, 'administer')) throw forbidden('This needs the admin role on the collection.');
  await db.transaction((tx) => trashCollectionTree(tx, collectionId));
}

/** Creates a collection at the organization's top level (create role there) or in a parent collection (create role on it). */
export async function createCollectionIn(
  db: Db,
  callerAccess: Access,
  org: OrgRow,
  access: OrgAccess,
  fields: { title?: string; parent?: string; description?: string },
): Promise<CollectionAfterWrite> {
  await requireCreateIn(db, org, access, fields.parent);
  const created = await createCollection(db, org.id, fields.title ?? 'Untitled', fields.parent ?? null, fields.description);
  return afterWrite(callerAccess, created, org.id);
}

/** Creating in a parent collection takes the create role on it; at the top level, in the organization. */
export async function requireCreateIn(db: Db, org: OrgRow, access: OrgAccess, parentId: string | undefined): Promise<void> {
  if (parentId) {
    const parent = await getCollection(db, parentId);
    if (!parent || parent.org_id !== org.id || !access.roleOn(parent)) throw notFound('collection');
    if (!mayCollection(access.roleOn(parent), 'create')) throw forbidden('This needs the create role on the collection.');
  } else if (!mayOrganization(access, 'createContent')) {
    throw forbidden('This needs the create role in the organization.');
  }
}

/** Changes a collection's title, description or default level; its default level changes who sees what below it. */
export async function changeCollection(
  db: Db,
  callerAccess: Access,
  collection: CollectionRow,
  patch: { title?: string; description?: string; defaultLevel?: Role | 'inherit' | null },
): Promise<CollectionAfterWrite> {
  return afterWrite(callerAccess, await updateCollection(db, collection.id, patch), collection.org_id);
}

/** Moves a collection to another parent or place within its organization (see `moveItem`). */
export async function moveCollection(
  db: Db,
  callerAccess: Access,
  collection: CollectionRow,
  access: OrgAccess,
  body: MoveBody,
): Promise<CollectionAfterWrite> {
  await db.transaction((tx) => moveItem(tx, access, 'collection', collection, body));
  return reread(db, callerAccess, collection.id, collection.org_id);
}

/**
 * Moves a top-level collection with everything in it to another organization, where the
 * caller needs the create role. Every check runs first: a refused transfer changes nothing.
 */
export async function transferCollection(
  db: Db,
  callerAccess: Access,
  collection: CollectionRow,
  targetOrgId: string,
): Promise<CollectionAfterWrite> {
  const targetAccess = await callerAccess.org(targetOrgId);
  if (!targetAccess.isMember) throw notFound('organization');
  if (targetOrgId === collection.org_id)
    throw badRequest('The transfer would not result in any update: the collection is already in this organization.');
  if (!mayOrganization(targetAccess, 'createContent')) throw forbidden('This needs the create role in the target organization.');
  if (collection.parent_id) throw badRequest('The collection cannot be moved: move it to the top level of its organization first.');
  await db.transaction((tx) => moveCollectionTreeToOrg(tx, collection.id, targetOrgId));
  // Access in both organizations changed.
  callerAccess.reset();
  return reread(db, callerAccess, collection.id, targetOrgId);
}

/**
 * A page of an organization's collections the caller can see (all of them for members with
 * a role; for guests, those a grant opens), nested ones too unless `nested` is false.
 */
export function collectionsOf(db: Db, org: OrgRow, access: OrgAccess, nested: boolean, page: PageRequest) {
  return listCollections(db, org.id, nested, access.visibleCollectionIds(), page);
}
