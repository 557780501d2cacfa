import type { Role } from '@quire/shared';
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
import type { OrgAccess } from '../../core/access';
import { BodyError, presentBody, storedBody } from '../../core/comments/bodies';
import { BranchView } from '../../core/comments/targets';
import { atLeast } from '../../core/roles';
import { recordWebhookEvent } from '../../core/webhooks/events';
import type { DbHandle } from '../../core/deps';
import * as store from '../../store/comments';
import type { CommentRow, ReactionRow, ReplyRow, Thread } from '../../store/comments';
import type { PageRequest } from '../../store/paginate';
import type { SpaceRow } from '../../store/spaces';
import type { UserRow } from '../../store/users';
import { requireChangeRequest } from '../guards';
import { badRequest, forbidden, notFound } from '@quire/shared/apiErrors';
import type { AppEnv } from '../env';
import { requireSpace } from '../guards';
import { envelope } from '../listing';
import { compact, iso } from '../presenters/iso';
import { presentUser } from '../presenters/user';
import { baseUrl } from '../urls';

type Ctx = Context<AppEnv>;

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

/** Who may read the discussion: anyone who can read the content. */
const VIEW: Role = 'read';
/** Who may post, reply, react and resolve. */
const COMMENT: Role = 'comment';

export async function spaceScope(c: Ctx, spaceId: string): Promise<Scope> {
  const { space, access, role } = await requireSpace(c, spaceId, VIEW);
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
  const { space, access, role, cr } = await requireChangeRequest(c, spaceId, ref, VIEW);
  return {
    thread: { spaceId: space.id, changeRequestId: cr.id },
    space,
    access,
    role,
    path: `/v1/spaces/${space.id}/change-requests/${cr.id}`,
    userId: c.get('caller').user.id,
  };
}

function need(scope: Scope, role: Role, what: string) {
  if (!atLeast(scope.role, role)) throw forbidden(`This needs the ${role} role on the space to ${what}.`);
}

function bodyOf(input: Parameters<typeof storedBody>[0]): string {
  try {
    return storedBody(input);
  } catch (err) {
    if (err instanceof BodyError) throw badRequest(err.message);
    throw err;
  }
}

async function requireComment(c: Ctx, scope: Scope, id: string): Promise<CommentRow> {
  const row = await store.getComment(c.get('deps').db, scope.thread, id);
  if (!row) throw notFound('comment');
  return row;
}

async function requireReply(c: Ctx, comment: CommentRow, id: string): Promise<ReplyRow> {
  const row = await store.getReply(c.get('deps').db, comment.id, id);
  if (!row) throw notFound('comment reply');
  return row;
}

// --- presenting ---

function groupReactions(rows: ReactionRow[], users: Map<string, UserRow>, base: string) {
  const bySubject = new Map<string, Map<string, { user: ReturnType<typeof presentUser>; reactedAt: string }[]>>();
  for (const r of rows) {
    const user = users.get(r.user_id);
    if (!user) continue;
    let byEmoji = bySubject.get(r.subject_id);
    if (!byEmoji) bySubject.set(r.subject_id, (byEmoji = new Map()));
    let list = byEmoji.get(r.emoji);
    if (!list) byEmoji.set(r.emoji, (list = []));
    list.push({ user: presentUser(user, base), reactedAt: iso(r.reacted_at) as string });
  }
  return (subjectId: string) =>
    [...(bySubject.get(subjectId) ?? new Map()).entries()].map(([emoji, users]) => ({ emoji, count: users.length, users }));
}

function groupRepliers(rows: store.ReplierRow[], users: Map<string, UserRow>, base: string) {
  const byComment = new Map<string, { user: ReturnType<typeof presentUser>; count: number; updatedAt: string }[]>();
  for (const r of rows) {
    const list = byComment.get(r.comment_id) ?? [];
    list.push({
      user: presentUser(users.get(r.user_id) ?? ghost(r.user_id), base),
      count: Number(r.count),
      updatedAt: iso(r.last_reply_at) as string,
    });
    byComment.set(r.comment_id, list);
  }
  return (commentId: string) => byComment.get(commentId) ?? [];
}

function permissions(scope: Scope, postedBy: string) {
  const mine = postedBy === scope.userId;
  return {
    view: atLeast(scope.role, VIEW),
    edit: mine && atLeast(scope.role, COMMENT),
    reply: atLeast(scope.role, COMMENT),
    delete: (mine && atLeast(scope.role, COMMENT)) || atLeast(scope.role, 'admin'),
  };
}

const ghost = (id: string): UserRow => ({
  id,
  email: '',
  display_name: 'Deleted user',
  photo_url: null,
  email_verified: false,
  created_at: new Date(0),
});

export async function presentComments(
  c: Ctx,
  scope: Scope,
  rows: CommentRow[],
  format: CommentFormat | undefined,
  view?: BranchView,
): Promise<Comment[]> {
  const { db } = c.get('deps');
  const base = baseUrl(c);
  const ids = rows.map((r) => r.id);
  const [reactions, repliers] = await Promise.all([store.reactionsOf(db, ids), store.repliersOf(db, ids)]);
  const users = await store.commentUsers(db, [
    ...rows.flatMap((r) => [r.posted_by, r.resolved_by]),
    ...reactions.map((r) => r.user_id),
    ...repliers.map((r) => r.user_id),
  ]);
  const reactionsOf = groupReactions(reactions, users, base);
  const repliersOf = groupRepliers(repliers, users, base);
  const branch = rows.some((r) => r.page_id) ? (view ?? (await BranchView.open(db, scope.thread))) : undefined;
  const out: Comment[] = [];
  for (const r of rows) {
    const page = r.page_id && branch ? await branch.pageTarget(r.page_id, r.node_id) : undefined;
    const nodes = r.page_id && r.node_id && branch ? await branch.nodes(r.page_id) : undefined;
    out.push(
      compact({
        object: 'comment' as const,
        id: r.id,
        postedBy: presentUser(users.get(r.posted_by) ?? ghost(r.posted_by), base),
        postedAt: iso(r.posted_at) as string,
        editedAt: iso(r.edited_at),
        reactions: reactionsOf(r.id),
        replies: r.replies,
        repliers: repliersOf(r.id),
        body: presentBody(r.body, format),
        target: compact({
          page,
          node: r.node_id ? compact({ id: r.node_id, preview: nodes?.get(r.node_id) ?? r.node_preview ?? undefined }) : undefined,
          tableCell: r.table_record && r.table_definition ? { record: r.table_record, definition: r.table_definition } : undefined,
          changeRequest: r.change_request_id ?? undefined,
          space: r.space_id,
          revision: r.revision_id ?? undefined,
        }),
        urls: { location: `${base}${scope.path}/comments/${r.id}` },
        permissions: permissions(scope, r.posted_by),
        status: r.status,
        resolvedAt: iso(r.resolved_at),
        resolvedBy: r.resolved_by ? presentUser(users.get(r.resolved_by) ?? ghost(r.resolved_by), base) : undefined,
      }),
    );
  }
  return out;
}

export async function presentReplies(
  c: Ctx,
  scope: Scope,
  comment: CommentRow,
  rows: ReplyRow[],
  format: CommentFormat | undefined,
): Promise<CommentReply[]> {
  const { db } = c.get('deps');
  const base = baseUrl(c);
  const reactions = await store.reactionsOf(
    db,
    rows.map((r) => r.id),
  );
  const users = await store.commentUsers(db, [...rows.map((r) => r.posted_by), ...reactions.map((r) => r.user_id)]);
  const reactionsOf = groupReactions(reactions, users, base);
  return rows.map((r) =>
    compact({
      object: 'comment-reply' as const,
      id: r.id,
      postedBy: presentUser(users.get(r.posted_by) ?? ghost(r.posted_by), base),
      postedAt: iso(r.posted_at) as string,
      editedAt: iso(r.edited_at),
      reactions: reactionsOf(r.id),
      body: presentBody(r.body, format),
      urls: { location: `${base}${scope.path}/comments/${comment.id}/replies/${r.id}` },
      permissions: permissions(scope, r.posted_by),
    }),
  );
}

async function oneComment(c: Ctx, scope: Scope, id: string, format?: CommentFormat, view?: BranchView) {
  const row = await requireComment(c, scope, id);
  return (await presentComments(c, scope, [row], format, view))[0] as Comment;
}

async function oneReply(c: Ctx, scope: Scope, comment: CommentRow, id: string, format?: CommentFormat) {
  const row = await requireReply(c, comment, id);
  return (await presentReplies(c, scope, comment, [row], format))[0] as CommentReply;
}

/** A webhook event about a comment (or a reply in its thread), in the transaction that writes it. */
function recordCommentEvent(
  tx: DbHandle,
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

// --- operations ---

export async function listComments(c: Ctx, scope: Scope, q: ListCommentsQuery) {
  const page = await store.listComments(
    c.get('deps').db,
    scope.thread,
    { status: q.status === 'all' ? undefined : q.status, pageId: q.targetPage, authors: q.authors, order: q.order ?? 'desc' },
    q,
  );
  const items = await presentComments(c, scope, page.rows, q.format);
  return envelope({ ...page, rows: items }, (x) => x);
}

export async function getComment(c: Ctx, scope: Scope, id: string, format?: CommentFormat) {
  return oneComment(c, scope, id, format);
}

export async function createComment(c: Ctx, scope: Scope, b: CreateCommentBody) {
  need(scope, COMMENT, 'comment');
  const { db } = c.get('deps');
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
  return oneComment(c, scope, id, undefined, view);
}

/** Refuses reacting with the same emoji in both lists: the outcome would depend on order. */
function checkReactions(added: string[] | undefined, removed: string[] | undefined) {
  const both = (added ?? []).find((e) => (removed ?? []).includes(e));
  if (both) throw badRequest(`Invalid body field "removedReactions": "${both}" is also in "addedReactions".`);
}

export async function updateComment(c: Ctx, scope: Scope, id: string, b: UpdateCommentBody) {
  const { db } = c.get('deps');
  const row = await requireComment(c, scope, id);
  need(scope, COMMENT, 'change a comment');
  if (b.body !== undefined && row.posted_by !== scope.userId) throw forbidden("Only the comment's author can edit its body.");
  checkReactions(b.addedReactions, b.removedReactions);
  const body = b.body !== undefined ? bodyOf(b.body) : undefined;
  await db.transaction(async (tx) => {
    if (body !== undefined) await store.setCommentBody(tx, row.id, body);
    if (b.resolved !== undefined) await store.setResolved(tx, row.id, b.resolved, scope.userId);
    if (b.resolved && row.status !== 'resolved') await recordCommentEvent(tx, scope, 'comment.resolved', row.id, row.page_id);
    await store.react(tx, row.id, scope.userId, b.addedReactions ?? [], b.removedReactions ?? []);
  });
  return oneComment(c, scope, row.id);
}

export async function deleteComment(c: Ctx, scope: Scope, id: string) {
  const row = await store.getComment(c.get('deps').db, scope.thread, id);
  if (!row) return;
  if (!(row.posted_by === scope.userId && atLeast(scope.role, COMMENT)) && !atLeast(scope.role, 'admin')) {
    throw forbidden('Only the author of a comment or an admin can delete it.');
  }
  await c.get('deps').db.transaction((tx) => store.deleteComment(tx, row.id));
}

export async function listReplies(
  c: Ctx,
  scope: Scope,
  commentId: string,
  q: PageRequest & { format?: CommentFormat; order?: 'asc' | 'desc' },
) {
  const comment = await requireComment(c, scope, commentId);
  // A thread reads oldest first unless asked otherwise.
  const page = await store.listReplies(c.get('deps').db, comment.id, q.order ?? 'asc', q);
  const items = await presentReplies(c, scope, comment, page.rows, q.format);
  return envelope({ ...page, rows: items }, (x) => x);
}

export async function createReply(
  c: Ctx,
  scope: Scope,
  commentId: string,
  b: { body: Parameters<typeof storedBody>[0] },
  format?: CommentFormat,
) {
  const comment = await requireComment(c, scope, commentId);
  need(scope, COMMENT, 'reply');
  const body = bodyOf(b.body);
  const id = await c.get('deps').db.transaction(async (tx) => {
    const created = await store.insertReply(tx, comment.id, scope.userId, body);
    await recordCommentEvent(tx, scope, 'comment.created', comment.id, comment.page_id, created);
    return created;
  });
  return oneReply(c, scope, comment, id, format);
}

export async function getReply(c: Ctx, scope: Scope, commentId: string, id: string, format?: CommentFormat) {
  const comment = await requireComment(c, scope, commentId);
  return oneReply(c, scope, comment, id, format);
}

export async function updateReply(c: Ctx, scope: Scope, commentId: string, id: string, b: UpdateCommentReplyBody) {
  const { db } = c.get('deps');
  const comment = await requireComment(c, scope, commentId);
  const reply = await requireReply(c, comment, id);
  need(scope, COMMENT, 'change a reply');
  if (b.body !== undefined && reply.posted_by !== scope.userId) throw forbidden("Only the reply's author can edit its body.");
  checkReactions(b.addedReactions, b.removedReactions);
  const body = b.body !== undefined ? bodyOf(b.body) : undefined;
  await db.transaction(async (tx) => {
    if (body !== undefined) await store.setReplyBody(tx, reply.id, body);
    await store.react(tx, reply.id, scope.userId, b.addedReactions ?? [], b.removedReactions ?? []);
  });
  return oneReply(c, scope, comment, reply.id);
}

export async function deleteReply(c: Ctx, scope: Scope, commentId: string, id: string) {
  const { db } = c.get('deps');
  const comment = await store.getComment(db, scope.thread, commentId);
  const reply = comment ? await store.getReply(db, comment.id, id) : undefined;
  if (!reply) return;
  if (!(reply.posted_by === scope.userId && atLeast(scope.role, COMMENT)) && !atLeast(scope.role, 'admin')) {
    throw forbidden('Only the author of a reply or an admin can delete it.');
  }
  await db.transaction((tx) => store.deleteReply(tx, reply.id));
}
