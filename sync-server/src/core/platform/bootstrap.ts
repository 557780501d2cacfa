import type { Db } from '../../store/db';
import { createOrg } from '../../store/organizations';
import { createToken } from '../../store/tokens';
import { ensureUser } from '../../store/users';

/**
 * On an empty database, creates one organization, an admin user and the given token.
 * A database that already has users is left alone, so a second instance started with the
 * same setting creates nothing.
 */
export async function bootstrapAdmin(db: Db, token: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(7283402)');
    const rows = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    if ((rows[0]?.n ?? 0) > 0) return false;
    const user = await ensureUser(tx, 'admin@localhost', 'Admin');
    await createOrg(tx, 'My organization', user.id);
    await createToken(tx, user.id, token, 'bootstrap');
    return true;
  });
}
