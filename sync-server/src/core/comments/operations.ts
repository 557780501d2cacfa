import type {
  Comment,
  CommentFormat,
  CommentReply,
  CreateCommentBody,
  ListCommentsQuery,
  UpdateCommentBody,
  UpdateCommentReplyBody,
} from '@quire/shared/schemas/comment';
import type { storedBody } from './bodies';
import * as core from './threads';
import type { Scope } from './threads';
import type { PageRequest } from '../../store/paginate';
import { changeRequestSeenBy, spaceSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { envelope } from '../views/listing';
import { presentComments, presentReplies } from '../views/comment';

/**
 * The `/v1` comment operations both families of routes share (a space's main branch and a
 * change request's), and MCP's comment tools: each finds its scope's branch, calls
 * `threads.ts` once and answers the view model.
 */

export async function spaceScope(ctx: CommandContext, spaceId: string): Promise<Scope> {
  const { space, access, role } = await spaceSeenBy(ctx.deps.db, ctx.access, spaceId, 'view');
  return {
    thread: { spaceId: space.id, changeRequestId: null },
    space,
    access,
    role,
    path: `/v1/spaces/${space.id}`,
    userId: ctx.userId,
  };
}

export async function changeRequestScope(ctx: CommandContext, spaceId: string, ref: string): Promise<Scope> {
  const { space, access, role, cr } = await changeRequestSeenBy(ctx.deps.db, ctx.access, spaceId, ref, 'view');
  return {
    thread: { spaceId: space.id, changeRequestId: cr.id },
    space,
    access,
    role,
    path: `/v1/spaces/${space.id}/change-requests/${cr.id}`,
    userId: ctx.userId,
  };
}

const oneComment = (ctx: CommandContext, scope: Scope, read: core.CommentsRead, format?: CommentFormat) =>
  presentComments(read, scope, ctx.baseUrl, format)[0] as Comment;
const oneReply = (ctx: CommandContext, scope: Scope, read: core.RepliesRead, format?: CommentFormat) =>
  presentReplies(read, scope, ctx.baseUrl, format)[0] as CommentReply;

export async function listComments(ctx: CommandContext, scope: Scope, q: ListCommentsQuery) {
  const { page, read } = await core.listComments(ctx.deps.db, scope, q);
  const items = presentComments(read, scope, ctx.baseUrl, q.format);
  return envelope({ ...page, rows: items }, (x) => x);
}

export async function getComment(ctx: CommandContext, scope: Scope, id: string, format?: CommentFormat) {
  return oneComment(ctx, scope, await core.getComment(ctx.deps.db, scope, id), format);
}

export async function createComment(ctx: CommandContext, scope: Scope, b: CreateCommentBody) {
  return oneComment(ctx, scope, await core.createComment(ctx.deps.db, scope, b));
}

export async function updateComment(ctx: CommandContext, scope: Scope, id: string, b: UpdateCommentBody) {
  return oneComment(ctx, scope, await core.updateComment(ctx.deps.db, scope, id, b));
}

export async function deleteComment(ctx: CommandContext, scope: Scope, id: string) {
  await core.deleteComment(ctx.deps.db, scope, id);
}

export async function listReplies(
  ctx: CommandContext,
  scope: Scope,
  commentId: string,
  q: PageRequest & { format?: CommentFormat; order?: 'asc' | 'desc' },
) {
  const { page, read } = await core.listReplies(ctx.deps.db, scope, commentId, q);
  const items = presentReplies(read, scope, ctx.baseUrl, q.format);
  return envelope({ ...page, rows: items }, (x) => x);
}

export async function createReply(
  ctx: CommandContext,
  scope: Scope,
  commentId: string,
  b: { body: Parameters<typeof storedBody>[0] },
  format?: CommentFormat,
) {
  return oneReply(ctx, scope, await core.createReply(ctx.deps.db, scope, commentId, b), format);
}

export async function getReply(ctx: CommandContext, scope: Scope, commentId: string, id: string, format?: CommentFormat) {
  return oneReply(ctx, scope, await core.getReply(ctx.deps.db, scope, commentId, id), format);
}

export async function updateReply(ctx: CommandContext, scope: Scope, commentId: string, id: string, b: UpdateCommentReplyBody) {
  return oneReply(ctx, scope, await core.updateReply(ctx.deps.db, scope, commentId, id, b));
}

export async function deleteReply(ctx: CommandContext, scope: Scope, commentId: string, id: string) {
  await core.deleteReply(ctx.deps.db, scope, commentId, id);
}
