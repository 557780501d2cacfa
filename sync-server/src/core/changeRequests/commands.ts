import type {
  ChangeRequest,
  CreateChangeRequestBody,
  CreateReviewBody,
  RequestReviewersBody,
  UpdateChangeRequestBody,
} from '@quire/shared/schemas/changeRequest';
import { badRequest } from '@quire/shared/domainErrors';
import type { z } from 'zod';
import { changeRequestSeenBy, spaceSeenBy } from '../access/resourceAccess';
import { BodyError, storedBody } from '../comments/bodies';
import { mergeChangeRequest as merge } from '../content/changeRequests';
import {
  openChangeRequestAs,
  removeRequestedReviewerAs,
  requestReviewersAs,
  reviewChangeRequestAs,
  updateChangeRequestAs,
  updateFromMainAs,
} from '../content/changeRequestWrites';
import type { CommandContext } from '../platform/deps';
import { presentChangeRequest, presentRequestedReviewers, presentReviews } from '../views/changeRequest';
import { envelope } from '../views/listing';

/*
 * The writes on change requests that both the `/v1` routes and MCP's tools answer with, one
 * function each, taking the caller's context and the operation's input.
 */

type ReviewBody = z.output<typeof CreateReviewBody>;

/** A review's comment as markdown: a comment body, or a bare Document as earlier clients sent it. */
function reviewComment(input: NonNullable<ReviewBody['comment']>): string {
  try {
    return storedBody('object' in input ? { document: input } : input);
  } catch (err) {
    if (err instanceof BodyError) throw badRequest(err.message.replace(/"body(\.document)?"/, '"comment"'));
    throw err;
  }
}

/** Merges a change request as the caller (`POST .../merge`). */
export async function mergeChangeRequest(ctx: CommandContext, input: { spaceId: string; changeRequestId: string }) {
  const { cr } = await changeRequestSeenBy(ctx.deps.db, ctx.access, input.spaceId, input.changeRequestId, 'merge');
  const { revision } = await merge(ctx.deps.db, cr.id, ctx.userId);
  return { revision, result: 'merge' as const };
}

/** Reviews a change request as the caller: a reviewer or someone asked to review (`POST .../reviews`). */
export async function reviewChangeRequest(ctx: CommandContext, input: { spaceId: string; changeRequestId: string } & ReviewBody) {
  const { cr, role } = await changeRequestSeenBy(ctx.deps.db, ctx.access, input.spaceId, input.changeRequestId, 'view');
  const markdown = input.comment && reviewComment(input.comment);
  const read = await reviewChangeRequestAs(ctx.deps.db, cr, role, ctx.userId, { status: input.status, markdown });
  const [shown] = presentReviews(read, ctx.baseUrl);
  return shown as NonNullable<typeof shown>;
}

type ChangeRequestRef = { spaceId: string; changeRequestId: string };

/** Opens a change request on a space the caller may edit, from a template when one is named (`POST .../change-requests`). */
export async function createChangeRequest(
  ctx: CommandContext,
  input: { spaceId: string; fields: z.output<typeof CreateChangeRequestBody> },
): Promise<ChangeRequest> {
  const { space, access } = await spaceSeenBy(ctx.deps.db, ctx.access, input.spaceId, 'openChangeRequest');
  return presentChangeRequest(await openChangeRequestAs(ctx.deps.db, space, ctx.userId, input.fields), access, ctx.baseUrl);
}

/** Changes a change request's details or status (`PATCH .../change-requests/{id}`). */
export async function updateChangeRequest(
  ctx: CommandContext,
  input: ChangeRequestRef & { changes: z.output<typeof UpdateChangeRequestBody> },
): Promise<ChangeRequest> {
  const { space, access, cr } = await changeRequestSeenBy(ctx.deps.db, ctx.access, input.spaceId, input.changeRequestId, 'edit');
  const updated = await updateChangeRequestAs(ctx.deps.db, cr, space, input.changes, ctx.userId);
  return presentChangeRequest(updated, access, ctx.baseUrl);
}

/** Brings main's changes into a change request (`POST .../update`). */
export async function updateChangeRequestFromMain(ctx: CommandContext, input: ChangeRequestRef) {
  const { cr } = await changeRequestSeenBy(ctx.deps.db, ctx.access, input.spaceId, input.changeRequestId, 'edit');
  const { revision } = await updateFromMainAs(ctx.deps.db, cr, ctx.userId);
  return { revision, result: 'update' as const };
}

/** Asks members to review a change request; answers who is asked now. */
export async function requestReviewers(ctx: CommandContext, input: ChangeRequestRef & { fields: z.output<typeof RequestReviewersBody> }) {
  const { space, cr } = await changeRequestSeenBy(ctx.deps.db, ctx.access, input.spaceId, input.changeRequestId, 'askForReviews');
  const { page, read } = await requestReviewersAs(ctx.deps.db, space, cr, input.fields, ctx.userId);
  const items = presentRequestedReviewers(read, true, ctx.baseUrl);
  return { ...envelope({ ...page, rows: items }, (x) => x), users: items };
}

/** Withdraws the request that a user review a change request (one never asked changes nothing). */
export async function removeRequestedReviewer(ctx: CommandContext, input: ChangeRequestRef & { userId: string }): Promise<void> {
  const { cr } = await changeRequestSeenBy(ctx.deps.db, ctx.access, input.spaceId, input.changeRequestId, 'askForReviews');
  await removeRequestedReviewerAs(ctx.deps.db, cr, input.userId);
}
