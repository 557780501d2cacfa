import { createHash, randomBytes } from 'node:crypto';
import { newId } from '@quire/shared';
import { type Queryable, maybeOne } from './db';
import type { UserRow } from './users';

/** Tokens are shown once; only their SHA-256 is stored (they are long random secrets, so a slow hash adds nothing). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function generateToken(): string {
  return `qt_${randomBytes(32).toString('base64url')}`;
}

/** Stores a token (a new random one unless given) and returns it in clear, the only time it is seen. */
export async function createToken(db: Queryable, userId: string, token = generateToken(), label?: string): Promise<string> {
  await db.query('INSERT INTO api_tokens (id, user_id, token_hash, label) VALUES ($1, $2, $3, $4)', [
    newId(),
    userId,
    hashToken(token),
    label ?? null,
  ]);
  return token;
}

export async function revokeToken(db: Queryable, token: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM api_tokens WHERE token_hash = $1 RETURNING id', [hashToken(token)]);
  return rows.length > 0;
}

export function userForToken(db: Queryable, token: string): Promise<{ user: UserRow; tokenId: string } | undefined> {
  return userForTokenHash(db, hashToken(token));
}

export async function userForTokenHash(db: Queryable, hash: string): Promise<{ user: UserRow; tokenId: string } | undefined> {
  const row = await maybeOne<UserRow & { token_id: string }>(
    db,
    'SELECT u.*, t.id AS token_id FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1',
    [hash],
  );
  if (!row) return undefined;
  const { token_id, ...user } = row;
  return { user, tokenId: token_id };
}

/** The user an API token belongs to, by the token's id (not its secret). */
export async function tokenOwner(db: Queryable, tokenId: string): Promise<string | undefined> {
  const rows = await db.query<{ user_id: string }>('SELECT user_id FROM api_tokens WHERE id = $1', [tokenId]);
  return rows[0]?.user_id;
}
