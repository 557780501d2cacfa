import type { Queryable } from './db';
import { maybeOne } from './db';

export interface StoredAnswer {
  request_hash: string;
  status: number | null;
  content_type: string | null;
  body: string | null;
  created_at: Date;
}

/** Claims a key for a request; returns the existing record when the key was already used. */
export async function claimKey(db: Queryable, userId: string, key: string, requestHash: string): Promise<StoredAnswer | undefined> {
  const inserted = await db.query(
    'INSERT INTO idempotency_keys (user_id, key, request_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING key',
    [userId, key, requestHash],
  );
  if (inserted.length) return undefined;
  return maybeOne<StoredAnswer>(
    db,
    'SELECT request_hash, status, content_type, body, created_at FROM idempotency_keys WHERE user_id = $1 AND key = $2',
    [userId, key],
  );
}

export async function storeAnswer(db: Queryable, userId: string, key: string, status: number, contentType: string | null, body: string) {
  await db.query('UPDATE idempotency_keys SET status = $3, content_type = $4, body = $5 WHERE user_id = $1 AND key = $2', [
    userId,
    key,
    status,
    contentType,
    body,
  ]);
}

export async function releaseKey(db: Queryable, userId: string, key: string) {
  await db.query('DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2', [userId, key]);
}

export async function purgeOldKeys(db: Queryable, olderThanHours = 24) {
  await db.query(`DELETE FROM idempotency_keys WHERE created_at < now() - interval '${Math.floor(olderThanHours)} hours'`);
}
