import { atLeast } from './roles';
import type { OrgAccess } from './access';
import type { Db } from '../store/db';
import { type CollectionRow, moveCollectionTreeToOrg, trashCollectionTree } from '../store/collections';
import { badRequest, forbidden, notFound } from '@quire/shared/apiErrors';

/** Deletes a collection and its sub-collections; the spaces inside go to the trash. */
export function deleteCollectionTree(db: Db, collectionId: string) {
  return db.transaction((tx) => trashCollectionTree(tx, collectionId));
}

/**
 * Moves a top-level collection with everything in it to another organization, where the
 * caller needs the create role. Every check runs first: a refused transfer changes nothing.
 */
export async function transferCollection(db: Db, collection: CollectionRow, targetOrgId: string, targetAccess: OrgAccess) {
  if (!targetAccess.isMember) throw notFound('organization');
  if (targetOrgId === collection.org_id)
    throw badRequest('The transfer would not result in any update: the collection is already in this organization.');
  if (!atLeast(targetAccess.orgRole, 'create')) throw forbidden('This needs the create role in the target organization.');
  if (collection.parent_id) throw badRequest('The collection cannot be moved: move it to the top level of its organization first.');
  await db.transaction((tx) => moveCollectionTreeToOrg(tx, collection.id, targetOrgId));
}
