import type {
  Comment,
  CommentFormat,
  CommentReply,
  CreateCommentBody,
  UpdateCommentBody,
  UpdateCommentReplyBody,
} from '@quire/shared/schemas/comment';
import type { storedBody } from './bodies';
import { type ScopeRef, scopeOf } from './scope';
import * as threads from './threads';
import type { CommandContext } from '../platform/deps';
import { presentComments, presentReplies } from '../views/comment';

/*
 * The writes of the `/v1` comment operations, for both families of routes (a space's main
 * branch and a change request's) and MCP's comment tools: each finds its scope, calls
 * `threads.ts` once (which asks the comment policy) and answers the view model.
 */

export async function createComment(ctx: CommandContext, input: ScopeRef & { fields: CreateCommentBody }): Promise<Comment> {
  const scope = await scopeOf(ctx, input);
  return presentComments(await threads.createComment(ctx.deps.db, scope, input.fields), scope, ctx.baseUrl, undefined)[0] as Comment;
}

export async function updateComment(
  ctx: CommandContext,
  input: ScopeRef & { commentId: string; changes: UpdateCommentBody },
): Promise<Comment> {
  const scope = await scopeOf(ctx, input);
  const read = await threads.updateComment(ctx.deps.db, scope, input.commentId, input.changes);
  return presentComments(read, scope, ctx.baseUrl, undefined)[0] as Comment;
}

export async function deleteComment(ctx: CommandContext, input: ScopeRef & { commentId: string }): Promise<void> {
  await threads.deleteComment(ctx.deps.db, await scopeOf(ctx, input), input.commentId);
}

export async function createReply(
  ctx: CommandContext,
  input: ScopeRef & { commentId: string; fields: { body: Parameters<typeof storedBody>[0] }; format?: CommentFormat },
): Promise<CommentReply> {
  const scope = await scopeOf(ctx, input);
  const read = await threads.createReply(ctx.deps.db, scope, input.commentId, input.fields);
  return presentReplies(read, scope, ctx.baseUrl, input.format)[0] as CommentReply;
}

export async function updateReply(
  ctx: CommandContext,
  input: ScopeRef & { commentId: string; commentReplyId: string; changes: UpdateCommentReplyBody },
): Promise<CommentReply> {
  const scope = await scopeOf(ctx, input);
  const read = await threads.updateReply(ctx.deps.db, scope, input.commentId, input.commentReplyId, input.changes);
  return presentReplies(read, scope, ctx.baseUrl, undefined)[0] as CommentReply;
}

export async function deleteReply(ctx: CommandContext, input: ScopeRef & { commentId: string; commentReplyId: string }): Promise<void> {
  await threads.deleteReply(ctx.deps.db, await scopeOf(ctx, input), input.commentId, input.commentReplyId);
}
