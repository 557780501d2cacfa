import { newId } from '@quire/shared';
import type { CommentStatus } from '@quire/shared/schemas/comment';
import { type Queryable, maybeOne, one } from './db';
import { type PageRequest, keysetPage } from './paginate';
import type { UserRow } from './users';

export interface CommentRow {
  id: string;
  seq: number;
  space_id: string;
  change_request_id: string | null;
  page_id: string | null;
  node_id: string | null;
  node_preview: string | null;
  table_record: string | null;
  table_definition: string | null;
  revision_id: string | null;
  posted_by: string;
  posted_at: Date;
  edited_at: Date | null;
  body: string;
  status: CommentStatus;
  resolved_at: Date | null;
  resolved_by: string | null;
  replies: number;
}

export interface ReplyRow {
  id: string;
  seq: number;
  comment_id: string;
  posted_by: string;
  posted_at: Date;
  edited_at: Date | null;
  body: string;
}

export interface ReactionRow {
  subject_id: string;
  emoji: string;
  user_id: string;
  reacted_at: Date;
}

/** The branch a thread lives on: a space's main branch (`changeRequestId` null) or a change request's. */
export interface Thread {
  spaceId: string;
  changeRequestId: string | null;
}

const COLUMNS = 'c.*, (SELECT count(*)::int FROM comment_replies r WHERE r.comment_id = c.id) AS replies';
const IN_THREAD = 'c.space_id = $1 AND c.change_request_id IS NOT DISTINCT FROM $2';

export function getComment(db: Queryable, thread: Thread, id: string) {
  return maybeOne<CommentRow>(db, `SELECT ${COLUMNS} FROM comments c WHERE ${IN_THREAD} AND c.id = $3`, [
    thread.spaceId,
    thread.changeRequestId,
    id,
  ]);
}

export interface CommentFilter {
  status?: CommentStatus;
  pageId?: string;
  authors?: string[];
  order?: 'asc' | 'desc';
}

export function listComments(db: Queryable, thread: Thread, f: CommentFilter, page: PageRequest) {
  const params: unknown[] = [thread.spaceId, thread.changeRequestId];
  let where = `WHERE ${IN_THREAD}`;
  if (f.status) {
    params.push(f.status);
    where += ` AND c.status = $${params.length}`;
  }
  if (f.pageId) {
    params.push(f.pageId);
    where += ` AND c.page_id = $${params.length}`;
  }
  if (f.authors?.length) {
    params.push(f.authors);
    where += ` AND c.posted_by = ANY($${params.length})`;
  }
  return keysetPage<CommentRow>(
    db,
    { columns: COLUMNS, from: `FROM comments c ${where}`, params, seq: 'c.seq', order: f.order ?? 'desc' },
    page,
  );
}

export interface NewComment {
  pageId: string | null;
  nodeId: string | null;
  nodePreview: string | null;
  tableRecord: string | null;
  tableDefinition: string | null;
  revisionId: string | null;
  postedBy: string;
  body: string;
}

export async function insertComment(db: Queryable, thread: Thread, c: NewComment): Promise<string> {
  const row = await one<{ id: string }>(
    db,
    `INSERT INTO comments (id, space_id, change_request_id, page_id, node_id, node_preview, table_record, table_definition, revision_id, posted_by, body)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
    [
      newId(),
      thread.spaceId,
      thread.changeRequestId,
      c.pageId,
      c.nodeId,
      c.nodePreview,
      c.tableRecord,
      c.tableDefinition,
      c.revisionId,
      c.postedBy,
      c.body,
    ],
  );
  return row.id;
}

export async function setCommentBody(db: Queryable, id: string, body: string) {
  await db.query('UPDATE comments SET body = $2, edited_at = now() WHERE id = $1 AND body IS DISTINCT FROM $2', [id, body]);
}

/** Resolves or reopens; resolving an already resolved comment keeps who and when. */
export async function setResolved(db: Queryable, id: string, resolved: boolean, userId: string) {
  if (resolved) {
    await db.query(
      "UPDATE comments SET status = 'resolved', resolved_at = now(), resolved_by = $2 WHERE id = $1 AND status <> 'resolved'",
      [id, userId],
    );
  } else {
    await db.query("UPDATE comments SET status = 'open', resolved_at = NULL, resolved_by = NULL WHERE id = $1 AND status <> 'open'", [id]);
  }
}

export async function deleteComment(db: Queryable, id: string) {
  await db.query(
    'DELETE FROM comment_reactions WHERE subject_id = $1 OR subject_id IN (SELECT id FROM comment_replies WHERE comment_id = $1)',
    [id],
  );
  await db.query('DELETE FROM comments WHERE id = $1', [id]);
}

export function getReply(db: Queryable, commentId: string, id: string) {
  return maybeOne<ReplyRow>(db, 'SELECT * FROM comment_replies WHERE comment_id = $1 AND id = $2', [commentId, id]);
}

export function listReplies(db: Queryable, commentId: string, order: 'asc' | 'desc', page: PageRequest) {
  return keysetPage<ReplyRow>(
    db,
    { columns: 'r.*', from: 'FROM comment_replies r WHERE r.comment_id = $1', params: [commentId], seq: 'r.seq', order },
    page,
  );
}

export async function insertReply(db: Queryable, commentId: string, postedBy: string, body: string): Promise<string> {
  const row = await one<{ id: string }>(
    db,
    'INSERT INTO comment_replies (id, comment_id, posted_by, body) VALUES ($1, $2, $3, $4) RETURNING id',
    [newId(), commentId, postedBy, body],
  );
  return row.id;
}

export async function setReplyBody(db: Queryable, id: string, body: string) {
  await db.query('UPDATE comment_replies SET body = $2, edited_at = now() WHERE id = $1 AND body IS DISTINCT FROM $2', [id, body]);
}

export async function deleteReply(db: Queryable, id: string) {
  await db.query('DELETE FROM comment_reactions WHERE subject_id = $1', [id]);
  await db.query('DELETE FROM comment_replies WHERE id = $1', [id]);
}

/** Adds the user's reactions (each emoji once per user) and removes others, in one go. */
export async function react(db: Queryable, subjectId: string, userId: string, added: string[], removed: string[]) {
  if (removed.length) {
    await db.query('DELETE FROM comment_reactions WHERE subject_id = $1 AND user_id = $2 AND emoji = ANY($3)', [
      subjectId,
      userId,
      removed,
    ]);
  }
  for (const emoji of added) {
    await db.query('INSERT INTO comment_reactions (subject_id, emoji, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
      subjectId,
      emoji,
      userId,
    ]);
  }
}

/** Reactions of several comments or replies, oldest first within each. */
export function reactionsOf(db: Queryable, subjectIds: string[]) {
  if (subjectIds.length === 0) return Promise.resolve([] as ReactionRow[]);
  return db.query<ReactionRow>(
    'SELECT subject_id, emoji, user_id, reacted_at FROM comment_reactions WHERE subject_id = ANY($1) ORDER BY seq',
    [subjectIds],
  );
}

export interface ReplierRow {
  comment_id: string;
  user_id: string;
  count: number;
  last_reply_at: Date;
}

/** Who replied to each of several comments: replies per user and the latest one, first repliers first. */
export function repliersOf(db: Queryable, commentIds: string[]) {
  if (commentIds.length === 0) return Promise.resolve([] as ReplierRow[]);
  return db.query<ReplierRow>(
    `SELECT comment_id, posted_by AS user_id, count(*)::int AS count, max(posted_at) AS last_reply_at
     FROM comment_replies WHERE comment_id = ANY($1) GROUP BY comment_id, posted_by ORDER BY comment_id, min(seq)`,
    [commentIds],
  );
}

/** Open comments on the main branch of each space. */
export async function openSpaceCommentCounts(db: Queryable, spaceIds: string[]): Promise<Map<string, number>> {
  if (spaceIds.length === 0) return new Map();
  const rows = await db.query<{ space_id: string; n: number }>(
    "SELECT space_id, count(*)::int AS n FROM comments WHERE space_id = ANY($1) AND change_request_id IS NULL AND status = 'open' GROUP BY space_id",
    [spaceIds],
  );
  return new Map(rows.map((r) => [r.space_id, r.n]));
}

/** Open comments of each change request. */
export async function openChangeRequestCommentCounts(db: Queryable, changeRequestIds: string[]): Promise<Map<string, number>> {
  if (changeRequestIds.length === 0) return new Map();
  const rows = await db.query<{ change_request_id: string; n: number }>(
    "SELECT change_request_id, count(*)::int AS n FROM comments WHERE change_request_id = ANY($1) AND status = 'open' GROUP BY change_request_id",
    [changeRequestIds],
  );
  return new Map(rows.map((r) => [r.change_request_id, r.n]));
}

/** The users comments show (authors, resolvers, reactors), by id. */
export async function commentUsers(db: Queryable, ids: Iterable<string | null | undefined>) {
  const unique = [...new Set([...ids].filter((id): id is string => !!id))];
  if (unique.length === 0) return new Map<string, UserRow>();
  const rows = await db.query<UserRow>('SELECT * FROM users WHERE id = ANY($1)', [unique]);
  return new Map(rows.map((u) => [u.id, u]));
}
