import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../store/db';

/** Per database: one process may hold several (tests, benchmarks). */
const caches = new WeakMap<Queryable, Map<string, Uint8Array>>();

/**
 * A named server secret, created on first use and shared through the database so that
 * every instance signs and verifies with the same key.
 */
export async function serverSecret(db: Queryable, name: string): Promise<Uint8Array> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(name);
  if (hit) return hit;
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32).toString('base64url'),
  ]);
  const rows = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
  const key = new Uint8Array(Buffer.from((rows[0] as { value: string }).value, 'base64url'));
  cache.set(name, key);
  return key;
}

/** Compares a secret given by a caller with the one stored, in constant time. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
