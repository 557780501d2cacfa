import type { Collection } from '@quire/shared';
import type { ListQuery } from '@quire/shared/schemas/common';
import { collectionSeenBy, orgSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { presentCollection } from '../views/collection';
import { presentCollectionList } from '../views/listing';
import { listCollections } from '../../store/collections';

/*
 * The reads of the `/v1` collection operations, one function each, taking the caller's
 * context and the operation's input and answering what the caller sees.
 */

/** A collection the caller may see (404 as for an unknown id otherwise). */
export async function getCollection(ctx: CommandContext, input: { collectionId: string }): Promise<Collection> {
  const { collection, access } = await collectionSeenBy(ctx.deps.db, ctx.access, input.collectionId, 'view');
  return presentCollection(collection, access, ctx.baseUrl);
}

/**
 * A page of an organization's collections the caller can see (all of them for members with
 * a role; for guests, those a grant opens), nested ones too unless `nested` is false.
 */
export async function listOrganizationCollections(
  ctx: CommandContext,
  input: { organizationId: string; nested?: boolean; page: ListQuery },
) {
  const { org, access } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId);
  const page = await listCollections(ctx.deps.db, org.id, input.nested ?? true, access.visibleCollectionIds(), input.page);
  return presentCollectionList(ctx.baseUrl, page, access);
}
