import { newId } from '@quire/shared';
import { type Queryable, maybeOne, one } from './db';

export interface UserRow {
  id: string;
  email: string;
  display_name: string;
  photo_url: string | null;
  email_verified: boolean;
  created_at: Date;
}

export function getUser(db: Queryable, id: string) {
  return maybeOne<UserRow>(db, 'SELECT * FROM users WHERE id = $1', [id]);
}

/**
 * The user, if `viewerId` may see them: themselves, or someone sharing an organization with
 * them; only `inOrg` when the viewer's token is limited to one organization (SSO).
 */
export function getUserSeenBy(db: Queryable, id: string, viewerId: string, inOrg?: string) {
  return maybeOne<UserRow>(
    db,
    `SELECT u.* FROM users u WHERE u.id = $1 AND (u.id = $2 OR EXISTS (
       SELECT 1 FROM org_members a JOIN org_members b ON b.org_id = a.org_id
       WHERE a.user_id = $1 AND b.user_id = $2 AND ($3::text IS NULL OR a.org_id = $3)))`,
    [id, viewerId, inOrg ?? null],
  );
}

export function getUserByEmail(db: Queryable, email: string) {
  return maybeOne<UserRow>(db, 'SELECT * FROM users WHERE lower(email) = lower($1)', [email]);
}

/**
 * A new user whose address only an identity provider vouches for: not verified, so it
 * opens nothing through email-domain rules. Undefined when the address is already taken.
 */
export function insertUnverifiedUser(db: Queryable, email: string, displayName?: string): Promise<UserRow | undefined> {
  return maybeOne<UserRow>(
    db,
    `INSERT INTO users (id, email, display_name, email_verified) VALUES ($1, $2, $3, false)
     ON CONFLICT (email) DO NOTHING RETURNING *`,
    [newId(), email, displayName ?? email.split('@')[0]],
  );
}

/** The user with this email, created when there is none. */
export async function ensureUser(db: Queryable, email: string, displayName?: string): Promise<UserRow> {
  const existing = await getUserByEmail(db, email);
  if (existing) return existing;
  return one<UserRow>(
    db,
    `INSERT INTO users (id, email, display_name) VALUES ($1, $2, $3)
     ON CONFLICT (email) DO UPDATE SET email = users.email RETURNING *`,
    [newId(), email, displayName ?? email.split('@')[0]],
  );
}
