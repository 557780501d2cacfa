import * as Y from 'yjs';
import { type LocalDb, type Queryable, bytea, maybeOne, u8 } from './database';

/** The Yjs state of one branch as kept on disk: a snapshot plus the updates after it. */
export interface StoredDoc {
  update: Uint8Array | null;
  lastSeq: number;
  logLength: number;
}

/**
 * Appends one update to a branch's log. The caller reports an edit as saved only once this
 * resolves: the row is committed (and the WAL synced) by then, so a crash cannot lose it.
 * `unsent` counts local edits made while not connected, for the sync status.
 */
export async function appendDocUpdate(
  db: LocalDb,
  docId: string,
  update: Uint8Array,
  unsent: boolean,
  pages: Iterable<string> = [],
): Promise<number> {
  return db.transaction(async (tx) => {
    const seq = await appendDocUpdateIn(tx, docId, update, unsent);
    if (unsent) await notePendingPages(tx, docId, pages, seq);
    return seq;
  });
}

/** Pages an unsent edit touched, for the count of pages waiting to sync. */
async function notePendingPages(tx: Queryable, docId: string, pages: Iterable<string>, seq: number) {
  const ids = [...new Set(pages)];
  if (!ids.length) return;
  await tx.query(
    `INSERT INTO pending_pages (doc_id, page_id, seq) SELECT $1, unnest($2::text[]), $3
     ON CONFLICT (doc_id, page_id) DO UPDATE SET seq = EXCLUDED.seq`,
    [docId, ids, seq],
  );
}

/** `appendDocUpdate` inside the caller's transaction (a fork writes the new branch with its row). */
export async function appendDocUpdateIn(tx: Queryable, docId: string, update: Uint8Array, unsent: boolean): Promise<number> {
  const head = await maybeOne<{ last_seq: number }>(
    tx,
    `INSERT INTO doc_heads (doc_id, last_seq, unsent) VALUES ($1, 1, $2)
     ON CONFLICT (doc_id) DO UPDATE SET last_seq = doc_heads.last_seq + 1, unsent = doc_heads.unsent + $2
     RETURNING last_seq`,
    [docId, unsent ? 1 : 0],
  );
  const seq = Number(head?.last_seq);
  await tx.query('INSERT INTO doc_updates (doc_id, seq, update) VALUES ($1, $2, $3)', [docId, seq, bytea(update)]);
  return seq;
}

/** One stored update: the snapshot may be in Yjs's update format v2, the log never is. */
export interface StoredPart {
  update: Uint8Array;
  v2: boolean;
}

/** The stored state of a branch in log order: the snapshot, then the updates after it. */
export interface StoredParts {
  parts: StoredPart[];
  lastSeq: number;
  logLength: number;
}

/**
 * Read as base64 text: PGlite decodes a bytea result byte by byte in JavaScript, which for
 * a large branch costs a hundred times more than Node's native base64 decoder.
 */
const fromBase64 = (text: string) => u8(Buffer.from(text, 'base64'));

export async function loadDocParts(db: Queryable, docId: string): Promise<StoredParts> {
  const head = await maybeOne<{ snapshot: string | null; v2: boolean; snapshot_seq: number; last_seq: number }>(
    db,
    `SELECT coalesce(snapshot_text, encode(snapshot, 'base64')) AS snapshot, snapshot_text IS NOT NULL AND snapshot_v2 AS v2,
            snapshot_seq, last_seq FROM doc_heads WHERE doc_id = $1`,
    [docId],
  );
  if (!head) return { parts: [], lastSeq: 0, logLength: 0 };
  const rows = await db.query<{ update: string }>(
    "SELECT encode(update, 'base64') AS update FROM doc_updates WHERE doc_id = $1 AND seq > $2 ORDER BY seq",
    [docId, Number(head.snapshot_seq)],
  );
  return {
    parts: [
      ...(head.snapshot ? [{ update: fromBase64(head.snapshot), v2: head.v2 }] : []),
      ...rows.map((r) => ({ update: fromBase64(r.update), v2: false })),
    ],
    lastSeq: Number(head.last_seq),
    logLength: rows.length,
  };
}

/**
 * A branch's saved state in base64 (`v2`: in Yjs's update format v2), with the view of it
 * saved beside it when there is one (JSON).
 */
export interface SavedState {
  state: string;
  v2: boolean;
  view: string | null;
}

/**
 * The stored state of a branch as one update in base64, read without decoding it: what a
 * window opening a branch that is not in memory is sent while the node loads it. A log
 * left since the last compaction (a crash) is merged in; usually the snapshot is all. The
 * view comes only with the snapshot it was written with, never with a log after it.
 */
export async function loadDocStateBase64(db: Queryable, docId: string): Promise<SavedState> {
  const head = await maybeOne<{ snapshot: string | null; v2: boolean; view: string | null; snapshot_seq: number; logged: number }>(
    db,
    `SELECT coalesce(snapshot_text, encode(snapshot, 'base64')) AS snapshot, snapshot_text IS NOT NULL AND snapshot_v2 AS v2,
            snapshot_view AS view, snapshot_seq, last_seq - snapshot_seq AS logged
       FROM doc_heads WHERE doc_id = $1`,
    [docId],
  );
  // PostgreSQL's base64 breaks lines; the text column has none.
  if (head?.snapshot && Number(head.logged) === 0)
    return { state: head.snapshot.includes('\n') ? head.snapshot.replace(/\n/g, '') : head.snapshot, v2: head.v2, view: head.view };
  const { update } = await loadDoc(db, docId);
  return { state: Buffer.from(update ?? Y.encodeStateAsUpdate(new Y.Doc())).toString('base64'), v2: false, view: null };
}

/** The whole stored state of a branch as one update (format v1), or null when nothing was ever saved. */
export async function loadDoc(db: Queryable, docId: string): Promise<StoredDoc> {
  const { parts, lastSeq, logLength } = await loadDocParts(db, docId);
  const v1 = parts.map((p) => (p.v2 ? Y.convertUpdateFormatV2ToV1(p.update) : p.update));
  return {
    update: v1.length === 0 ? null : v1.length === 1 ? (v1[0] as Uint8Array) : Y.mergeUpdates(v1),
    lastSeq,
    logLength,
  };
}

/**
 * Folds the log into the snapshot, in one transaction: a crash leaves either the old log or
 * the new snapshot, never neither. Keeps opening a long-edited branch fast.
 */
export async function compactDoc(db: LocalDb, docId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const stored = await loadDoc(tx, docId);
    if (!stored.update || stored.logLength === 0) return;
    await tx.query(
      'UPDATE doc_heads SET snapshot = $2, snapshot_text = NULL, snapshot_view = NULL, snapshot_v2 = false, snapshot_seq = $3 WHERE doc_id = $1',
      [docId, bytea(stored.update), stored.lastSeq],
    );
    await tx.query('DELETE FROM doc_updates WHERE doc_id = $1 AND seq <= $2', [docId, stored.lastSeq]);
  });
}

/**
 * Replaces a branch's snapshot and log with `state`, the whole state of its open doc holding
 * every update up to `seq`, in Yjs's update format v2 (a window opening the branch is sent
 * it as it is, and decodes v2 in about half the time). One transaction: a crash leaves the old log or the new snapshot,
 * and opening it later is one read. False, changing nothing, when the log went past `seq`
 * (something else appended to it): the doc then does not hold all of it.
 */
export async function snapshotDoc(
  db: LocalDb,
  docId: string,
  stateV2: Uint8Array,
  seq: number,
  view: string | null = null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const head = await maybeOne<{ last_seq: number }>(tx, 'SELECT last_seq FROM doc_heads WHERE doc_id = $1 FOR UPDATE', [docId]);
    if (!head || Number(head.last_seq) !== seq) return false;
    await tx.query(
      'UPDATE doc_heads SET snapshot = NULL, snapshot_text = $2, snapshot_view = $4, snapshot_v2 = true, snapshot_seq = $3 WHERE doc_id = $1',
      [docId, Buffer.from(stateV2.buffer, stateV2.byteOffset, stateV2.byteLength).toString('base64'), seq, view],
    );
    await tx.query('DELETE FROM doc_updates WHERE doc_id = $1 AND seq <= $2', [docId, seq]);
    return true;
  });
}

export async function docLastSeq(db: Queryable, docId: string): Promise<number> {
  const row = await maybeOne<{ last_seq: number }>(db, 'SELECT last_seq FROM doc_heads WHERE doc_id = $1', [docId]);
  return Number(row?.last_seq ?? 0);
}

/**
 * Local edits not yet confirmed by a server, over every branch bound for one (branches of
 * spaces that stay on this machine wait for nothing).
 */
export async function unsentEdits(db: Queryable): Promise<number> {
  const row = await maybeOne<{ n: number }>(
    db,
    `SELECT coalesce(sum(h.unsent), 0)::int AS n FROM doc_heads h
      WHERE h.unsent > 0 AND (
        EXISTS (SELECT 1 FROM spaces s WHERE s.sync_state <> 'local' AND h.doc_id = 'space:' || s.id)
        OR EXISTS (SELECT 1 FROM change_requests c JOIN spaces s ON s.id = c.space_id
                    WHERE s.sync_state <> 'local' AND h.doc_id = 'cr:' || c.id))`,
  );
  return Number(row?.n ?? 0);
}

/** Local edits of one branch the server has not confirmed yet. */
export async function unsentCount(db: Queryable, docId: string): Promise<number> {
  const row = await maybeOne<{ unsent: number }>(db, 'SELECT unsent FROM doc_heads WHERE doc_id = $1', [docId]);
  return Number(row?.unsent ?? 0);
}

/** The server confirmed `count` waiting edits (the ones counted when it was asked). */
export async function markDocSent(db: Queryable, docId: string, count: number, upToSeq = Number.MAX_SAFE_INTEGER): Promise<void> {
  await db.query('UPDATE doc_heads SET unsent = greatest(0, unsent - $2) WHERE doc_id = $1', [docId, count]);
  await db.query('DELETE FROM pending_pages WHERE doc_id = $1 AND seq <= $2', [docId, upToSeq]);
}

/**
 * Pages waiting to reach a server, over every branch bound for one: each page with
 * unconfirmed edits counts once however many keystrokes it holds; a branch whose waiting
 * edits touched no page (a new branch's first state) counts as one.
 */
/** The pages of a branch that edits made here and not yet on the server touched. */
export async function pendingPagesOf(db: Queryable, docId: string): Promise<string[]> {
  const rows = await db.query<{ page_id: string }>('SELECT page_id FROM pending_pages WHERE doc_id = $1 ORDER BY page_id', [docId]);
  return rows.map((r) => r.page_id);
}

export async function pendingPageCount(db: Queryable): Promise<number> {
  const row = await maybeOne<{ n: number }>(
    db,
    `WITH bound AS (
       SELECT h.doc_id FROM doc_heads h
        WHERE h.unsent > 0 AND (
          EXISTS (SELECT 1 FROM spaces s WHERE s.sync_state <> 'local' AND h.doc_id = 'space:' || s.id)
          OR EXISTS (SELECT 1 FROM change_requests c JOIN spaces s ON s.id = c.space_id
                      WHERE s.sync_state <> 'local' AND h.doc_id = 'cr:' || c.id)))
     SELECT (SELECT count(*) FROM pending_pages p JOIN bound b ON b.doc_id = p.doc_id)
          + (SELECT count(*) FROM bound b WHERE NOT EXISTS (SELECT 1 FROM pending_pages p WHERE p.doc_id = b.doc_id)) AS n`,
  );
  return Number(row?.n ?? 0);
}

export async function deleteDoc(db: Queryable, docId: string): Promise<void> {
  await db.query('DELETE FROM pending_pages WHERE doc_id = $1', [docId]);
  await db.query('DELETE FROM doc_updates WHERE doc_id = $1', [docId]);
  await db.query('DELETE FROM doc_heads WHERE doc_id = $1', [docId]);
}
