import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db } from '../store/db';
import { Journal } from '../store/journal/Journal';
import { journaledDb } from '../store/journal/journaledDb';
import { migrate } from '../store/migrate';
import { openPglite, startParams, wrapPglite } from '../store/pglite';
import { openPostgres } from '../store/postgres';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
/**
 * Several test runs may share one machine and one PostgreSQL server: each run names its
 * own template (handed to the workers through the environment) and drops only its own
 * databases, so one run finishing never pulls the template from under another.
 */
const TEMPLATE_ENV = 'QUIRE_TEST_TEMPLATE';
/** An empty PGlite database (as initdb leaves it), for the tests of migrations. */
const EMPTY_TEMPLATE_ENV = 'QUIRE_TEST_EMPTY_TEMPLATE';
/** A migrated PGlite data directory on disk, copied into the DATA_DIR of servers that tests start as processes. */
const DATA_DIR_TEMPLATE_ENV = 'QUIRE_TEST_DATA_DIR_TEMPLATE';
const TEMPLATE_FILE = join(ROOT, '.test-data', 'pglite-template.tar');

function runTemplate(): string {
  const name = process.env[TEMPLATE_ENV];
  if (!name) throw new Error('test database template missing: run tests through vitest (globalSetup)');
  return name;
}

/** Tests run on PostgreSQL when DATABASE_URL is set, else on PGlite. */
export function testAdapter(): 'postgres' | 'pglite' {
  return process.env.DATABASE_URL ? 'postgres' : 'pglite';
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Runs once per test run: a migrated PGlite data directory dumped to a file, or a migrated
 * PostgreSQL template database. Creating PGlite from scratch takes seconds; loading the
 * dump takes well under one.
 */
export async function prepareTestDatabases(): Promise<() => Promise<void>> {
  mkdirSync(dirname(TEMPLATE_FILE), { recursive: true });
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `quire_tpl_${process.pid}_${Date.now()}`;
    process.env[TEMPLATE_ENV] = name;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const db = await openPostgres(withDatabase(url, name), 2);
    await migrate(db);
    await db.close();
    await admin.end();
    return async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const dbs = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${name}%`]);
      for (const d of dbs.rows) await c.query(`DROP DATABASE IF EXISTS ${d.datname} WITH (FORCE)`).catch(() => {});
      await c.end();
    };
  }
  // Creating a database runs initdb, seconds of CPU: once here, before migrating, for the migration tests too.
  const pglite = new PGlite({ startParams: startParams(undefined) });
  await pglite.waitReady;
  const emptyFile = TEMPLATE_FILE.replace(/\.tar$/, `-empty-${process.pid}.tar`);
  writeFileSync(emptyFile, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  process.env[EMPTY_TEMPLATE_ENV] = emptyFile;
  const db = wrapPglite(pglite);
  await migrate(db);
  const dump = Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
  const file = TEMPLATE_FILE.replace(/\.tar$/, `-${process.pid}.tar`);
  writeFileSync(file, dump);
  process.env[TEMPLATE_ENV] = file;
  await db.close();
  const dataDirTemplate = join(dirname(TEMPLATE_FILE), `pgdata-${process.pid}`);
  rmSync(dataDirTemplate, { recursive: true, force: true });
  const onDisk = new PGlite(dataDirTemplate, { loadDataDir: tarball(dump), startParams: startParams(undefined) });
  await onDisk.waitReady;
  await onDisk.close();
  process.env[DATA_DIR_TEMPLATE_ENV] = dataDirTemplate;
  return async () => {
    rmSync(file, { force: true });
    rmSync(emptyFile, { force: true });
    rmSync(dataDirTemplate, { recursive: true, force: true });
  };
}

const tarballs = new Map<string, ArrayBuffer>();

/**
 * A dump of the run as PGlite reads it (its type and its bytes, which it copies out), read
 * once per worker. Not a Blob: Node 20's Blob hands its bytes back in small chunks, half a
 * second of CPU for a 40 MB dump, in every file.
 */
function dumpFile(file: string): Blob {
  let buffer = tarballs.get(file);
  if (!buffer) {
    if (!existsSync(file)) throw new Error('test database template missing: run tests through vitest (globalSetup)');
    buffer = bufferOf(readFileSync(file));
    tarballs.set(file, buffer);
  }
  return tarball(buffer);
}

function bufferOf(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

function tarball(bytes: Uint8Array | ArrayBuffer): Blob {
  const buffer = bytes instanceof ArrayBuffer ? bytes : bufferOf(bytes);
  return { type: 'application/x-tar', arrayBuffer: async () => buffer } as unknown as Blob;
}

/** A new, empty PGlite database in memory, as initdb leaves it: nothing migrated. */
export async function emptyTestPglite(): Promise<Db> {
  const file = process.env[EMPTY_TEMPLATE_ENV];
  if (!file) throw new Error('test database template missing: run tests through vitest (globalSetup)');
  return openPglite(undefined, dumpFile(file));
}

/**
 * A fresh, migrated database for one test file. On PGlite it goes through the sync
 * journal (in a temporary directory), as a server on a data directory does, unless
 * `journal` is false or `SYNC_JOURNAL=off`.
 */
export async function freshTestDb(opts: { journal?: boolean } = {}): Promise<Db> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = runTemplate();
    const name = `${template}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    await admin.end();
    const db = await openPostgres(withDatabase(url, name), 5);
    const close = db.close.bind(db);
    return Object.assign(db, {
      async close() {
        await close();
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
        await c.end();
      },
    });
  }
  const db = await openPglite(undefined, dumpFile(runTemplate()));
  await migrate(db);
  if (process.env.SYNC_JOURNAL === 'off' || opts.journal === false) return db;
  // The journal path, as a server on a data directory runs it: sync tests cover it on PGlite.
  const dir = mkdtempSync(join(tmpdir(), 'quire-journal-'));
  const log = { warn: () => {}, error: (obj: object, msg: string) => console.error(msg, obj) };
  const journal = await Journal.open(dir, db, log, (err) => console.error('sync journal failed', err));
  const journaled = journaledDb(db, journal);
  return {
    ...journaled,
    async close() {
      await journaled.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The PostgreSQL server of the PGlite run (CI has one for its second run): the same default as `.ci/run`. */
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Connection string of a fresh, migrated PostgreSQL database, for tests that start real
 * server processes. Works in the PGlite run too (on `CI_POSTGRES_URL` or the local server):
 * several processes sharing one database can only be tested on PostgreSQL.
 */
export async function freshPostgresUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  const onRunServer = !!process.env.DATABASE_URL;
  const url = process.env.DATABASE_URL || process.env.CI_POSTGRES_URL || LOCAL_POSTGRES;
  const template = onRunServer ? runTemplate() : undefined;
  const name = `${template ?? `quire_tsolo_${process.pid}`}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  if (!template) {
    const db = await openPostgres(withDatabase(url, name), 2);
    await migrate(db).finally(() => db.close());
  }
  return {
    url: withDatabase(url, name),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await c.end();
    },
  };
}

/**
 * A new DATA_DIR for a server that a test starts as a process. On PGlite it already holds
 * the migrated database, copied from the run's template: creating one from nothing runs
 * initdb and every migration, seconds per start. Tests of a first start on an empty
 * directory make their own.
 */
export function preparedDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const template = process.env[DATA_DIR_TEMPLATE_ENV];
  if (testAdapter() === 'pglite' && template && existsSync(template)) {
    // The relation cache files are rebuilt by whichever process opens the database next;
    // copied from the run's template they would carry the test runner's file modes.
    cpSync(template, join(dir, 'pgdata'), { recursive: true, filter: (src) => !src.endsWith('pg_internal.init') });
  }
  return dir;
}
