import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db';
import { prepareInsightsPartitions } from './insightsPartitions';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Numbered `NNN_name.sql` files, applied once each, in order. */
export function listMigrations(): Migration[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f, sql: readFileSync(join(MIGRATIONS_DIR, f), 'utf8') }));
}

/**
 * Applies pending migrations, all in one transaction: a failing one leaves the database
 * as it was (no half-applied file, no version recorded), so the next start retries it.
 * An advisory lock keeps instances sharing one PostgreSQL from racing each other at start,
 * the bookkeeping table's creation included (two concurrent `CREATE TABLE IF NOT EXISTS`
 * can collide on a fresh database).
 */
export async function migrate(db: Db, migrations: Migration[] = listMigrations()): Promise<number> {
  let applied = 0;
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(7283401)');
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)));
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      for (const stmt of splitStatements(m.sql)) await tx.query(stmt);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied++;
    }
    // Not a numbered file: the embedded database keeps the plain table (see insightsPartitions.ts).
    if (db.kind === 'postgres') await prepareInsightsPartitions(tx);
  });
  return applied;
}

/** Splits a migration into statements; `$$` bodies are kept whole. */
function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inDollar = false;
  for (const line of sql.split('\n')) {
    const trimmed = line.trim();
    if (!inDollar && (trimmed.startsWith('--') || trimmed === '')) continue;
    cur += `${line}\n`;
    if ((line.match(/\$\$/g) ?? []).length % 2 === 1) inDollar = !inDollar;
    if (!inDollar && trimmed.endsWith(';')) {
      out.push(cur.trim());
      cur = '';
    }
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
