import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../testing/apiExpect';
import { TestServer } from '../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

let batch = 0;
/**
 * Adds `n` members in one transaction, as one invite call does: they share one `joined_at`
 * (PostgreSQL's transaction time, to the microsecond), so only `seq` tells them apart.
 */
async function seedMembers(orgId: string, n: number, opts: { seen?: boolean } = {}): Promise<string[]> {
  const tag = `b${++batch}`;
  return t.db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO users (id, email, display_name)
       SELECT 'seed_${tag}_' || lpad(i::text, 6, '0'), 'seed-${tag}-' || i || '@paging.test', 'Seed ' || i FROM generate_series(1, $1::int) i`,
      [n],
    );
    const rows = await tx.query<{ user_id: string }>(
      `INSERT INTO org_members (org_id, user_id, role, last_seen_at)
       SELECT $1, id, 'read', ${opts.seen ? 'now()' : 'NULL'} FROM users WHERE id LIKE 'seed\\_${tag}\\_%' ORDER BY id
       RETURNING user_id`,
      [orgId],
    );
    return rows.map((r) => r.user_id);
  });
}

/** Follows `next.page` to the end, calling `between` after each page. */
async function walk(path: string, token: string, between: () => Promise<unknown> = async () => {}) {
  const seen: string[] = [];
  const sep = path.includes('?') ? '&' : '?';
  let url = path;
  for (let pages = 0; pages < 100; pages++) {
    const res = await t.get(url, token);
    expect(res.status).toBe(200);
    seen.push(...res.body.items.map((m: { id: string }) => m.id));
    if (!res.body.next) return seen;
    await between();
    url = `${path}${sep}page=${encodeURIComponent(res.body.next.page)}`;
  }
  throw new Error('pagination did not end');
}

describe('list pagination', () => {
  it('answers 50 items by default, with count and a next cursor; 1000 is allowed', async () => {
    const { orgId, admin } = await t.org();
    await seedMembers(orgId, 120);
    const first = await t.get(`/v1/orgs/${orgId}/members`, admin.token);
    expect(first.body.items).toHaveLength(50);
    expect(first.body.count).toBe(121);
    expect(typeof first.body.next.page).toBe('string');
    const all = await t.get(`/v1/orgs/${orgId}/members?limit=1000`, admin.token);
    expect(all.body.items).toHaveLength(121);
    expect(all.body.next).toBeUndefined();
    const exact = await t.get(`/v1/orgs/${orgId}/members?limit=121`, admin.token);
    expect(exact.body.next).toBeUndefined();
  });

  it.each(['desc', 'asc'])('walks 120 members (%s) without duplicates or gaps while members join between pages', async (order) => {
    const { orgId, admin } = await t.org();
    const original = [admin.id, ...(await seedMembers(orgId, 120))];
    const joined: string[] = [];
    const seen = await walk(`/v1/orgs/${orgId}/members?limit=17&order=${order}`, admin.token, async () => {
      joined.push(...(await seedMembers(orgId, 3)));
    });
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => original.includes(id)).sort()).toEqual([...original].sort());
    // Newest first: those who joined during the walk sort before the cursor and never show.
    if (order === 'desc') expect(seen.filter((id) => joined.includes(id))).toEqual([]);
    else expect(seen.filter((id) => joined.includes(id)).length).toBeGreaterThan(0);
  });

  it('walks members sorted by last activity, many active at the same instant', async () => {
    const { orgId, admin } = await t.org();
    const active = await seedMembers(orgId, 60, { seen: true });
    const seen = await walk(`/v1/orgs/${orgId}/members?sort=lastSeenAt&limit=7`, admin.token);
    expect(seen.sort()).toEqual([...active].sort());
  });

  it('walks lists keyed by sequence alone (teams) while teams are created between pages', async () => {
    const { orgId, admin } = await t.org();
    const created: string[] = [];
    for (let i = 0; i < 12; i++) created.push((await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: `Team ${i}` })).body.id);
    const seen = await walk(`/v1/orgs/${orgId}/teams?limit=5`, admin.token, async () => {
      created.push((await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: 'Late' })).body.id);
    });
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(created.slice(0, seen.length));
    expect(seen.length).toBeGreaterThanOrEqual(12);
  });

  it('refuses cursors that no answer produced, with a 400 and never a 500', async () => {
    const { orgId, admin } = await t.org();
    const msg = 'Invalid query parameter field "page": not a cursor from a previous answer.';
    const forged = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    expectError(await t.get(`/v1/orgs/${orgId}/members?page=abc`, admin.token), 400, msg);
    expectError(await t.get(`/v1/orgs/${orgId}/members?page=${forged({ s: 'x' })}`, admin.token), 400, msg);
    expectError(await t.get(`/v1/orgs/${orgId}/members?page=${forged({ s: 1, v: 'not a time' })}`, admin.token), 400, msg);
    expectError(await t.get(`/v1/orgs/${orgId}/members?page=${forged({ s: 1, v: 12 })}`, admin.token), 400, msg);
    expectError(await t.get(`/v1/orgs/${orgId}/members?page=${forged({ s: 1 })}`, admin.token), 400, msg);
    expectError(await t.get(`/v1/orgs/${orgId}/teams?page=${forged({ s: 1e300 })}`, admin.token), 400, msg);
    expectError(
      await t.get(`/v1/orgs/${orgId}/members?page=${'a'.repeat(513)}`, admin.token),
      400,
      /^Invalid query parameter field "page"/,
    );
    // A cursor from the list itself still works.
    await seedMembers(orgId, 3);
    const first = await t.get(`/v1/orgs/${orgId}/members?limit=2`, admin.token);
    expect((await t.get(`/v1/orgs/${orgId}/members?limit=2&page=${first.body.next.page}`, admin.token)).body.items).toHaveLength(2);
  });
});
