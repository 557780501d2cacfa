import type { Comment, CommentFormat, CommentReply, ListCommentsQuery } from '@quire/shared/schemas/comment';
import { type ScopeRef, scopeOf } from './scope';
import * as threads from './threads';
import type { PageRequest } from '../../store/paginate';
import type { CommandContext } from '../platform/deps';
import { envelope } from '../views/listing';
import { presentComments, presentReplies } from '../views/comment';

/* The reads of the `/v1` comment operations, for main, a change request and MCP alike. */

export async function listComments(ctx: CommandContext, input: ScopeRef & { query: ListCommentsQuery }) {
  const scope = await scopeOf(ctx, input);
  const { page, read } = await threads.listComments(ctx.deps.db, scope, input.query);
  const items = presentComments(read, scope, ctx.baseUrl, input.query.format);
  return envelope({ ...page, rows: items }, (x) => x);
}

export async function getComment(ctx: CommandContext, input: ScopeRef & { commentId: string; format?: CommentFormat }): Promise<Comment> {
  const scope = await scopeOf(ctx, input);
  const read = await threads.getComment(ctx.deps.db, scope, input.commentId);
  return presentComments(read, scope, ctx.baseUrl, input.format)[0] as Comment;
}

export async function listReplies(
  ctx: CommandContext,
  input: ScopeRef & { commentId: string; query: PageRequest & { format?: CommentFormat; order?: 'asc' | 'desc' } },
) {
  const scope = await scopeOf(ctx, input);
  const { page, read } = await threads.listReplies(ctx.deps.db, scope, input.commentId, input.query);
  const items = presentReplies(read, scope, ctx.baseUrl, input.query.format);
  return envelope({ ...page, rows: items }, (x) => x);
}

export async function getReply(
  ctx: CommandContext,
  input: ScopeRef & { commentId: string; commentReplyId: string; format?: CommentFormat },
): Promise<CommentReply> {
  const scope = await scopeOf(ctx, input);
  const read = await threads.getReply(ctx.deps.db, scope, input.commentId, input.commentReplyId);
  return presentReplies(read, scope, ctx.baseUrl, input.format)[0] as CommentReply;
}
