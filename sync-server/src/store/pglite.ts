import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type Db, DurabilityUnknownError, type Queryable, mayWrite } from './db';

/**
 * PGlite's Postgres runs with fsync off and its file system cannot fsync, so a commit
 * reaches the OS page cache only: enough for a killed process, not for a power cut.
 * After each write we fsync the WAL segments being written (and their directory)
 * ourselves; the commit record is in them, and recovery replays the WAL on the next start.
 * Those are the two most recently modified segments (a record may span the switch from one
 * to the next), not the highest-named: a checkpoint renames old segments to future names
 * for reuse.
 *
 * The fsync runs off the event loop (a busy disk can take tens of milliseconds, and the
 * sync endpoint keeps relaying meanwhile), and writers finishing while one is under way
 * share the next one: an fsync started after a commit covers it.
 */
function walSyncer(dataDir: string): () => Promise<void> {
  const walDir = join(dataDir, 'pg_wal');
  const syncOnce = async () => {
    const names = (await readdir(walDir)).filter((f) => /^[0-9A-F]{24}$/.test(f));
    const segments = await Promise.all(
      names.map(async (name) => ({
        path: join(walDir, name),
        modified: (await stat(join(walDir, name)).catch(() => undefined))?.mtimeMs ?? 0,
      })),
    );
    const written = segments.sort((a, b) => b.modified - a.modified).slice(0, 2);
    for (const path of [...written.map((s) => s.path), walDir]) {
      const file = await open(path, 'r').catch((err: NodeJS.ErrnoException) => {
        // A segment removed since the listing was recycled by a checkpoint: nothing in it is needed.
        if (err.code === 'ENOENT' && path !== walDir) return undefined;
        throw err;
      });
      if (!file) continue;
      try {
        await file.sync();
      } finally {
        await file.close();
      }
    }
  };
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  /** The first failure, for good: an fsync is never retried after an I/O error. */
  let broken: DurabilityUnknownError | undefined;
  const guarded = () =>
    syncOnce().catch((err) => {
      broken ??= new DurabilityUnknownError(err);
      throw broken;
    });
  return () => {
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
}

export { mayWrite };

/**
 * The embedded adapter. PGlite is one connection, so a transaction holds it and other
 * queries wait their turn; that is also what makes concurrent writes safe here.
 */
export async function openPglite(dataDir: string | undefined, loadDataDir?: Blob): Promise<Db> {
  const pg = new PGlite(dataDir, loadDataDir ? { loadDataDir } : {});
  await pg.waitReady;
  return wrapPglite(pg, dataDir ? walSyncer(dataDir) : undefined);
}

export function wrapPglite(pg: PGlite, walSync: () => Promise<void> = async () => {}): Db & { raw: PGlite } {
  // Whatever the syncer throws after a commit, the commit happened: never a plain error to retry on.
  const syncWal = () =>
    walSync().catch((err) => {
      throw err instanceof DurabilityUnknownError ? err : new DurabilityUnknownError(err);
    });
  const wrap = (q: Pick<PGlite, 'query'>, inTransaction: boolean): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const res = await q.query<T>(sql, params);
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
  };
}

/** The raw PGlite handle, for dumping a prepared data directory in tests. */
export function pgliteOf(db: Db): PGlite | undefined {
  return (db as { raw?: PGlite }).raw;
}
