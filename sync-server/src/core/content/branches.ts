import type { Db, Queryable } from '../../store/db';
import { maybeOne } from '../../store/db';

/**
 * A branch of a space's content: its main branch, or a change request's. Each is one Y doc,
 * named as the sync endpoint's rooms are, so edits over WebSocket and over REST meet in
 * the same update log.
 */
export interface Branch {
  spaceId: string;
  /** Absent on the main branch. */
  changeRequestId?: string | null;
}

/** The Y doc id of a branch: `space:<spaceId>` or `cr:<changeRequestId>`. */
export function branchDocId(b: Branch): string {
  return b.changeRequestId ? `cr:${b.changeRequestId}` : `space:${b.spaceId}`;
}

/** Reads a Y doc id back into a branch (looking up the change request's space). */
export async function branchOfDocId(db: Queryable, docId: string): Promise<Branch | undefined> {
  if (docId.startsWith('space:')) return { spaceId: docId.slice('space:'.length) };
  if (docId.startsWith('cr:')) {
    const id = docId.slice('cr:'.length);
    const row = await maybeOne<{ space_id: string }>(db, 'SELECT space_id FROM change_requests WHERE id = $1', [id]);
    return row ? { spaceId: row.space_id, changeRequestId: id } : undefined;
  }
  return undefined;
}

/** `db` when it can open transactions, so callers may pass a pool or a transaction alike. */
export function isDb(db: Db | Queryable): db is Db {
  return typeof (db as Db).transaction === 'function';
}

/** Runs `fn` in a transaction: the caller's when given one, else a new one. */
export function inTransaction<T>(db: Db | Queryable, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return isDb(db) ? db.transaction(fn) : fn(db);
}

/**
 * Serializes writers of one branch's revisions across instances for the rest of the
 * transaction (cut, merge, update, import), so two never build on the same head.
 */
export async function lockBranch(tx: Queryable, docId: string) {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('quire-branch:' || $1))", [docId]);
}
