import { Worker } from 'node:worker_threads';
import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import { type Db, DurabilityUnknownError, type Queryable, mayWrite } from './db';
import type { PGliteLike } from './pgliteLike';
import { startPgliteThread } from './pgliteThread';

/**
 * PGlite's Postgres runs with fsync off and its file system cannot fsync, so a commit
 * reaches the OS page cache only: enough for a killed process, not for a power cut.
 * After each write we fdatasync the WAL segments being written ourselves (and their
 * directory when the set of segment names changed); the commit record is in them, and recovery replays the WAL on the next start.
 * Those are the two most recently modified segments (a record may span the switch from one
 * to the next), not the highest-named: a checkpoint renames old segments to future names
 * for reuse.
 *
 * The fsync runs off the event loop, in a worker thread (`walSyncWorker.mjs`): a busy disk
 * can take tens of milliseconds, and the sync endpoint keeps relaying meanwhile. The worker
 * does the listing, the stats and the fsyncs in one go, so a commit waits for one message
 * back; done with the loop's file-system callbacks, it waited for a dozen, each queued
 * behind whatever the loop was busy with (under REST load, every request in flight).
 * Writers finishing while one is under way share the next one: an fsync started after a
 * commit covers it.
 */
function walSyncer(dataDir: string): { sync: () => Promise<void>; stop: () => Promise<void> } {
  let worker: Worker | undefined;
  let seq = 0;
  const pending = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    worker = undefined;
  };
  const started = () => {
    if (worker) return worker;
    const w = new Worker(new URL('./walSyncWorker.mjs', import.meta.url), { workerData: { dataDir } });
    w.on('message', (m: { id: number; error?: { message: string; code?: string } }) => {
      const p = pending.get(m.id);
      pending.delete(m.id);
      // Idle, the worker does not keep the process alive; a sync in flight does.
      if (pending.size === 0) w.unref();
      if (!p) return;
      if (m.error) p.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
      else p.resolve();
    });
    w.on('error', (err) => failAll(err));
    w.on('exit', (code) => {
      if (worker === w) failAll(new Error(`the WAL sync thread stopped (exit code ${code})`));
    });
    worker = w;
    return w;
  };
  const ask = (close: boolean) =>
    new Promise<void>((resolve, reject) => {
      const w = started();
      const id = ++seq;
      pending.set(id, { resolve, reject });
      w.ref();
      w.postMessage(close ? { id, close } : id);
    });
  const syncOnce = () => ask(false);
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  /** The first failure, for good: an fsync is never retried after an I/O error. */
  let broken: DurabilityUnknownError | undefined;
  const guarded = () =>
    syncOnce().catch((err) => {
      broken ??= new DurabilityUnknownError(err);
      throw broken;
    });
  const sync = () => {
    if (broken) return Promise.reject(broken);
    if (!running) {
      running = guarded().finally(() => (running = undefined));
      return running;
    }
    // The one under way may have started before this commit: wait for it, then share the next.
    next ??= running
      .catch(() => {})
      .then(() => {
        next = undefined;
        running = guarded().finally(() => (running = undefined));
        return running;
      });
    return next;
  };
  const stop = async () => {
    // Commits already acknowledged to the adapter finish their fsync first.
    await (next ?? running)?.catch(() => {});
    const w = worker;
    if (w) await ask(true).catch(() => {});
    worker = undefined;
    await w?.terminate();
  };
  return { sync, stop };
}

export { mayWrite };

const BYTEA = 17;
/**
 * `bytea` both ways without per-byte JavaScript: a parameter goes as its bytes (PGlite
 * sends a value its serializer leaves binary in binary format), a column comes back
 * decoded from hex natively. PGlite's own pair walks the bytes one at a time.
 */
const BINARY: QueryOptions = {
  serializers: { [BYTEA]: (v: Uint8Array | string) => v as string },
  parsers: { [BYTEA]: (v: string) => new Uint8Array(Buffer.from(v.slice(2), 'hex')) },
};

/**
 * Postgres zeroes its whole shared memory at start: 128 MB of buffers and the slots of a
 * hundred connections take most of a second of CPU, at every start. PGlite serves one
 * connection, so it starts with few slots; the lock table keeps its default size (it is
 * sized by connections times locks per transaction). A database in memory keeps its pages
 * in memory anyway (a buffer evicted is a copy within the same heap): a small buffer pool.
 */
export function startParams(dataDir: string | undefined, sharedBuffersMb?: number): string[] {
  const settings = ['max_connections=5', 'max_locks_per_transaction=1280'];
  const buffers = dataDir ? sharedBuffersMb : (sharedBuffersMb ?? 8);
  if (buffers !== undefined) settings.push(`shared_buffers=${buffers}MB`);
  return [...PGlite.defaultStartParams, ...settings.flatMap((s) => ['-c', s])];
}

/**
 * The embedded adapter. PGlite is one connection, so a transaction holds it and other
 * queries wait their turn; that is also what makes concurrent writes safe here. A data
 * directory's database runs in a thread of its own unless `thread` is false (see
 * `pgliteThread.ts`); a database in memory (tests, dumps) runs on the caller's thread.
 */
export async function openPglite(
  dataDir: string | undefined,
  loadDataDir?: Blob,
  opts: { sharedBuffersMb?: number; thread?: boolean } = {},
): Promise<Db> {
  const params = startParams(dataDir, opts.sharedBuffersMb);
  let pg: PGliteLike;
  if (dataDir && !loadDataDir && opts.thread !== false) pg = await startPgliteThread(dataDir, params);
  else {
    const options = { ...(loadDataDir ? { loadDataDir } : {}), startParams: params };
    // PGlite reads its options from the second argument only when the first names a directory.
    const local = dataDir ? new PGlite(dataDir, options) : new PGlite(options);
    await local.waitReady;
    pg = local;
  }
  // A database in memory has nothing to make durable: a commit need not wait for its WAL
  // record to be written, which makes small transactions about a third cheaper.
  if (!dataDir) await pg.exec('SET synchronous_commit = off');
  const syncer = dataDir ? walSyncer(dataDir) : undefined;
  const db = wrapPglite(pg, syncer?.sync);
  if (!syncer) return db;
  const closeDb = db.close;
  return {
    ...db,
    async close() {
      await closeDb();
      await syncer.stop();
    },
  };
}

export function wrapPglite(pg: PGliteLike, walSync: () => Promise<void> = async () => {}): Db & { raw: PGliteLike } {
  // Whatever the syncer throws after a commit, the commit happened: never a plain error to retry on.
  const syncWal = () =>
    walSync().catch((err) => {
      throw err instanceof DurabilityUnknownError ? err : new DurabilityUnknownError(err);
    });
  const wrap = (q: Pick<PGliteLike, 'query'>, inTransaction: boolean): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const res = await q.query<T>(sql, params, BINARY);
      if (!inTransaction && mayWrite(sql)) await syncWal();
      return res.rows;
    },
  });
  return {
    kind: 'pglite',
    raw: pg,
    ...wrap(pg, false),
    async transaction(fn) {
      const out = await pg.transaction((tx) => fn(wrap(tx, true)));
      await syncWal();
      return out;
    },
    async exec(sql) {
      await pg.exec(sql);
      await syncWal();
    },
    async listen(channel, onPayload) {
      const unsub = await pg.listen(channel, onPayload);
      return async () => unsub();
    },
    async notify(channel, payload) {
      await pg.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    // One process, and notifications are delivered before the committing statement resolves.
    listening: true,
    onListening: () => () => {},
    fence: async () => true,
    writes: 0,
    async close() {
      if (!pg.closed) await pg.close();
    },
    unsynced: {
      async query<T>(sql: string, params?: unknown[]) {
        return (await pg.query<T>(sql, params, BINARY)).rows;
      },
      syncWrites: syncWal,
    },
  };
}

/** The raw PGlite handle, for dumping a prepared data directory in tests. */
export function pgliteOf(db: Db): PGlite | undefined {
  const raw = (db as { raw?: unknown }).raw;
  return raw instanceof PGlite ? raw : undefined;
}
