import { type Queryable, maybeOne } from './db';
import type { SpaceRow } from './spaces';
import { YDOC_CHANNEL } from './ydocs';

/** What the sync endpoint needs of a change request: where it lives and whether it still takes edits. */
export interface SyncChangeRequestRow {
  id: string;
  space_id: string;
  status: string;
}

/** Whether the change request tables exist (they come with the content migration). */
export async function changeRequestsAvailable(db: Queryable): Promise<boolean> {
  const row = await maybeOne<{ present: boolean }>(db, "SELECT to_regclass('change_requests') IS NOT NULL AS present");
  return !!row?.present;
}

export function getChangeRequestForSync(db: Queryable, changeRequestId: string) {
  return maybeOne<SyncChangeRequestRow>(db, 'SELECT id, space_id, status FROM change_requests WHERE id = $1', [changeRequestId]);
}

/** Whether an API token still exists (a sync ticket lives no longer than the token that asked for it). */
export async function tokenExists(db: Queryable, tokenId: string): Promise<boolean> {
  return !!(await maybeOne(db, 'SELECT 1 FROM api_tokens WHERE id = $1', [tokenId]));
}

/**
 * Records that a sync ticket opened a connection: true for the first use of `ticketId`, false
 * when it was used before (by any instance: the primary key decides, in one statement).
 */
export async function spendSyncTicket(db: Queryable, ticketId: string, expiresAt: Date): Promise<boolean> {
  const rows = await db.query('INSERT INTO sync_ticket_uses (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id', [
    ticketId,
    expiresAt.toISOString(),
  ]);
  return rows.length > 0;
}

/** Drops the uses of tickets expired for a while: those are refused as expired anyway (with room for clocks that differ). */
export async function purgeSpentSyncTickets(db: Queryable): Promise<void> {
  await db.query("DELETE FROM sync_ticket_uses WHERE expires_at < now() - interval '10 minutes'");
}

/** The log position of a document: the last seq handed out and the last one folded into the snapshot. */
export async function docHead(db: Queryable, docId: string): Promise<{ lastSeq: number; snapshotSeq: number } | undefined> {
  const row = await maybeOne<{ last_seq: number; snapshot_seq: number }>(db, 'SELECT last_seq, snapshot_seq FROM ydocs WHERE id = $1', [
    docId,
  ]);
  return row && { lastSeq: Number(row.last_seq), snapshotSeq: Number(row.snapshot_seq) };
}

/** The last seq of each of several documents (to notice a missed notification). */
export async function lastSeqs(db: Queryable, docIds: string[]): Promise<Map<string, number>> {
  if (docIds.length === 0) return new Map();
  const rows = await db.query<{ id: string; last_seq: number }>('SELECT id, last_seq FROM ydocs WHERE id = ANY($1)', [docIds]);
  return new Map(rows.map((r) => [r.id, Number(r.last_seq)]));
}

/**
 * Branch documents holding logged updates that no revision covers yet: live edits typed
 * before a crash or a stop, whose revision still has to be cut. Only documents of branches
 * that exist (a space's main doc, a change request's doc) are returned; with `quietForMs`,
 * only those whose last update is older than that and younger than `notQuietForMs` (a
 * look at recent documents: the rest were cut when an instance started).
 */
export async function docsAheadOfRevisions(db: Queryable, opts: { quietForMs?: number; notQuietForMs?: number } = {}): Promise<string[]> {
  if (!(await changeRequestsAvailable(db))) return [];
  const rows = await db.query<{ id: string }>(
    `SELECT d.id FROM ydocs d
      WHERE d.last_seq > COALESCE((SELECT max(r.doc_seq) FROM revisions r WHERE r.branch = d.id), 0)
        AND ($1::int IS NULL OR d.updated_at BETWEEN now() - make_interval(secs => $2::int / 1000.0) AND now() - make_interval(secs => $1::int / 1000.0))
        AND (
          (d.id LIKE 'space:%' AND EXISTS (SELECT 1 FROM spaces s WHERE s.id = substr(d.id, 7) AND s.deleted_at IS NULL))
          OR (d.id LIKE 'cr:%' AND EXISTS (SELECT 1 FROM change_requests c WHERE c.id = substr(d.id, 4)))
        )`,
    [opts.quietForMs ?? null, opts.quietForMs === undefined ? null : (opts.notQuietForMs ?? 0)],
  );
  return rows.map((r) => r.id);
}

/** One document's share of a grouped append. */
export interface GroupedAppend {
  docId: string;
  update: Uint8Array;
}

/**
 * Appends one update to each of several documents' logs in one statement, inside the
 * caller's transaction or as one on its own: the same rows as `appendUpdate` (seq bumped
 * under the document row's lock, the document row created on first use), at a cost that
 * does not grow with the number of documents in round trips. Each document appears at
 * most once. Returns the seq of each entry, in the order given.
 *
 * With `notify`, the statement also sends one NOTIFY for the whole group listing its rows
 * (`logNotice`), for the other instances sharing the database; an embedded database has
 * no other listener, and the rooms of this process apply their own rows without one.
 *
 * The updates travel as one binary parameter (their bytes end to end, cut apart by offset
 * in SQL): no text encoding on the way to `bytea`, and the statement text never changes.
 *
 * The branch's write policy is checked in the same statement, on its row read with a share
 * lock: an entry whose space is locked or deleted, or whose change request is merged or
 * archived, writes nothing and gets `undefined`. A lock or a merge updates that row, so it
 * waits for a group in flight to commit, and no group commits an edit after it: the REST
 * call that closes a branch has taken effect when it answers, on every instance.
 * Rows are locked in id order (branch rows, then documents), as every writer takes them,
 * so concurrent groups never deadlock.
 */
export async function appendGrouped(
  db: Queryable,
  entries: GroupedAppend[],
  origin: string,
  opts: { notify: boolean },
): Promise<(number | undefined)[]> {
  const ids = entries.map((e) => e.docId);
  const spaceIds = ids.filter((id) => id.startsWith('space:')).map((id) => id.slice('space:'.length));
  const crIds = ids.filter((id) => id.startsWith('cr:')).map((id) => id.slice('cr:'.length));
  const starts: number[] = [];
  const lengths: number[] = [];
  let at = 0;
  for (const e of entries) {
    starts.push(at + 1);
    lengths.push(e.update.byteLength);
    at += e.update.byteLength;
  }
  const bytes = Buffer.concat(entries.map((e) => e.update));
  const written = await db.query<{ id: string; seq: number }>(
    `WITH branch_spaces AS MATERIALIZED (
       SELECT id, edit_mode, deleted_at FROM spaces WHERE id = ANY($5::text[]) ORDER BY id FOR SHARE
     ),
     branch_crs AS MATERIALIZED (
       SELECT id, status FROM change_requests WHERE id = ANY($6::text[]) ORDER BY id FOR SHARE
     ),
     writable AS MATERIALIZED (
       SELECT t.d AS id, t.s, t.n FROM unnest($1::text[], $2::int[], $3::int[]) AS t(d, s, n)
        WHERE CASE
          WHEN t.d LIKE 'space:%' THEN EXISTS (
            SELECT 1 FROM branch_spaces s WHERE s.id = substr(t.d, 7) AND s.deleted_at IS NULL AND s.edit_mode = 'live')
          WHEN t.d LIKE 'cr:%' THEN EXISTS (
            SELECT 1 FROM branch_crs c WHERE c.id = substr(t.d, 4) AND c.status NOT IN ('merged', 'archived'))
          ELSE true
        END
     ),
     bumped AS (
       INSERT INTO ydocs AS d (id, last_seq) SELECT id, 1 FROM writable ORDER BY id
       ON CONFLICT (id) DO UPDATE SET last_seq = d.last_seq + 1, updated_at = now()
       RETURNING d.id, d.last_seq
     ),
     inserted AS (
       INSERT INTO ydoc_updates (doc_id, seq, update, origin)
       SELECT b.id, b.last_seq, substring($4::bytea FROM w.s FOR w.n), $7::text
         FROM bumped b JOIN writable w ON w.id = b.id
       RETURNING doc_id, seq
     ),
     notice AS (
       SELECT pg_notify($8::text, $7::text || string_agg(chr(10) || doc_id || chr(9) || seq, ''))
         FROM inserted WHERE $9::boolean HAVING count(*) > 0
     )
     SELECT doc_id AS id, seq FROM inserted LEFT JOIN notice ON true`,
    [ids, starts, lengths, bytes, spaceIds, crIds, origin, YDOC_CHANNEL, opts.notify],
  );
  const seqOf = new Map(written.map((r) => [r.id, Number(r.seq)]));
  return ids.map((id) => seqOf.get(id));
}

/** Spaces that are not deleted, among `ids` (the loaded rooms' spaces, checked together). */
export function liveSpaces(db: Queryable, ids: string[]): Promise<SpaceRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.query<SpaceRow>('SELECT * FROM spaces WHERE id = ANY($1::text[]) AND deleted_at IS NULL', [ids]);
}

export function changeRequestsForSync(db: Queryable, ids: string[]): Promise<SyncChangeRequestRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.query<SyncChangeRequestRow>('SELECT id, space_id, status FROM change_requests WHERE id = ANY($1::text[])', [ids]);
}

/** The ids among `ids` of API tokens that still exist. */
export async function existingTokens(db: Queryable, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.query<{ id: string }>('SELECT id FROM api_tokens WHERE id = ANY($1::text[])', [ids]);
  return new Set(rows.map((r) => r.id));
}
