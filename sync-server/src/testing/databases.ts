import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db } from '../store/db';
import { migrate } from '../store/migrate';
import { openPglite, wrapPglite } from '../store/pglite';
import { openPostgres } from '../store/postgres';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const TEMPLATE_FILE = join(ROOT, '.test-data', 'pglite-template.tar');
const RUN_FILE = join(ROOT, '.test-data', 'postgres-template.txt');

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
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const db = await openPostgres(withDatabase(url, name), 2);
    await migrate(db);
    await db.close();
    writeFileSync(RUN_FILE, name);
    await admin.end();
    return async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const dbs = await c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'quire_t%'");
      for (const d of dbs.rows) await c.query(`DROP DATABASE IF EXISTS ${d.datname} WITH (FORCE)`).catch(() => {});
      await c.end();
    };
  }
  const pglite = new PGlite();
  const db = wrapPglite(pglite);
  await migrate(db);
  const dump = await pglite.dumpDataDir('none');
  writeFileSync(TEMPLATE_FILE, Buffer.from(await dump.arrayBuffer()));
  await db.close();
  return async () => {};
}

/** A fresh, migrated database for one test file. */
export async function freshTestDb(): Promise<Db> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = readFileSync(RUN_FILE, 'utf8').trim();
    const name = `quire_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
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
  if (!existsSync(TEMPLATE_FILE)) throw new Error('test database template missing: run tests through vitest (globalSetup)');
  const db = await openPglite(undefined, new Blob([readFileSync(TEMPLATE_FILE)]));
  await migrate(db);
  return db;
}

/** Connection string of a fresh PostgreSQL database (for tests that start real server processes). */
export async function freshPostgresUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL as string;
  const template = readFileSync(RUN_FILE, 'utf8').trim();
  const name = `quire_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
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
