import { afterAll, describe, expect, it } from 'vitest';
import { userForToken } from '../../store/tokens';
import { freshTestDb, testAdapter } from '../../testing/databases';
import { bootstrapAdmin } from './bootstrap';

/**
 * BOOTSTRAP_ADMIN_TOKEN: on an empty database one organization, its admin and the token;
 * on any other database nothing at all, also when several instances start at once with it.
 */

const dbs: Awaited<ReturnType<typeof freshTestDb>>[] = [];
afterAll(async () => {
  for (const db of dbs) await db.close();
});

async function counts(db: Awaited<ReturnType<typeof freshTestDb>>) {
  const [row] = await db.query<{ users: number; orgs: number; members: number; tokens: number }>(
    `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM organizations) AS orgs,
            (SELECT count(*)::int FROM org_members) AS members, (SELECT count(*)::int FROM api_tokens) AS tokens`,
  );
  return row;
}

describe(`bootstrap on ${testAdapter()}`, () => {
  it('creates one organization, an admin and the token on an empty database; later starts add no row', async () => {
    const db = await freshTestDb();
    dbs.push(db);
    expect(await bootstrapAdmin(db, 'first-token-0123456789abcdef')).toBe(true);
    expect(await counts(db)).toEqual({ users: 1, orgs: 1, members: 1, tokens: 1 });
    const found = await userForToken(db, 'first-token-0123456789abcdef');
    const [membership] = await db.query<{ role: string }>('SELECT role FROM org_members WHERE user_id = $1', [found?.user.id]);
    expect(membership?.role).toBe('admin');
    // The same setting again, or another token: nothing.
    expect(await bootstrapAdmin(db, 'first-token-0123456789abcdef')).toBe(false);
    expect(await bootstrapAdmin(db, 'second-token-0123456789abcdef')).toBe(false);
    expect(await counts(db)).toEqual({ users: 1, orgs: 1, members: 1, tokens: 1 });
    expect(await userForToken(db, 'second-token-0123456789abcdef')).toBeUndefined();
  });

  it('creates the first organization once when several instances start on one empty database at once', async () => {
    const db = await freshTestDb();
    dbs.push(db);
    const created = await Promise.all(['a', 'b', 'c', 'd'].map((k) => bootstrapAdmin(db, `token-${k}-0123456789abcdef`)));
    expect(created.filter(Boolean)).toHaveLength(1);
    expect(await counts(db)).toEqual({ users: 1, orgs: 1, members: 1, tokens: 1 });
  });
});
