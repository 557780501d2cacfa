import { type FileHandle, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import { type Db, DurabilityUnknownError, type Queryable, mayWrite } from './db';

/**
 * PGlite's Postgres runs with fsync off and its file system cannot fsync, so a commit
 * reaches the OS page cache only: enough for a killed process, not for a power cut.
 * After each write we fdatasync the WAL segments being written ourselves; the commit
 * record is in them, and recovery replays the WAL on the next start. Those are the two
 * most recently modified segments (a record may span the switch from one to the next),
 * not the highest-named: a checkpoint renames old segments to future names for reuse.
 *
 * The segments stay open between syncs, and the directory is synced only when the set of
 * segment names changed (a segment created, recycled or removed): a name is metadata the
 * file's own fdatasync does not cover, its contents are.
 *
 * The fsync runs off the event loop (a busy disk can take tens of milliseconds, and the
 * sync endpoint keeps relaying meanwhile), and writers finishing while one is under way
 * share the next one: an fsync started after a commit covers it.
 */
function walSyncer(dataDir: string): { sync: () => Promise<void>; close: () => Promise<void> } {
  const walDir = join(dataDir, 'pg_wal');
  const handles = new Map<string, FileHandle>();
  /** The segment names as of the last directory sync. */
  let synced = '';
  const closeAll = async () => {
    const open = [...handles.values()];
    handles.clear();
    await Promise.all(open.map((h) => h.close().catch(() => {})));
  };
  const handleOf = async (name: string) => {
    let h = handles.get(name);
    if (!h) {
      h = await open(join(walDir, name), 'r').catch((err: NodeJS.ErrnoException) => {
        // A segment removed since the listing was recycled by a checkpoint: nothing in it is needed.
        if (err.code === 'ENOENT') return undefined;
        throw err;
      });
      if (h) handles.set(name, h);
    }
    return h;
  };
  const syncOnce = async () => {
    const names = (await readdir(walDir)).filter((f) => /^[0-9A-F]{24}$/.test(f)).sort();
    const set = names.join(',');
    // A handle kept under a name may be another segment's file now (renamed for reuse).
    if (set !== synced) await closeAll();
    const segments = await Promise.all(
      names.map(async (name) => {
        const h = await handleOf(name);
        return { h, modified: h ? (await h.stat()).mtimeMs : 0 };
      }),
    );
    const written = segments.sort((a, b) => b.modified - a.modified).slice(0, 2);
    for (const { h } of written) await h?.datasync();
    if (set !== synced) {
      const dir = await open(walDir, 'r');
      try {
        await dir.sync();
      } finally {
        await dir.close();
      }
      synced = set;
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
  return { sync, close: closeAll };
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
 * The embedded adapter. PGlite is one connection, so a transaction holds it and other
 * queries wait their turn; that is also what makes concurrent writes safe here.
 */
export async function openPglite(dataDir: string | undefined, loadDataDir?: Blob): Promise<Db> {
  const pg = new PGlite(dataDir, loadDataDir ? { loadDataDir } : {});
  await pg.waitReady;
  const syncer = dataDir ? walSyncer(dataDir) : undefined;
  return wrapPglite(pg, syncer?.sync, syncer?.close);
}

export function wrapPglite(
  pg: PGlite,
  walSync: () => Promise<void> = async () => {},
  closeWal: () => Promise<void> = async () => {},
): Db & { raw: PGlite } {
  // Whatever the syncer throws after a commit, the commit happened: never a plain error to retry on.
  const syncWal = () =>
    walSync().catch((err) => {
      throw err instanceof DurabilityUnknownError ? err : new DurabilityUnknownError(err);
    });
  const wrap = (q: Pick<PGlite, 'query'>, inTransaction: boolean): Queryable => ({
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
      await closeWal();
    },
  };
}

/** The raw PGlite handle, for dumping a prepared data directory in tests. */
export function pgliteOf(db: Db): PGlite | undefined {
  return (db as { raw?: PGlite }).raw;
}
