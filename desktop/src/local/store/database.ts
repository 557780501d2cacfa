import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './lock';
import { LOCAL_SCHEMA } from './schema';

/** What store functions take: the database itself or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** The desktop's embedded database: one PGlite in the user's data directory. */
export interface LocalDb extends Queryable {
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * PGlite runs Postgres with fsync off, so a commit reaches the OS page cache only. That
 * survives a killed process; for a power cut we fsync the current WAL segment after each
 * write ourselves (the commit record is in it and recovery replays the WAL on start).
 */
function walSyncer(dataDir: string): () => void {
  const walDir = join(dataDir, 'pg_wal');
  return () => {
    let segments: string[];
    try {
      segments = readdirSync(walDir).filter((f) => /^[0-9A-F]{24}$/.test(f));
    } catch {
      return;
    }
    const current = segments.sort().at(-1);
    for (const path of current ? [join(walDir, current), walDir] : [walDir]) {
      const fd = openSync(path, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  };
}

const READ_ONLY = /^\s*(SELECT|WITH\s[\s\S]*?\)\s*SELECT)\b/i;

/**
 * A dump of an empty database with our schema. Creating a PGlite database from nothing
 * runs initdb, which takes seconds; loading this dump takes a fraction of that, which is
 * what a first start (and every test) waits for. Keyed by schema, so a new schema never
 * loads an old dump.
 */
async function emptyDatabaseDump(): Promise<Blob> {
  const key = createHash('sha256').update(LOCAL_SCHEMA).digest('hex').slice(0, 16);
  const cached = dumps.get(key);
  if (cached) return tarball(cached);
  const path = join(process.env.QUIRE_DESKTOP_CACHE ?? tmpdir(), `quire-desktop-empty-${key}.tar`);
  if (existsSync(path)) return tarball(remember(key, readFileSync(path)));
  const pg = new PGlite();
  await pg.waitReady;
  await pg.exec(LOCAL_SCHEMA);
  const dump = await pg.dumpDataDir('none');
  await pg.close();
  const bytes = Buffer.from(await dump.arrayBuffer());
  try {
    // Written aside and renamed: another process starting at the same time never reads half a file.
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, bytes);
    renameSync(partial, path);
  } catch {
    // no cache then; the next start builds it again
  }
  return tarball(remember(key, bytes));
}

/** The dumps this process has read: a process opening several databases (tests) reads the file once. */
const dumps = new Map<string, ArrayBuffer>();

function remember(key: string, bytes: Uint8Array): ArrayBuffer {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  dumps.set(key, buffer);
  return buffer;
}

/**
 * The dump as PGlite reads it (its type and its bytes, which it copies out), without a Blob:
 * Node 20's Blob hands its bytes back in small chunks, half a second of CPU for a 40 MB dump.
 */
function tarball(buffer: ArrayBuffer): Blob {
  return { type: 'application/x-tar', arrayBuffer: async () => buffer } as unknown as Blob;
}

/**
 * Postgres zeroes its whole shared memory at start: 128 MB of buffers and the slots of a
 * hundred connections take most of a second of CPU, at every start. PGlite serves one
 * connection, so it starts with few slots; the lock table keeps its default size (it is
 * sized by connections times locks per transaction). A database in memory keeps its pages
 * in memory anyway (a buffer evicted is a copy within the same heap): a small buffer pool.
 * On disk the pool is Postgres's unless `PGLITE_SHARED_BUFFERS_MB` says otherwise (tests
 * start hundreds of nodes).
 */
function startParams(dataDir: string | undefined): string[] {
  const settings = ['max_connections=5', 'max_locks_per_transaction=1280'];
  const buffers = Number(process.env.PGLITE_SHARED_BUFFERS_MB) || (dataDir ? undefined : 8);
  if (buffers) settings.push(`shared_buffers=${buffers}MB`);
  return [...PGlite.defaultStartParams, ...settings.flatMap((s) => ['-c', s])];
}

/**
 * Opens (creating when needed) the local database under `dataDir/db`, or an in-memory one
 * when `dataDir` is undefined (tests, throwaway sessions). The directory is locked to this
 * process: a second app instance on the same data would corrupt it.
 */
export async function openLocalDb(dataDir: string | undefined): Promise<LocalDb> {
  let unlock = () => {};
  let pg: PGlite;
  let syncWal = () => {};
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    unlock = lockDataDir(dataDir);
    const dbDir = join(dataDir, 'db');
    try {
      const fresh = !existsSync(join(dbDir, 'PG_VERSION'));
      pg = new PGlite(dbDir, { ...(fresh ? { loadDataDir: await emptyDatabaseDump() } : {}), startParams: startParams(dataDir) });
      await pg.waitReady;
    } catch (err) {
      unlock();
      throw err;
    }
    syncWal = walSyncer(dbDir);
  } else {
    pg = new PGlite({ loadDataDir: await emptyDatabaseDump(), startParams: startParams(undefined) });
    await pg.waitReady;
  }
  await pg.exec(LOCAL_SCHEMA);
  syncWal();

  const wrap = (q: Pick<PGlite, 'query'>, inTransaction: boolean): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const res = await q.query<T>(sql, params);
      if (!inTransaction && !READ_ONLY.test(sql)) syncWal();
      return res.rows;
    },
  });
  return {
    ...wrap(pg, false),
    async transaction(fn) {
      const out = await pg.transaction((tx) => fn(wrap(tx, true)));
      syncWal();
      return out;
    },
    async close() {
      if (!pg.closed) await pg.close();
      unlock();
    },
  };
}

export async function maybeOne<T>(db: Queryable, sql: string, params?: unknown[]): Promise<T | undefined> {
  const rows = await db.query<T>(sql, params);
  return rows[0];
}

/** Bytes for a bytea parameter without copying. */
export function bytea(v: Uint8Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** A bytea column as a plain Uint8Array (Yjs refuses Buffer subclasses in some paths). */
export function u8(v: Uint8Array): Uint8Array {
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}
