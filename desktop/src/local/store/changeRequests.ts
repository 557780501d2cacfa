import * as Y from 'yjs';
import type { Queryable } from './database';
import { bytea, maybeOne, u8 } from './database';
import { adoptRemoteId } from './remoteIds';

export type CrSyncState = 'pending' | 'remote' | 'local';
export type CrMergeState = 'none' | 'queued' | 'merged';

export interface ChangeRequestRow {
  id: string;
  remoteId: string | null;
  spaceId: string;
  number: number | null;
  subject: string;
  status: string;
  outdated: boolean;
  createdBy: { id?: string; displayName?: string } | null;
  createdAt: string;
  updatedAt: string;
  syncState: CrSyncState;
  mergeState: CrMergeState;
  baseMainSeq: number;
  baseStateVector: Uint8Array | null;
  /** Main's whole state as the branch took it in: what its changes are drawn against. */
  baseState: Uint8Array | null;
  /** The server revision `baseState` holds, when it holds one. */
  baseRevision: string | null;
  /** The revision the server says the branch last took main in from. */
  remoteBaseRevision: string | null;
}

interface Raw {
  id: string;
  remote_id: string | null;
  space_id: string;
  number: number | null;
  subject: string;
  status: string;
  outdated: boolean;
  created_by: ChangeRequestRow['createdBy'];
  created_at: Date | string;
  updated_at: Date | string;
  sync_state: CrSyncState;
  merge_state: CrMergeState;
  base_main_seq: number;
  base_state_vector: Uint8Array | null;
  base_state: Uint8Array | null;
  base_revision: string | null;
  remote_base_revision: string | null;
}

const toRow = (r: Raw): ChangeRequestRow => ({
  id: r.id,
  remoteId: r.remote_id,
  spaceId: r.space_id,
  number: r.number === null ? null : Number(r.number),
  subject: r.subject,
  status: r.status,
  outdated: r.outdated,
  createdBy: r.created_by,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
  syncState: r.sync_state,
  mergeState: r.merge_state,
  baseMainSeq: Number(r.base_main_seq),
  baseStateVector: r.base_state_vector ? u8(r.base_state_vector) : null,
  baseState: r.base_state ? u8(r.base_state) : null,
  baseRevision: r.base_revision,
  remoteBaseRevision: r.remote_base_revision,
});

export async function listChangeRequests(db: Queryable, spaceId: string): Promise<ChangeRequestRow[]> {
  const rows = await db.query<Raw>('SELECT * FROM change_requests WHERE space_id = $1 ORDER BY created_at DESC, number DESC NULLS FIRST', [
    spaceId,
  ]);
  return rows.map(toRow);
}

export async function getChangeRequest(db: Queryable, id: string): Promise<ChangeRequestRow | undefined> {
  const row = await maybeOne<Raw>(db, 'SELECT * FROM change_requests WHERE id = $1', [id]);
  return row && toRow(row);
}

export async function insertChangeRequest(
  db: Queryable,
  cr: {
    id: string;
    spaceId: string;
    subject: string;
    syncState: CrSyncState;
    baseMainSeq: number;
    baseStateVector: Uint8Array;
    baseState?: Uint8Array;
    createdBy: unknown;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO change_requests (id, space_id, subject, status, sync_state, base_main_seq, base_state_vector, base_state, created_by)
     VALUES ($1, $2, $3, 'open', $4, $5, $6, $7, $8)`,
    [
      cr.id,
      cr.spaceId,
      cr.subject,
      cr.syncState,
      cr.baseMainSeq,
      bytea(cr.baseStateVector),
      cr.baseState ? bytea(cr.baseState) : null,
      JSON.stringify(cr.createdBy ?? null),
    ],
  );
}

/**
 * Adds main's state as the branch took it in to what its changes are drawn against (a
 * union: the branch holds every state it took in). `revision` names the server revision
 * that state is, or, for a take-in made here, the newest one the server had said: fetching
 * that one again would bring nothing the union does not hold.
 */
export async function addChangeRequestBase(db: Queryable, id: string, state: Uint8Array, revision: string | null): Promise<void> {
  const row = await maybeOne<{ base_state: Uint8Array | null }>(db, 'SELECT base_state FROM change_requests WHERE id = $1 FOR UPDATE', [
    id,
  ]);
  if (!row) return;
  const merged = row.base_state ? Y.mergeUpdates([u8(row.base_state), state]) : state;
  await db.query('UPDATE change_requests SET base_state = $2, base_revision = $3 WHERE id = $1', [id, bytea(merged), revision]);
}

export async function setChangeRequestRemote(
  db: Queryable,
  id: string,
  remote: { remoteId: string; number: number | null; status?: string },
) {
  await adoptRemoteId(db, 'change_requests', id, remote.remoteId);
  await db.query(
    "UPDATE change_requests SET remote_id = $2, number = coalesce($3, number), status = coalesce($4, status), sync_state = 'remote' WHERE id = $1",
    [id, remote.remoteId, remote.number, remote.status ?? null],
  );
}

export async function updateChangeRequestLocal(
  db: Queryable,
  id: string,
  patch: Partial<{
    subject: string;
    status: string;
    outdated: boolean;
    mergeState: CrMergeState;
    baseMainSeq: number;
    baseStateVector: Uint8Array;
  }>,
): Promise<void> {
  const sets: string[] = ['updated_at = now()'];
  const params: unknown[] = [id];
  const add = (col: string, v: unknown) => {
    params.push(v);
    sets.push(`${col} = $${params.length}`);
  };
  if (patch.subject !== undefined) add('subject', patch.subject);
  if (patch.status !== undefined) add('status', patch.status);
  if (patch.outdated !== undefined) add('outdated', patch.outdated);
  if (patch.mergeState !== undefined) add('merge_state', patch.mergeState);
  if (patch.baseMainSeq !== undefined) add('base_main_seq', patch.baseMainSeq);
  if (patch.baseStateVector !== undefined) add('base_state_vector', bytea(patch.baseStateVector));
  await db.query(`UPDATE change_requests SET ${sets.join(', ')} WHERE id = $1`, params);
}

/** The server's view of a change request, as its REST API returns it. */
export interface RemoteChangeRequest {
  id: string;
  number?: number;
  subject?: string;
  status?: string;
  outdated?: boolean;
  createdAt?: string;
  updatedAt?: string;
  createdBy?: { id?: string; displayName?: string };
  /** The main revision the branch last took in (at the fork, or updating from main). */
  revisionMergedAncestor?: string;
}

/**
 * Takes in the server's list for a space. Local edits still queued (a subject change, a
 * merge) win over what the server says until they are replayed; change requests that
 * exist only here are kept.
 */
export async function mergeRemoteChangeRequests(db: Queryable, spaceId: string, remote: RemoteChangeRequest[]): Promise<void> {
  for (const r of remote) {
    const existing = await maybeOne<Raw>(db, 'SELECT * FROM change_requests WHERE remote_id = $1', [r.id]);
    if (existing) {
      const queuedMerge = existing.merge_state === 'queued';
      await db.query(
        `UPDATE change_requests SET number = $2, status = $3, outdated = $4, updated_at = coalesce($5::timestamptz, updated_at),
         merge_state = CASE WHEN $3 = 'merged' THEN 'merged' ELSE merge_state END,
         remote_base_revision = coalesce($6, remote_base_revision) WHERE id = $1`,
        [
          existing.id,
          r.number ?? existing.number,
          queuedMerge && r.status !== 'merged' ? existing.status : (r.status ?? existing.status),
          !!r.outdated,
          r.updatedAt ?? null,
          r.revisionMergedAncestor ?? null,
        ],
      );
      const subjectQueued = await maybeOne(
        db,
        "SELECT 1 FROM outbox WHERE state = 'pending' AND kind = 'changeRequest.update' AND payload->>'changeRequestId' = $1",
        [existing.id],
      );
      if (!subjectQueued && r.subject !== undefined)
        await db.query('UPDATE change_requests SET subject = $2 WHERE id = $1', [existing.id, r.subject]);
    } else {
      await db.query(
        `INSERT INTO change_requests (id, remote_id, space_id, number, subject, status, outdated, created_by, created_at, updated_at, sync_state,
           merge_state, remote_base_revision)
         VALUES ($1, $1, $2, $3, $4, $5, $6, $7, coalesce($8::timestamptz, now()), coalesce($9::timestamptz, now()), 'remote', $10, $11)`,
        [
          r.id,
          spaceId,
          r.number ?? null,
          r.subject ?? '',
          r.status ?? 'open',
          !!r.outdated,
          JSON.stringify(r.createdBy ?? null),
          r.createdAt ?? null,
          r.updatedAt ?? null,
          r.status === 'merged' ? 'merged' : 'none',
          r.revisionMergedAncestor ?? null,
        ],
      );
    }
  }
}
