import type { Queryable } from './database';
import { maybeOne } from './database';
import { adoptRemoteId } from './remoteIds';

export type CommentSyncState = 'local' | 'pending' | 'synced' | 'failed';

export interface Reaction {
  emoji: string;
  /** Ids of the users who reacted (display names for reactions made before sign-in). */
  users: string[];
}

export interface Author {
  id: string;
  displayName: string;
}

export interface CommentRow {
  id: string;
  remoteId: string | null;
  spaceId: string;
  changeRequestId: string | null;
  pageId: string | null;
  parentId: string | null;
  author: Author | null;
  body: string;
  postedAt: string;
  resolved: boolean;
  reactions: Reaction[];
  syncState: CommentSyncState;
  error: string | null;
}

interface Raw {
  id: string;
  remote_id: string | null;
  space_id: string;
  change_request_id: string | null;
  page_id: string | null;
  parent_id: string | null;
  author: Author | null;
  body: string;
  posted_at: Date | string;
  resolved: boolean;
  reactions: Reaction[];
  sync_state: CommentSyncState;
  error: string | null;
}

const toRow = (r: Raw): CommentRow => ({
  id: r.id,
  remoteId: r.remote_id,
  spaceId: r.space_id,
  changeRequestId: r.change_request_id,
  pageId: r.page_id,
  parentId: r.parent_id,
  author: r.author,
  body: r.body,
  postedAt: new Date(r.posted_at).toISOString(),
  resolved: r.resolved,
  reactions: r.reactions ?? [],
  syncState: r.sync_state,
  error: r.error,
});

/** Comments and replies of one branch (optionally one page), oldest first. */
export async function listComments(db: Queryable, spaceId: string, changeRequestId: string | null, pageId?: string): Promise<CommentRow[]> {
  const rows = await db.query<Raw>(
    `SELECT * FROM comments WHERE space_id = $1 AND change_request_id IS NOT DISTINCT FROM $2
       AND ($3::text IS NULL OR page_id = $3 OR parent_id IN (SELECT id FROM comments WHERE page_id = $3))
     ORDER BY seq`,
    [spaceId, changeRequestId, pageId ?? null],
  );
  return rows.map(toRow);
}

export async function getComment(db: Queryable, id: string): Promise<CommentRow | undefined> {
  const row = await maybeOne<Raw>(db, 'SELECT * FROM comments WHERE id = $1', [id]);
  return row && toRow(row);
}

export async function insertComment(
  db: Queryable,
  c: Pick<CommentRow, 'id' | 'spaceId' | 'changeRequestId' | 'pageId' | 'parentId' | 'author' | 'body' | 'syncState'>,
): Promise<void> {
  await db.query(
    `INSERT INTO comments (id, space_id, change_request_id, page_id, parent_id, author, body, sync_state)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [c.id, c.spaceId, c.changeRequestId, c.pageId, c.parentId, JSON.stringify(c.author), c.body, c.syncState],
  );
}

export async function setCommentRemote(db: Queryable, id: string, remoteId: string): Promise<void> {
  await adoptRemoteId(db, 'comments', id, remoteId);
  await db.query("UPDATE comments SET remote_id = $2, sync_state = 'synced', error = NULL WHERE id = $1", [id, remoteId]);
}

export async function setCommentState(db: Queryable, id: string, state: CommentSyncState, error: string | null = null): Promise<void> {
  await db.query('UPDATE comments SET sync_state = $2, error = $3 WHERE id = $1', [id, state, error]);
}

export async function setResolved(db: Queryable, id: string, resolved: boolean): Promise<void> {
  await db.query('UPDATE comments SET resolved = $2 WHERE id = $1', [id, resolved]);
}

export async function setReactions(db: Queryable, id: string, reactions: Reaction[]): Promise<void> {
  await db.query('UPDATE comments SET reactions = $2 WHERE id = $1', [id, JSON.stringify(reactions)]);
}

/** Adds or removes one user's reaction; returns the new list. */
export function toggleReaction(reactions: Reaction[], emoji: string, userId: string, on: boolean): Reaction[] {
  const out = reactions.map((r) => ({ ...r, users: [...r.users] }));
  let entry = out.find((r) => r.emoji === emoji);
  if (on) {
    if (!entry) {
      entry = { emoji, users: [] };
      out.push(entry);
    }
    if (!entry.users.includes(userId)) entry.users.push(userId);
  } else if (entry) {
    entry.users = entry.users.filter((u) => u !== userId);
  }
  return out.filter((r) => r.users.length > 0);
}

/** The server's comment or reply as its REST API returns it (the fields used here). */
export interface RemoteComment {
  id: string;
  postedBy?: { id?: string; displayName?: string };
  postedAt?: string;
  body?: { markdown?: string };
  status?: string;
  target?: { page?: { id?: string } };
  reactions?: { emoji: string; users?: { user?: { id?: string } }[] }[];
  replies?: number;
}

/**
 * Takes in the server's comments (and replies) of a branch. Rows known to the server are
 * replaced by its view; rows that wait in the outbox, failed, or live only here, stay.
 */
export async function mergeRemoteComments(
  db: Queryable,
  scope: { spaceId: string; changeRequestId: string | null },
  remote: { comment: RemoteComment; replies: RemoteComment[] }[],
): Promise<void> {
  const seen: string[] = [];
  const upsert = async (c: RemoteComment, parentId: string | null, pageId: string | null) => {
    seen.push(c.id);
    const author = c.postedBy ? { id: c.postedBy.id ?? '', displayName: c.postedBy.displayName ?? 'Someone' } : null;
    const reactions: Reaction[] = (c.reactions ?? []).map((r) => ({ emoji: r.emoji, users: (r.users ?? []).map((u) => u.user?.id ?? '') }));
    const existing = await maybeOne<{ id: string; sync_state: string }>(db, 'SELECT id, sync_state FROM comments WHERE remote_id = $1', [
      c.id,
    ]);
    const resolved = c.status === 'resolved';
    const hasQueued = existing
      ? await maybeOne(db, "SELECT 1 FROM outbox WHERE state = 'pending' AND (payload->>'commentId' = $1 OR payload->>'replyId' = $1)", [
          existing.id,
        ])
      : undefined;
    if (existing) {
      if (hasQueued) return existing.id;
      await db.query('UPDATE comments SET body = $2, resolved = $3, reactions = $4, author = $5 WHERE id = $1', [
        existing.id,
        c.body?.markdown ?? '',
        resolved,
        JSON.stringify(reactions),
        JSON.stringify(author),
      ]);
      return existing.id;
    }
    await db.query(
      `INSERT INTO comments (id, remote_id, space_id, change_request_id, page_id, parent_id, author, body, posted_at, resolved, reactions, sync_state)
       VALUES ($1, $1, $2, $3, $4, $5, $6, $7, coalesce($8::timestamptz, now()), $9, $10, 'synced')`,
      [
        c.id,
        scope.spaceId,
        scope.changeRequestId,
        pageId,
        parentId,
        JSON.stringify(author),
        c.body?.markdown ?? '',
        c.postedAt ?? null,
        resolved,
        JSON.stringify(reactions),
      ],
    );
    return c.id;
  };
  for (const { comment, replies } of remote) {
    const pageId = comment.target?.page?.id ?? null;
    const localId = await upsert(comment, null, pageId);
    for (const reply of replies) await upsert(reply, localId, pageId);
  }
  await db.query(
    `DELETE FROM comments WHERE space_id = $1 AND change_request_id IS NOT DISTINCT FROM $2 AND sync_state = 'synced'
       AND NOT (remote_id = ANY($3::text[]))`,
    [scope.spaceId, scope.changeRequestId, seen],
  );
}
