import * as Y from 'yjs';
import type { Queryable } from './db';
import { maybeOne } from './db';

/**
 * NOTIFY channel announcing new log rows: one notice per statement that appended rows,
 * payload `<origin>` then `\n<docId>\t<seq>` per row (`logNotice`).
 */
export const YDOC_CHANNEL = 'quire_ydoc_updates';

/** The payload announcing `rows`, appended by `origin` (an instance id, or empty for REST writes). */
export function logNotice(origin: string | null, rows: { docId: string; seq: number }[]): string {
  return (origin ?? '') + rows.map((r) => `\n${r.docId}\t${r.seq}`).join('');
}

export function parseLogNotice(payload: string): { origin: string; rows: { docId: string; seq: number }[] } {
  const [origin = '', ...lines] = payload.split('\n');
  const rows = lines.map((line) => {
    const [docId = '', seq] = line.split('\t');
    return { docId, seq: Number(seq) };
  });
  return { origin, rows: rows.filter((r) => r.docId) };
}

/** Bytes a row adds to a notice, at most (the seq's digits included): groups stay under PostgreSQL's 8000-byte payload. */
export const noticeBytesOf = (docId: string) => Buffer.byteLength(docId) + 22;

export interface StoredDoc {
  snapshot: Uint8Array | null;
  snapshotSeq: number;
  updates: { seq: number; update: Uint8Array }[];
  lastSeq: number;
}

const bytes = (v: Uint8Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const u8 = (v: Uint8Array | Buffer) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

export async function ensureDoc(db: Queryable, docId: string) {
  await db.query('INSERT INTO ydocs (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [docId]);
}

/**
 * Appends one update to a document's log and announces it; returns its seq. Runs inside
 * the caller's transaction when given one, so the NOTIFY goes out only on commit. Taking
 * the seq and inserting the row are one statement: a revision cut between two statements
 * would count the seq as held while its row was not there yet, and lose that update.
 */
export async function appendUpdate(db: Queryable, docId: string, update: Uint8Array, origin: string | null = null): Promise<number> {
  await ensureDoc(db, docId);
  const row = await maybeOne<{ seq: number }>(
    db,
    `WITH next AS (UPDATE ydocs SET last_seq = last_seq + 1, updated_at = now() WHERE id = $1 RETURNING last_seq)
     INSERT INTO ydoc_updates (doc_id, seq, update, origin) SELECT $1, last_seq, $2, $3 FROM next RETURNING seq`,
    [docId, bytes(update), origin],
  );
  const seq = Number(row?.seq);
  await db.query('SELECT pg_notify($1, $2)', [YDOC_CHANNEL, logNotice(origin, [{ docId, seq }])]);
  return seq;
}

/**
 * The document's snapshot and log past it, read in one statement: one statement sees one
 * state of the database, so a compaction committing meanwhile cannot fold rows away
 * between reading where the snapshot stands and reading the rows after it.
 */
export async function loadStoredDoc(db: Queryable, docId: string): Promise<StoredDoc | undefined> {
  return readDocLog(db, docId, -1);
}

/**
 * The log of a document past `afterSeq`, in one statement (see `loadStoredDoc`): the rows
 * after both `afterSeq` and the snapshot, plus the snapshot itself when it holds rows past
 * `afterSeq` (they were folded into it). Undefined for an unknown document. Throws when the
 * rows are not contiguous up to `lastSeq`, which no committed state should show.
 */
export async function readDocLog(db: Queryable, docId: string, afterSeq: number): Promise<StoredDoc | undefined> {
  const rows = await db.query<{ head: boolean; seq: number; last_seq: number | null; data: Uint8Array | null }>(
    `SELECT true AS head, d.snapshot_seq AS seq, d.last_seq, CASE WHEN d.snapshot_seq > $2 THEN d.snapshot END AS data
       FROM ydocs d WHERE d.id = $1
     UNION ALL
     SELECT false, u.seq, NULL, u.update
       FROM ydoc_updates u JOIN ydocs d ON d.id = u.doc_id
      WHERE u.doc_id = $1 AND u.seq > GREATEST(d.snapshot_seq, $2)
     ORDER BY head DESC, seq`,
    [docId, afterSeq],
  );
  const head = rows[0];
  if (!head?.head) return undefined;
  const snapshotSeq = Number(head.seq);
  const updates = rows.slice(1).map((r) => ({ seq: Number(r.seq), update: u8(r.data as Uint8Array) }));
  let expected = Math.max(snapshotSeq, afterSeq);
  for (const u of updates) {
    if (u.seq !== expected + 1) throw new Error(`the log of ${docId} has a gap before seq ${u.seq}`);
    expected = u.seq;
  }
  return {
    snapshot: head.data ? u8(head.data) : null,
    snapshotSeq,
    updates,
    lastSeq: Math.max(Number(head.last_seq), expected),
  };
}

export async function updatesSince(db: Queryable, docId: string, afterSeq: number) {
  const rows = await db.query<{ seq: number; update: Uint8Array }>(
    'SELECT seq, update FROM ydoc_updates WHERE doc_id = $1 AND seq > $2 ORDER BY seq',
    [docId, afterSeq],
  );
  return rows.map((r) => ({ seq: Number(r.seq), update: u8(r.update) }));
}

/** The whole state of a stored document as one update (empty doc when unknown). */
export async function loadDocUpdate(db: Queryable, docId: string): Promise<{ update: Uint8Array; seq: number }> {
  const stored = await loadStoredDoc(db, docId);
  if (!stored) return { update: Y.encodeStateAsUpdate(new Y.Doc()), seq: 0 };
  const parts = [...(stored.snapshot ? [stored.snapshot] : []), ...stored.updates.map((u) => u.update)];
  return { update: parts.length ? Y.mergeUpdates(parts) : Y.encodeStateAsUpdate(new Y.Doc()), seq: stored.lastSeq };
}

/** A Y.Doc holding the stored state. */
export async function loadYDoc(db: Queryable, docId: string): Promise<{ doc: Y.Doc; seq: number }> {
  const { update, seq } = await loadDocUpdate(db, docId);
  const doc = new Y.Doc({ gc: true });
  Y.applyUpdate(doc, update);
  return { doc, seq };
}

/**
 * Folds the log into the snapshot. The merge, the costly part, runs before any lock: it
 * reads the snapshot and the rows after it in one statement (rows below `last_seq` never
 * change), then stores it as `compactDocTo` does. An update appended meanwhile has a higher
 * seq and stays in the log; a fold that got further meanwhile wins.
 */
export async function compactDoc(
  db: { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> } & Queryable,
  docId: string,
): Promise<number> {
  const stored = await readDocLog(db, docId, -1);
  if (!stored || stored.updates.length === 0) return 0;
  const merged = Y.mergeUpdates([...(stored.snapshot ? [stored.snapshot] : []), ...stored.updates.map((u) => u.update)]);
  return compactDocTo(db, docId, merged, stored.updates.at(-1)?.seq ?? 0);
}

/**
 * Folds the log up to `upTo` into `snapshot`, a state that holds every row up to it (a
 * merge of the stored log, or a loaded room's document). Under the document row's lock,
 * and only when the log holds every row up to `upTo` and the snapshot stands before it;
 * otherwise nothing changes (0). Returns how many seqs the snapshot moved past.
 */
export async function compactDocTo(
  db: { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> },
  docId: string,
  snapshot: Uint8Array,
  upTo: number,
): Promise<number> {
  return db.transaction(async (tx) => {
    const head = await maybeOne<{ snapshot_seq: number; last_seq: number }>(
      tx,
      'SELECT snapshot_seq, last_seq FROM ydocs WHERE id = $1 FOR UPDATE',
      [docId],
    );
    if (!head || Number(head.snapshot_seq) >= upTo || Number(head.last_seq) < upTo) return 0;
    await tx.query('UPDATE ydocs SET snapshot = $2, snapshot_seq = $3 WHERE id = $1', [docId, bytes(snapshot), upTo]);
    await tx.query('DELETE FROM ydoc_updates WHERE doc_id = $1 AND seq <= $2', [docId, upTo]);
    return upTo - Number(head.snapshot_seq);
  });
}

/** Starts `toId` as a copy of `fromId`'s current state (a fork, or a duplicated space). */
export async function copyDoc(db: Queryable, fromId: string, toId: string) {
  const { update } = await loadDocUpdate(db, fromId);
  await appendUpdate(db, toId, update);
}

export async function deleteDoc(db: Queryable, docId: string) {
  await db.query('DELETE FROM ydocs WHERE id = $1', [docId]);
}
