import type {
  Comment,
  CommentFormat,
  CommentReply,
  CreateCommentBody,
  ListCommentsQuery,
  UpdateCommentBody,
  UpdateCommentReplyBody,
} from '@quire/shared/schemas/comment';
import type { Context } from 'hono';
import type { storedBody } from '../../core/comments/bodies';
import * as core from '../../core/comments/threads';
import type { Scope } from '../../core/comments/threads';
import type { PageRequest } from '../../store/paginate';
import type { AppEnv } from '../env';
import { requireChangeRequest, requireSpace } from '../guards';
import { envelope } from '../listing';
import { presentComments, presentReplies } from '../presenters/comment';
import { baseUrl } from '../urls';

type Ctx = Context<AppEnv>;

export type { Scope } from '../../core/comments/threads';

/**
 * The operations on comments both families of routes share (a space's main branch and a
 * change request's): each finds its scope's branch, calls core/ once and presents.
 */

export async function spaceScope(c: Ctx, spaceId: string): Promise<Scope> {
  const { space, access, role } = await requireSpace(c, spaceId, 'view');
  return {
    thread: { spaceId: space.id, changeRequestId: null },
    space,
    access,
    role,
    path: `/v1/spaces/${space.id}`,
    userId: c.get('caller').user.id,
  };
}

export async function changeRequestScope(c: Ctx, spaceId: string, ref: string): Promise<Scope> {
  const { space, access, role, cr } = await requireChangeRequest(c, spaceId, ref, 'view');
  return {
    thread: { spaceId: space.id, changeRequestId: cr.id },
    space,
    access,
    role,
    path: `/v1/spaces/${space.id}/change-requests/${cr.id}`,
    userId: c.get('caller').user.id,
  };
}

const oneComment = (c: Ctx, scope: Scope, read: core.CommentsRead, format?: CommentFormat) =>
  presentComments(read, scope, baseUrl(c), format)[0] as Comment;
const oneReply = (c: Ctx, scope: Scope, read: core.RepliesRead, format?: CommentFormat) =>
  presentReplies(read, scope, baseUrl(c), format)[0] as CommentReply;

export async function listComments(c: Ctx, scope: Scope, q: ListCommentsQuery) {
  const { page, read } = await core.listComments(c.get('deps').db, scope, q);
  const items = presentComments(read, scope, baseUrl(c), q.format);
  return envelope({ ...page, rows: items }, (x) => x);
}

export async function getComment(c: Ctx, scope: Scope, id: string, format?: CommentFormat) {
  return oneComment(c, scope, await core.getComment(c.get('deps').db, scope, id), format);
}

export async function createComment(c: Ctx, scope: Scope, b: CreateCommentBody) {
  return oneComment(c, scope, await core.createComment(c.get('deps').db, scope, b));
}

export async function updateComment(c: Ctx, scope: Scope, id: string, b: UpdateCommentBody) {
  return oneComment(c, scope, await core.updateComment(c.get('deps').db, scope, id, b));
}

export async function deleteComment(c: Ctx, scope: Scope, id: string) {
  await core.deleteComment(c.get('deps').db, scope, id);
}

export async function listReplies(
  c: Ctx,
  scope: Scope,
  commentId: string,
  q: PageRequest & { format?: CommentFormat; order?: 'asc' | 'desc' },
) {
  const { page, read } = await core.listReplies(c.get('deps').db, scope, commentId, q);
  const items = presentReplies(read, scope, baseUrl(c), q.format);
  return envelope({ ...page, rows: items }, (x) => x);
}

export async function createReply(
  c: Ctx,
  scope: Scope,
  commentId: string,
  b: { body: Parameters<typeof storedBody>[0] },
  format?: CommentFormat,
) {
  return oneReply(c, scope, await core.createReply(c.get('deps').db, scope, commentId, b), format);
}

export async function getReply(c: Ctx, scope: Scope, commentId: string, id: string, format?: CommentFormat) {
  return oneReply(c, scope, await core.getReply(c.get('deps').db, scope, commentId, id), format);
}

export async function updateReply(c: Ctx, scope: Scope, commentId: string, id: string, b: UpdateCommentReplyBody) {
  return oneReply(c, scope, await core.updateReply(c.get('deps').db, scope, commentId, id, b));
}

export async function deleteReply(c: Ctx, scope: Scope, commentId: string, id: string) {
  await core.deleteReply(c.get('deps').db, scope, commentId, id);
}
