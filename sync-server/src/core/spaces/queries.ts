import type { Space } from '@quire/shared';
import type { ListQuery } from '@quire/shared/schemas/common';
import { notFound } from '@quire/shared/domainErrors';
import { OrgAccess } from '../access/callerAccess';
import { collectionSeenBy, orgSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { spaceCountsOf, spaceRow } from '../readModel/hotRows';
import { type Tag, tags } from '../readModel/readModel';
import { sameSecret } from '../security/secrets';
import { presentSpaceList } from '../views/listing';
import { presentSpace } from '../views/space';
import { listVisibleSpaces } from './lists';

/*
 * The reads of the `/v1` space operations, one function each, taking the caller's context
 * and the operation's input and answering what the caller sees.
 */

/**
 * A space the caller may read: by their access in its organization, or, for anyone else, a
 * share-link space opened read-only with its key (404 otherwise, as for an unknown id).
 * `keptBy` names the rows the answer came from when it may be kept for this caller: never
 * for a share-link reader, whose key is no part of what an answer is kept under.
 */
export async function getSpace(
  ctx: CommandContext,
  input: { spaceId: string; shareKey?: string },
): Promise<{ space: Space; keptBy?: Tag[] }> {
  const { db } = ctx.deps;
  const space = await spaceRow(db, input.spaceId);
  if (!space) throw notFound('space');
  const access = await ctx.access.org(space.org_id);
  if (access.roleOn(space)) {
    const shown = presentSpace(space, access, ctx.baseUrl, await spaceCountsOf(db, space.id));
    return { space: shown, keptBy: [tags.space(space.id), tags.access(space.org_id)] };
  }
  if (!(input.shareKey && space.visibility === 'share-link' && sameSecret(input.shareKey, space.share_key))) throw notFound('space');
  const readOnly = new OrgAccess(space.org_id, ctx.access.userId, undefined, [], new Map());
  return { space: presentSpace(space, readOnly, ctx.baseUrl, await spaceCountsOf(db, space.id), true) };
}

/** The spaces of an organization the caller may see (a guest, those their grants open). */
export async function listOrganizationSpaces(ctx: CommandContext, input: { organizationId: string; page: ListQuery }) {
  const { org, access } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId);
  return presentSpaceList(ctx.baseUrl, await listVisibleSpaces(ctx.deps.db, access, { orgId: org.id }, input.page), access);
}

/** The spaces directly in a collection that the caller may see. */
export async function listCollectionSpaces(ctx: CommandContext, input: { collectionId: string; page: ListQuery }) {
  const { collection, access } = await collectionSeenBy(ctx.deps.db, ctx.access, input.collectionId, 'view');
  const within = { orgId: collection.org_id, collectionId: collection.id };
  return presentSpaceList(ctx.baseUrl, await listVisibleSpaces(ctx.deps.db, access, within, input.page), access);
}
