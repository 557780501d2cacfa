import type { Role } from '@quire/shared';
import { badRequest, forbidden, notFound } from '@quire/shared/domainErrors';
import type { CreateCommentBody, ListCommentsQuery, UpdateCommentBody, UpdateCommentReplyBody } from '@quire/shared/schemas/comment';
import type { OrgAccess } from '../access/callerAccess';
import { commentPermissions as permissionsFor, commentRoleFor, mayComment } from '../policies/comments';
import { recordWebhookEvent } from '../webhooks/events';
import { BodyError, storedBody } from './bodies';
import { BranchView, type PageTarget } from './targets';
import { countChangeRequestCommentsWith } from '../../store/changeRequests';
import * as store from '../../store/comments';
import type { CommentRow, ReactionRow, ReplierRow, ReplyRow, Thread } from '../../store/comments';
import type { Db, Queryable } from '../../store/db';
import type { Page, PageRequest } from '../../store/paginate';
import type { SpaceRow } from '../../store/spaces';
import type { UserRow } from '../../store/users';

/**
 * Comments live on a branch: a space's main branch or a change request's. One set of
 * operations serves both families of routes; the scope says which branch, who the caller
 * is there, and where its comments are addressed.
 */
export interface Scope {
  thread: Thread;
  space: SpaceRow;
  access: OrgAccess;
  role: Role;
  /** `/v1/spaces/<id>` or `/v1/spaces/<id>/change-requests/<crId>`: comment URLs hang under it. */
  path: string;
  userId: string;
}

/** What the caller may do with a comment or reply posted by `postedBy`. */
export function commentPermissions(scope: Scope, postedBy: string) {
  return permissionsFor(scope.role, postedBy === scope.userId);
}

/** Comments as read, with what presenting them needs: reactions, repliers, their users and targets. */
export interface CommentsRead {
  rows: CommentRow[];
  reactions: ReactionRow[];
  repliers: ReplierRow[];
  users: Map<string, UserRow>;
  /** By comment id: the page it targets and the current text of its node. */
  targets: Map<string, { page?: PageTarget; nodePreview?: string }>;
}

/** Replies of one comment as read, with their reactions and users. */
export interface RepliesRead {
  comment: CommentRow;
  rows: ReplyRow[];
  reactions: ReactionRow[];
  users: Map<string, UserRow>;
}

function need(scope: Scope, action: 'view' | 'comment', what: string) {
  if (!mayComment(scope.role, action)) throw forbidden(`This needs the ${commentRoleFor(action)} role on the space to ${what}.`);
}

function bodyOf(input: Parameters<typeof storedBody>[0]): string {
  try {
    return storedBody(input);
  } catch (err) {
    if (err instanceof BodyError) throw badRequest(err.message);
    throw err;
  }
}

async function requireComment(db: Queryable, scope: Scope, id: string): Promise<CommentRow> {
  const row = await store.getComment(db, scope.thread, id);
  if (!row) throw notFound('comment');
  return row;
}

async function requireReply(db: Queryable, comment: CommentRow, id: string): Promise<ReplyRow> {
  const row = await store.getReply(db, comment.id, id);
  if (!row) throw notFound('comment reply');
  return row;
}

/** Refuses reacting with the same emoji in both lists: the outcome would depend on order. */
function checkReactions(added: string[] | undefined, removed: string[] | undefined) {
  const both = (added ?? []).find((e) => (removed ?? []).includes(e));
  if (both) throw badRequest(`Invalid body field "removedReactions": "${both}" is also in "addedReactions".`);
}

async function commentsRead(db: Db, scope: Scope, rows: CommentRow[], view?: BranchView): Promise<CommentsRead> {
  const ids = rows.map((r) => r.id);
  const [reactions, repliers] = await Promise.all([store.reactionsOf(db, ids), store.repliersOf(db, ids)]);
  const users = await store.commentUsers(db, [
    ...rows.flatMap((r) => [r.posted_by, r.resolved_by]),
    ...reactions.map((r) => r.user_id),
    ...repliers.map((r) => r.user_id),
  ]);
  const branch = rows.some((r) => r.page_id) ? (view ?? (await BranchView.open(db, scope.thread))) : undefined;
  const targets = new Map<string, { page?: PageTarget; nodePreview?: string }>();
  for (const r of rows) {
    const page = r.page_id && branch ? await branch.pageTarget(r.page_id, r.node_id) : undefined;
    const nodes = r.page_id && r.node_id && branch ? await branch.nodes(r.page_id) : undefined;
    targets.set(r.id, { page, nodePreview: r.node_id ? (nodes?.get(r.node_id) ?? r.node_preview ?? undefined) : undefined });
  }
  return { rows, reactions, repliers, users, targets };
}

async function repliesRead(db: Queryable, comment: CommentRow, rows: ReplyRow[]): Promise<RepliesRead> {
  const reactions = await store.reactionsOf(
    db,
    rows.map((r) => r.id),
  );
  const users = await store.commentUsers(db, [...rows.map((r) => r.posted_by), ...reactions.map((r) => r.user_id)]);
  return { comment, rows, reactions, users };
}

async function oneComment(db: Db, scope: Scope, id: string, view?: BranchView): Promise<CommentsRead> {
  return commentsRead(db, scope, [await requireComment(db, scope, id)], view);
}

async function oneReply(db: Db, comment: CommentRow, id: string): Promise<RepliesRead> {
  return repliesRead(db, comment, [await requireReply(db, comment, id)]);
}

/** A webhook event about a comment (or a reply in its thread), in the transaction that writes it. */
function recordCommentEvent(
  tx: Queryable,
  scope: Scope,
  type: 'comment.created' | 'comment.resolved',
  commentId: string,
  pageId: string | null,
  replyId?: string,
) {
  return recordWebhookEvent(tx, {
    type,
    orgId: scope.space.org_id,
    spaceId: scope.space.id,
    changeRequest: scope.thread.changeRequestId ? { id: scope.thread.changeRequestId } : null,
    data: (base) => {
      const url = `${base}${scope.path}/comments/${commentId}`;
      return {
        comment: { id: commentId, url },
        ...(replyId ? { reply: { id: replyId, url: `${url}/replies/${replyId}` } } : {}),
        page: pageId ? { id: pageId, url: `${base}${scope.path}/content/page/${pageId}` } : null,
        actor: { id: scope.userId },
      };
    },
  });
}

/** A change request's `comments` counts its open comments, once comments are served. */
export function countOpenCommentsOfChangeRequests(): void {
  countChangeRequestCommentsWith(store.openChangeRequestCommentCounts);
}

// --- operations ---

export async function listComments(db: Db, scope: Scope, q: ListCommentsQuery): Promise<{ page: Page<CommentRow>; read: CommentsRead }> {
  const page = await store.listComments(
    db,
    scope.thread,
    { status: q.status === 'all' ? undefined : q.status, pageId: q.targetPage, authors: q.authors, order: q.order ?? 'desc' },
    q,
  );
  return { page, read: await commentsRead(db, scope, page.rows) };
}

export function getComment(db: Db, scope: Scope, id: string): Promise<CommentsRead> {
  return oneComment(db, scope, id);
}

export async function createComment(db: Db, scope: Scope, b: CreateCommentBody): Promise<CommentsRead> {
  need(scope, 'comment', 'comment');
  if (b.node && !b.page) throw badRequest('Invalid body field "node": a node is targeted within a page, so "page" is needed too.');
  if (b.tableCell && !b.page)
    throw badRequest('Invalid body field "tableCell": a table cell is targeted within a page, so "page" is needed too.');
  const body = bodyOf(b.body);
  const view = await BranchView.open(db, scope.thread);
  if (b.page && !view.hasPage(b.page)) throw notFound('page');
  const nodes = b.page && b.node ? await view.nodes(b.page) : undefined;
  const id = await db.transaction(async (tx) => {
    const created = await store.insertComment(tx, scope.thread, {
      pageId: b.page ?? null,
      nodeId: b.node ?? null,
      nodePreview: b.node ? (nodes?.get(b.node) ?? null) : null,
      tableRecord: b.tableCell?.record ?? null,
      tableDefinition: b.tableCell?.definition ?? null,
      revisionId: view.revisionId ?? null,
      postedBy: scope.userId,
      body,
    });
    await recordCommentEvent(tx, scope, 'comment.created', created, b.page ?? null);
    return created;
  });
  return oneComment(db, scope, id, view);
}

export async function updateComment(db: Db, scope: Scope, id: string, b: UpdateCommentBody): Promise<CommentsRead> {
  const row = await requireComment(db, scope, id);
  need(scope, 'comment', 'change a comment');
  if (b.body !== undefined && row.posted_by !== scope.userId) throw forbidden("Only the comment's author can edit its body.");
  checkReactions(b.addedReactions, b.removedReactions);
  const body = b.body !== undefined ? bodyOf(b.body) : undefined;
  await db.transaction(async (tx) => {
    if (body !== undefined) await store.setCommentBody(tx, row.id, body);
    if (b.resolved !== undefined) await store.setResolved(tx, row.id, b.resolved, scope.userId);
    if (b.resolved && row.status !== 'resolved') await recordCommentEvent(tx, scope, 'comment.resolved', row.id, row.page_id);
    await store.react(tx, row.id, scope.userId, b.addedReactions ?? [], b.removedReactions ?? []);
  });
  return oneComment(db, scope, row.id);
}

/** Deletes a comment with its replies (one already gone changes nothing): its author or an admin. */
export async function deleteComment(db: Db, scope: Scope, id: string): Promise<void> {
  const row = await store.getComment(db, scope.thread, id);
  if (!row) return;
  if (!mayComment(scope.role, 'delete', row.posted_by === scope.userId)) {
    throw forbidden('Only the author of a comment or an admin can delete it.');
  }
  await db.transaction((tx) => store.deleteComment(tx, row.id));
}

export async function listReplies(
  db: Db,
  scope: Scope,
  commentId: string,
  q: PageRequest & { order?: 'asc' | 'desc' },
): Promise<{ page: Page<ReplyRow>; read: RepliesRead }> {
  const comment = await requireComment(db, scope, commentId);
  // A thread reads oldest first unless asked otherwise.
  const page = await store.listReplies(db, comment.id, q.order ?? 'asc', q);
  return { page, read: await repliesRead(db, comment, page.rows) };
}

export async function createReply(
  db: Db,
  scope: Scope,
  commentId: string,
  b: { body: Parameters<typeof storedBody>[0] },
): Promise<RepliesRead> {
  const comment = await requireComment(db, scope, commentId);
  need(scope, 'comment', 'reply');
  const body = bodyOf(b.body);
  const id = await db.transaction(async (tx) => {
    const created = await store.insertReply(tx, comment.id, scope.userId, body);
    await recordCommentEvent(tx, scope, 'comment.created', comment.id, comment.page_id, created);
    return created;
  });
  return oneReply(db, comment, id);
}

export async function getReply(db: Db, scope: Scope, commentId: string, id: string): Promise<RepliesRead> {
  const comment = await requireComment(db, scope, commentId);
  return oneReply(db, comment, id);
}

export async function updateReply(db: Db, scope: Scope, commentId: string, id: string, b: UpdateCommentReplyBody): Promise<RepliesRead> {
  const comment = await requireComment(db, scope, commentId);
  const reply = await requireReply(db, comment, id);
  need(scope, 'comment', 'change a reply');
  if (b.body !== undefined && reply.posted_by !== scope.userId) throw forbidden("Only the reply's author can edit its body.");
  checkReactions(b.addedReactions, b.removedReactions);
  const body = b.body !== undefined ? bodyOf(b.body) : undefined;
  await db.transaction(async (tx) => {
    if (body !== undefined) await store.setReplyBody(tx, reply.id, body);
    await store.react(tx, reply.id, scope.userId, b.addedReactions ?? [], b.removedReactions ?? []);
  });
  return oneReply(db, comment, reply.id);
}

/** Deletes a reply (one already gone changes nothing): its author or an admin. */
export async function deleteReply(db: Db, scope: Scope, commentId: string, id: string): Promise<void> {
  const comment = await store.getComment(db, scope.thread, commentId);
  const reply = comment ? await store.getReply(db, comment.id, id) : undefined;
  if (!reply) return;
  if (!mayComment(scope.role, 'delete', reply.posted_by === scope.userId)) {
    throw forbidden('Only the author of a reply or an admin can delete it.');
  }
  await db.transaction((tx) => store.deleteReply(tx, reply.id));
}
