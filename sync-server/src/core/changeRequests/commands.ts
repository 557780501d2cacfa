import type { CreateReviewBody } from '@quire/shared/schemas/changeRequest';
import { badRequest } from '@quire/shared/domainErrors';
import type { z } from 'zod';
import { changeRequestSeenBy } from '../access/resourceAccess';
import { BodyError, storedBody } from '../comments/bodies';
import { mergeChangeRequest as merge } from '../content/changeRequests';
import { reviewChangeRequestAs } from '../content/changeRequestWrites';
import type { CommandContext } from '../platform/deps';
import { presentReviews } from '../views/changeRequest';

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
