import { newId } from '@quire/shared';
import { type Queryable, maybeOne, one } from './db';

export type GitOperationState = 'queued' | 'running' | 'success' | 'failure' | 'timeout';

export interface GitOperationRow {
  id: string;
  seq: number;
  space_id: string;
  direction: 'import' | 'export';
  state: GitOperationState;
  url: string;
  ref: string;
  request: GitOperationRequest;
  credentials: string | null;
  requested_by: string;
  requested_at: Date;
  started_at: Date | null;
  ended_at: Date | null;
  lease_until: Date | null;
  attempts: number;
  error: string | null;
  commit_oid: string | null;
  change_request_id: string | null;
  not_before: Date | null;
}

/** What an operation was asked to do, besides the repository's address and ref. */
export interface GitOperationRequest {
  repoProjectDirectory?: string;
  commitMessage?: string;
  force?: boolean;
  standalone?: boolean;
  timestamp?: string;
  /** The tree URL the client gave (`gitInfo.url`), shown by git/info instead of the repository's address. */
  treeUrl?: string;
  provider?: 'github' | 'gitlab' | 'generic';
  /** A sync of a connected space (`git/sync`): `pull` follows the repository, `push` writes `revision` of main as a commit. */
  sync?: 'pull' | 'push';
  /** The main revision a push writes. */
  revision?: string;
  /** A push of live edits (cut after a quiet period), which later cuts join while it waits. */
  liveEdits?: boolean;
  /** How many syncs in a row failed before this one (it waits longer each time). */
  retry?: number;
}

export interface NewGitOperation {
  spaceId: string;
  direction: 'import' | 'export';
  url: string;
  ref: string;
  request: GitOperationRequest;
  credentials: string | null;
  requestedBy: string;
}

/** Runners listen here to hear of new operations at once (on every instance, through PostgreSQL). */
export const GIT_CHANNEL = 'quire_git';

/** Queues an operation and wakes the runners when the transaction commits. */
export async function insertGitOperation(db: Queryable, op: NewGitOperation): Promise<GitOperationRow> {
  const row = await one<GitOperationRow>(
    db,
    `INSERT INTO git_operations (id, space_id, direction, url, ref, request, credentials, requested_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [newId(), op.spaceId, op.direction, op.url, op.ref, JSON.stringify(op.request), op.credentials, op.requestedBy],
  );
  await db.query('SELECT pg_notify($1, $2)', [GIT_CHANNEL, '']);
  return row;
}

/** The last operation asked of a space. */
export function lastGitOperation(db: Queryable, spaceId: string) {
  // A retry waiting for its time is not shown: the failure before it is the last word until it runs.
  return maybeOne<GitOperationRow>(
    db,
    `SELECT * FROM git_operations WHERE space_id = $1 AND NOT (state = 'queued' AND COALESCE(not_before > now(), false)) ORDER BY seq DESC LIMIT 1`,
    [spaceId],
  );
}

/** Whether an operation waits to be claimed: a read, so an idle queue costs no write (nor, on the embedded database, a WAL flush). */
export async function gitOperationWaiting(db: Queryable, now: Date): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM git_operations
      WHERE (state = 'queued' AND (not_before IS NULL OR not_before <= $1)) OR (state = 'running' AND lease_until < $1) LIMIT 1`,
    [now],
  );
  return rows.length > 0;
}

/**
 * Claims the next operation to run: a queued one, or a running one whose lease ran out
 * (its instance stopped), and only the oldest unfinished operation of its space, so a
 * space's imports and exports run one at a time, in the order they were asked. The claim
 * leases it until `leaseUntil` and counts the attempt.
 */
export function claimGitOperation(db: Queryable, now: Date, leaseUntil: Date) {
  return maybeOne<GitOperationRow>(
    db,
    `WITH next AS (
       SELECT o.id FROM git_operations o
        WHERE ((o.state = 'queued' AND (o.not_before IS NULL OR o.not_before <= $1)) OR (o.state = 'running' AND o.lease_until < $1))
          AND NOT EXISTS (
            SELECT 1 FROM git_operations e
             WHERE e.space_id = o.space_id AND e.seq < o.seq AND e.state IN ('queued', 'running'))
        ORDER BY o.seq
        LIMIT 1
        FOR UPDATE SKIP LOCKED
     )
     UPDATE git_operations o
        SET state = 'running', started_at = $1, lease_until = $2, attempts = o.attempts + 1
       FROM next
      WHERE o.id = next.id
     RETURNING o.*`,
    [now, leaseUntil],
  );
}

export interface GitOperationEnd {
  state: 'success' | 'failure' | 'timeout';
  error?: string;
  commitOid?: string;
  changeRequestId?: string;
}

/**
 * Ends an operation and erases its credentials. Only the attempt that holds it may: one
 * whose lease ran out and was claimed again changes nothing (answers false).
 */
export async function finishGitOperation(db: Queryable, id: string, attempt: number, end: GitOperationEnd): Promise<boolean> {
  const rows = await db.query(
    `UPDATE git_operations
        SET state = $3, error = $4, commit_oid = $5, change_request_id = $6, ended_at = now(), lease_until = NULL, credentials = NULL
      WHERE id = $1 AND attempts = $2 AND state = 'running'
     RETURNING id`,
    [id, attempt, end.state, end.error ?? null, end.commitOid ?? null, end.changeRequestId ?? null],
  );
  return rows.length > 0;
}

/** Row lock on a running operation held by `attempt`, in the transaction that writes its result. */
export async function lockRunningGitOperation(db: Queryable, id: string, attempt: number): Promise<boolean> {
  const rows = await db.query(`SELECT id FROM git_operations WHERE id = $1 AND attempts = $2 AND state = 'running' FOR UPDATE`, [
    id,
    attempt,
  ]);
  return rows.length > 0;
}

/** When the earliest lease of a running operation runs out, if any (a runner looks again then). */
export async function nextGitLeaseEnd(db: Queryable): Promise<Date | undefined> {
  const row = await maybeOne<{ at: Date | null }>(db, `SELECT min(lease_until) AS at FROM git_operations WHERE state = 'running'`);
  return row?.at ? new Date(row.at) : undefined;
}

/** Hands a running operation held by `attempt` back to the queue (its process is stopping), to be claimed again at once. */
export async function releaseGitOperation(db: Queryable, id: string, attempt: number): Promise<void> {
  await db.query(`UPDATE git_operations SET state = 'queued', lease_until = NULL WHERE id = $1 AND attempts = $2 AND state = 'running'`, [
    id,
    attempt,
  ]);
  await db.query('SELECT pg_notify($1, $2)', [GIT_CHANNEL, '']);
}
