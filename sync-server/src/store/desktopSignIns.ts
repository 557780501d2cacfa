import { type Queryable, maybeOne } from './db';
import { hashToken } from './tokens';

export interface DesktopSignInRow {
  id: string;
  redirect_uri: string;
  code_challenge: string;
  state: string;
  user_id: string | null;
  org_id: string | null;
  provider_id: string | null;
  token_id: string | null;
  expires_at: Date;
  used_at: Date | null;
}

export interface NewDesktopSignIn {
  id: string;
  redirectUri: string;
  codeChallenge: string;
  state: string;
  expiresAt: Date;
}

export interface SignedInBy {
  userId: string;
  orgId: string | null;
  providerId: string | null;
  codeHash: string;
  expiresAt: Date;
}

/** A sign-in waiting for this identity provider's answer (no one signed in, no code yet). */
export async function insertPending(db: Queryable, s: NewDesktopSignIn, providerId: string) {
  await db.query(
    'INSERT INTO desktop_sign_ins (id, redirect_uri, code_challenge, state, expires_at, provider_id) VALUES ($1, $2, $3, $4, $5, $6)',
    [s.id, s.redirectUri, s.codeChallenge, s.state, s.expiresAt, providerId],
  );
}

/** A sign-in completed at once (password): its code is issued in the same statement. */
export async function insertCompleted(db: Queryable, s: NewDesktopSignIn, by: SignedInBy) {
  await db.query(
    `INSERT INTO desktop_sign_ins (id, redirect_uri, code_challenge, state, expires_at, user_id, org_id, provider_id, code_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [s.id, s.redirectUri, s.codeChallenge, s.state, by.expiresAt, by.userId, by.orgId, by.providerId, by.codeHash],
  );
}

/** Records who signed in to a pending sign-in, once and before it expires; undefined otherwise. */
export function complete(db: Queryable, id: string, by: SignedInBy) {
  return maybeOne<DesktopSignInRow>(
    db,
    `UPDATE desktop_sign_ins SET user_id = $2, org_id = $3, provider_id = $4, code_hash = $5, expires_at = $6
     WHERE id = $1 AND code_hash IS NULL AND expires_at > now() RETURNING *`,
    [id, by.userId, by.orgId, by.providerId, by.codeHash, by.expiresAt],
  );
}

/** A pending sign-in still waiting for this identity provider. */
export function getPending(db: Queryable, id: string, providerId: string) {
  return maybeOne<DesktopSignInRow>(
    db,
    'SELECT * FROM desktop_sign_ins WHERE id = $1 AND provider_id = $2 AND code_hash IS NULL AND expires_at > now()',
    [id, providerId],
  );
}

/**
 * Spends a code: marks its sign-in used in the statement that checks nobody did before.
 * `spent` is the row when this call spent it, `replayed` when an earlier one had.
 */
export async function spendCode(db: Queryable, codeHash: string): Promise<{ spent?: DesktopSignInRow; replayed?: DesktopSignInRow }> {
  const spent = await maybeOne<DesktopSignInRow>(
    db,
    'UPDATE desktop_sign_ins SET used_at = now() WHERE code_hash = $1 AND used_at IS NULL RETURNING *',
    [codeHash],
  );
  if (spent) return { spent };
  const replayed = await maybeOne<DesktopSignInRow>(db, 'SELECT * FROM desktop_sign_ins WHERE code_hash = $1', [codeHash]);
  return replayed ? { replayed } : {};
}

/** Remembers the token a code gave, to revoke it should the code come back. */
export async function recordToken(db: Queryable, id: string, token: string) {
  await db.query('UPDATE desktop_sign_ins SET token_id = (SELECT id FROM api_tokens WHERE token_hash = $2) WHERE id = $1', [
    id,
    hashToken(token),
  ]);
}

export async function revokeIssuedToken(db: Queryable, tokenId: string) {
  await db.query('DELETE FROM api_tokens WHERE id = $1', [tokenId]);
}

/** Drops sign-ins a day past their expiry: by then a replayed code is refused as unknown, which it is. */
export async function purgeOld(db: Queryable) {
  await db.query(`DELETE FROM desktop_sign_ins WHERE expires_at < now() - interval '1 day'`);
}

export async function setPasswordHash(db: Queryable, userId: string, hash: string) {
  await db.query(
    `INSERT INTO user_passwords (user_id, hash) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET hash = EXCLUDED.hash, updated_at = now()`,
    [userId, hash],
  );
}

export async function passwordHash(db: Queryable, userId: string): Promise<string | undefined> {
  const rows = await db.query<{ hash: string }>('SELECT hash FROM user_passwords WHERE user_id = $1', [userId]);
  return rows[0]?.hash;
}

export interface RequiredProvider {
  id: string;
  label: string;
  org_title: string;
}

/**
 * The identity providers an address must sign in through: those of organizations that
 * enforce single sign-on and where it is an active non-admin member (admins are exempt,
 * as in `core/sso/enforcement.ts`).
 */
export function requiredProviders(db: Queryable, email: string) {
  return db.query<RequiredProvider>(
    `SELECT p.id, p.label, o.title AS org_title
       FROM users u
       JOIN org_members m ON m.user_id = u.id AND NOT m.disabled AND (m.role IS NULL OR m.role <> 'admin')
       JOIN organizations o ON o.id = m.org_id AND o.sso
       JOIN saml_providers p ON p.org_id = o.id AND p.status = 'active'
      WHERE lower(u.email) = lower($1)
      ORDER BY o.seq, p.seq`,
    [email],
  );
}
