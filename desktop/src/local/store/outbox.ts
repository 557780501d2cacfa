import { randomUUID } from 'node:crypto';
import type { Queryable } from './database';
import { maybeOne } from './database';

export type OutboxState = 'pending' | 'done' | 'failed';

export interface OutboxRow {
  seq: number;
  key: string;
  kind: string;
  payload: Record<string, unknown>;
  label: string;
  state: OutboxState;
  error: string | null;
  attempts: number;
  createdAt: string;
}

interface Raw {
  seq: number;
  key: string;
  kind: string;
  payload: Record<string, unknown>;
  label: string;
  state: OutboxState;
  error: string | null;
  attempts: number;
  created_at: Date | string;
}

function toRow(r: Raw): OutboxRow {
  return {
    seq: Number(r.seq),
    key: r.key,
    kind: r.kind,
    payload: r.payload,
    label: r.label,
    state: r.state,
    error: r.error,
    attempts: Number(r.attempts),
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/**
 * Queues a mutation for the server. The idempotency key is fixed here, once: every replay
 * of this entry, across restarts and crashes, sends the same key, so the server does the
 * work at most once.
 */
export async function enqueue(db: Queryable, kind: string, payload: Record<string, unknown>, label: string): Promise<OutboxRow> {
  const rows = await db.query<Raw>('INSERT INTO outbox (key, kind, payload, label) VALUES ($1, $2, $3, $4) RETURNING *', [
    `quire-desktop-${randomUUID()}`,
    kind,
    JSON.stringify(payload),
    label,
  ]);
  return toRow(rows[0] as Raw);
}

/**
 * When entry `o` is about what failed entry `f` creates (the space, the change request, the
 * comment): sending `o` would only fail too, so it waits for `f`.
 */
const WAITS_ON_FAILED = `f.state = 'failed' AND f.seq < o.seq AND (
     (f.kind = 'space.publish' AND o.payload->>'spaceId' = f.payload->>'spaceId')
  OR (f.kind = 'changeRequest.create' AND o.payload->>'changeRequestId' = f.payload->>'changeRequestId')
  OR (f.kind = 'comment.create' AND o.payload->>'commentId' = f.payload->>'commentId')
  OR (f.kind = 'comment.reply' AND o.payload->>'replyId' = f.payload->>'replyId'))`;

/**
 * The oldest entry that can go now, or undefined when none can. An entry waits while an
 * earlier entry that creates what it is about failed; once that one is retried, it goes first.
 */
export async function nextPending(db: Queryable): Promise<OutboxRow | undefined> {
  const row = await maybeOne<Raw>(
    db,
    `SELECT * FROM outbox o WHERE o.state = 'pending' AND NOT EXISTS (SELECT 1 FROM outbox f WHERE ${WAITS_ON_FAILED})
     ORDER BY o.seq LIMIT 1`,
  );
  return row && toRow(row);
}

/** Pending entries held back by a failed one: entry seq → the failed entry's seq. */
export async function waitingOnFailed(db: Queryable): Promise<Map<number, number>> {
  const rows = await db.query<{ seq: number; failed: number }>(
    `SELECT o.seq, min(f.seq) AS failed FROM outbox o JOIN outbox f ON ${WAITS_ON_FAILED} WHERE o.state = 'pending' GROUP BY o.seq`,
  );
  return new Map(rows.map((r) => [Number(r.seq), Number(r.failed)]));
}

export async function markDone(db: Queryable, seq: number, result: unknown): Promise<void> {
  await db.query("UPDATE outbox SET state = 'done', done_at = now(), error = NULL, result = $2 WHERE seq = $1", [
    seq,
    JSON.stringify(result ?? null),
  ]);
}

export async function markFailed(db: Queryable, seq: number, error: string): Promise<void> {
  await db.query("UPDATE outbox SET state = 'failed', error = $2, attempts = attempts + 1 WHERE seq = $1", [seq, error]);
}

export async function noteAttempt(db: Queryable, seq: number, error: string): Promise<void> {
  await db.query('UPDATE outbox SET attempts = attempts + 1, error = $2 WHERE seq = $1', [seq, error]);
}

/** Puts a refused entry back in line, keeping its key (a retry of the same request). */
export async function retryEntry(db: Queryable, seq: number): Promise<boolean> {
  const rows = await db.query("UPDATE outbox SET state = 'pending', error = NULL WHERE seq = $1 AND state = 'failed' RETURNING seq", [seq]);
  return rows.length > 0;
}

export async function getEntry(db: Queryable, seq: number): Promise<OutboxRow | undefined> {
  const row = await maybeOne<Raw>(db, 'SELECT * FROM outbox WHERE seq = $1', [seq]);
  return row && toRow(row);
}

export async function deleteEntry(db: Queryable, seq: number): Promise<void> {
  await db.query('DELETE FROM outbox WHERE seq = $1', [seq]);
}

/** Entries the user should see: what waits and what the server refused. */
export async function openEntries(db: Queryable): Promise<OutboxRow[]> {
  const rows = await db.query<Raw>("SELECT * FROM outbox WHERE state IN ('pending', 'failed') ORDER BY seq");
  return rows.map(toRow);
}

export async function countByState(db: Queryable): Promise<{ pending: number; failed: number; files: number }> {
  const rows = await db.query<{ state: string; n: number; files: number }>(
    `SELECT state, count(*)::int AS n, count(*) FILTER (WHERE kind = 'file.upload')::int AS files
       FROM outbox WHERE state <> 'done' GROUP BY state`,
  );
  const pending = rows.find((r) => r.state === 'pending');
  return {
    pending: Number(pending?.n ?? 0),
    failed: Number(rows.find((r) => r.state === 'failed')?.n ?? 0),
    files: Number(pending?.files ?? 0),
  };
}

/** Done entries are kept a while for diagnosis, then dropped. */
export async function pruneDone(db: Queryable): Promise<void> {
  await db.query("DELETE FROM outbox WHERE state = 'done' AND done_at < now() - interval '7 days'");
}
