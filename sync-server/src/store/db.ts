/**
 * The small database interface both adapters implement. SQL is PostgreSQL dialect with
 * `$1` placeholders; rows come back as plain objects.
 */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/**
 * A commit may or may not have reached disk: the WAL fsync after it failed, or the
 * connection dropped while COMMIT was under way. Retrying is unsafe (the rows may be there
 * already, and an fsync after an I/O error can succeed without the lost pages ever being
 * written): whoever meets this must stop writing and let the process restart and recover.
 */
export class DurabilityUnknownError extends Error {
  constructor(cause: unknown) {
    super(`a commit may not have reached disk: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/**
 * Whether this process hears every notification now. PGlite delivers them within the
 * statement that commits, so it always does; a PostgreSQL instance only while its LISTEN
 * connection is up.
 */
export interface ListenerState {
  readonly listening: boolean;
  /** Hears every change of `listening`; returns the unsubscribe function. */
  onListening(cb: (up: boolean) => void): () => void;
  /**
   * Resolves true once every notification of a transaction committed before the call has
   * reached this process's listeners; false when that cannot be known (listener down).
   */
  fence(): Promise<boolean>;
  /** How many statements or transactions that may have written this process has committed (counted where notifications arrive late: PostgreSQL). */
  readonly writes: number;
  /** The server process id of the LISTEN connection, if there is one (tests terminate it). */
  backendOfListener?(): number | undefined;
}

export interface Db extends Queryable, ListenerState {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements at once (migrations); no parameters. */
  exec(sql: string): Promise<void>;
  /** Subscribes to NOTIFY on a channel; returns the unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
  /**
   * The embedded database only: a statement whose commit need not reach disk before it
   * resolves, and the sync that makes every commit so far durable. For writes that are
   * durable elsewhere until `syncWrites` has run (the sync journal's records).
   */
  unsynced?: { query: Queryable['query']; syncWrites(): Promise<void> };
}

export async function one<T>(db: Queryable, sql: string, params?: unknown[]): Promise<T> {
  const rows = await db.query<T>(sql, params);
  if (rows.length === 0) throw new Error(`expected one row: ${sql}`);
  return rows[0] as T;
}

export async function maybeOne<T>(db: Queryable, sql: string, params?: unknown[]): Promise<T | undefined> {
  const rows = await db.query<T>(sql, params);
  return rows[0];
}

/**
 * Whether a statement may have written. A query counts as a read when it is a SELECT, SHOW
 * or WITH that names no writing command, so a data-modifying CTE (`WITH x AS (UPDATE …)
 * SELECT …`) counts as a write.
 */
export function mayWrite(sql: string): boolean {
  return !/^\s*(SELECT|SHOW|WITH)\b/i.test(sql) || /\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE)\b/i.test(sql);
}
