import type { Collection, MoveBody, Role } from '@quire/shared';
import { badRequest, forbidden, notFound } from '@quire/shared/domainErrors';
import { collectionSeenBy, orgSeenBy } from '../access/resourceAccess';
import { moveItem } from '../organizations/placement';
import type { CommandContext } from '../platform/deps';
import { mayCollection } from '../policies/collections';
import { mayOrganization } from '../policies/organizations';
import { SSO_REQUIRED_MESSAGE } from '../sso/enforcement';
import { presentCollection } from '../views/collection';
import { requireCreateIn } from './rules';
import {
  type CollectionRow,
  createCollection as insertCollection,
  getCollection,
  moveCollectionTreeToOrg,
  trashCollectionTree,
  updateCollection as writeCollection,
} from '../../store/collections';

/*
 * The writes of the `/v1` collection operations, one function each, taking the caller's
 * context and the operation's input and answering the collection as the caller now sees it.
 */

/** A collection after a write, presented with the caller's access read again (the write may have changed it). */
async function presented(ctx: CommandContext, collection: CollectionRow, orgId: string): Promise<Collection> {
  ctx.access.reset(orgId);
  return presentCollection(collection, await ctx.access.org(orgId), ctx.baseUrl);
}

async function reread(ctx: CommandContext, collectionId: string, orgId: string): Promise<Collection> {
  return presented(ctx, (await getCollection(ctx.deps.db, collectionId)) as CollectionRow, orgId);
}

/**
 * Deletes a collection and its sub-collections; the spaces inside go to the trash. One the
 * caller cannot see (or that is gone) answers as deleted; one they see takes the admin role.
 */
export async function deleteCollection(ctx: CommandContext, input: { collectionId: string }): Promise<void> {
  const { db } = ctx.deps;
  const existing = await getCollection(db, input.collectionId);
  if (!existing) return;
  const access = await ctx.access.org(existing.org_id);
  const role = access.roleOn(existing);
  if (!role) return;
  if (access.blockedBySso) throw forbidden(SSO_REQUIRED_MESSAGE);
  if (!mayCollection(role, 'administer')) throw forbidden('This needs the admin role on the collection.');
  await db.transaction((tx) => trashCollectionTree(tx, input.collectionId));
}

/** Creates a collection at the organization's top level (create role there) or in a parent collection (create role on it). */
export async function createCollection(
  ctx: CommandContext,
  input: { organizationId: string; fields: { title?: string; parent?: string; description?: string } },
): Promise<Collection> {
  const { db } = ctx.deps;
  const { fields } = input;
  const { org, access } = await orgSeenBy(db, ctx.access, input.organizationId);
  await requireCreateIn(db, org, access, fields.parent);
  const created = await insertCollection(db, org.id, fields.title ?? 'Untitled', fields.parent ?? null, fields.description);
  return presented(ctx, created, org.id);
}

/** Changes a collection's title, description or default level; its default level changes who sees what below it. */
export async function updateCollection(
  ctx: CommandContext,
  input: { collectionId: string; changes: { title?: string; description?: string; defaultLevel?: Role | 'inherit' | null } },
): Promise<Collection> {
  const { collection } = await collectionSeenBy(ctx.deps.db, ctx.access, input.collectionId, 'administer');
  return presented(ctx, await writeCollection(ctx.deps.db, collection.id, input.changes), collection.org_id);
}

/** Moves a collection to another parent or place within its organization (see `moveItem`). */
export async function moveCollection(ctx: CommandContext, input: { collectionId: string; to: MoveBody }): Promise<Collection> {
  const { collection, access } = await collectionSeenBy(ctx.deps.db, ctx.access, input.collectionId, 'administer');
  await ctx.deps.db.transaction((tx) => moveItem(tx, access, 'collection', collection, input.to));
  return reread(ctx, collection.id, collection.org_id);
}

/**
 * Moves a top-level collection with everything in it to another organization, where the
 * caller needs the create role. Every check runs first: a refused transfer changes nothing.
 */
export async function transferCollection(ctx: CommandContext, input: { collectionId: string; organization: string }): Promise<Collection> {
  const { collection } = await collectionSeenBy(ctx.deps.db, ctx.access, input.collectionId, 'administer');
  const targetOrgId = input.organization;
  const targetAccess = await ctx.access.org(targetOrgId);
  if (!targetAccess.isMember) throw notFound('organization');
  if (targetOrgId === collection.org_id)
    throw badRequest('The transfer would not result in any update: the collection is already in this organization.');
  if (!mayOrganization(targetAccess, 'createContent')) throw forbidden('This needs the create role in the target organization.');
  if (collection.parent_id) throw badRequest('The collection cannot be moved: move it to the top level of its organization first.');
  await ctx.deps.db.transaction((tx) => moveCollectionTreeToOrg(tx, collection.id, targetOrgId));
  // Access in both organizations changed.
  ctx.access.reset();
  return reread(ctx, collection.id, targetOrgId);
}
