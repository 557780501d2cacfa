import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyTestPglite, freshTestDb, testAdapter } from '../testing/databases';
import type { Db } from './db';
import { listMigrations, migrate } from './migrate';
import { openPostgres } from './postgres';

/** Migrations: numbered SQL files applied once each, all or nothing, by one instance at a time. */

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** `n` connections to one new, empty database of the adapter under test. */
async function emptyDatabase(n: number): Promise<Db[]> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = await emptyTestPglite();
    cleanups.push(() => db.close());
    return Array.from({ length: n }, () => db);
  }
  const name = `quire_migrate_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const at = new URL(url);
  at.pathname = `/${name}`;
  const dbs = await Promise.all(Array.from({ length: n }, () => openPostgres(at.toString(), 2)));
  cleanups.push(async () => {
    for (const db of dbs) await db.close();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await c.end();
  });
  return dbs;
}

const versions = async (db: Db) =>
  (await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => Number(r.version));
const tableExists = async (db: Db, name: string) =>
  (await db.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [name]))[0]?.t !== null;

describe(`migrations on ${testAdapter()}`, () => {
  it('are numbered files with distinct, increasing versions', () => {
    const all = listMigrations();
    expect(all.length).toBeGreaterThan(5);
    for (const m of all) expect(m.name).toMatch(new RegExp(`^${String(m.version).padStart(3, '0')}_[a-z0-9_]+\\.sql$`));
    const numbers = all.map((m) => m.version);
    expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
  });

  it('applies each migration once, in order; a second start applies none', async () => {
    const [db] = (await emptyDatabase(1)) as [Db];
    expect(await migrate(db)).toBe(listMigrations().length);
    expect(await versions(db)).toEqual(listMigrations().map((m) => m.version));
    expect(await migrate(db)).toBe(0);
    expect(await versions(db)).toEqual(listMigrations().map((m) => m.version));
  });

  it('migrates a fresh database once when several instances start at the same moment', async () => {
    const dbs = await emptyDatabase(3);
    const applied = await Promise.all(dbs.map((db) => migrate(db)));
    expect(applied.reduce((a, b) => a + b, 0)).toBe(listMigrations().length);
    expect(await versions(dbs[0] as Db)).toEqual(listMigrations().map((m) => m.version));
  });

  it('applies nothing when one migration fails: no table, no version, and the next start applies them all', async () => {
    const db = await freshTestDb();
    cleanups.push(() => db.close());
    const before = await versions(db);
    const good = { version: 901, name: '901_widgets.sql', sql: 'CREATE TABLE widgets (id text PRIMARY KEY);\n' };
    const bad = {
      version: 902,
      name: '902_gadgets.sql',
      sql: 'CREATE TABLE gadgets (id text);\nALTER TABLE no_such_table ADD COLUMN x int;\n',
    };
    await expect(migrate(db, [...listMigrations(), good, bad])).rejects.toThrow(/no_such_table/);
    expect(await versions(db)).toEqual(before);
    expect(await tableExists(db, 'widgets')).toBe(false);
    expect(await tableExists(db, 'gadgets')).toBe(false);
    const fixed = { ...bad, sql: 'CREATE TABLE gadgets (id text);\n' };
    expect(await migrate(db, [...listMigrations(), good, fixed])).toBe(2);
    expect(await versions(db)).toEqual([...before, 901, 902]);
    expect(await tableExists(db, 'widgets')).toBe(true);
  });
});
