import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../store/db';
import { createCollection } from '../../store/collections';
import { setGrant } from '../../store/grants';
import { addMember, setMemberRole } from '../../store/members';
import { createOrg } from '../../store/organizations';
import { createTeam, upsertTeamMember } from '../../store/teams';
import { createToken } from '../../store/tokens';
import { ensureUser } from '../../store/users';
import { freshTestDb } from '../../testing/databases';
import { Access, loadOrgAccess, orgAccessOf } from './callerAccess';
import { readModelOf } from '../readModel/readModel';

/**
 * Access as each request loads it from the database: membership, grants of the caller and
 * of their teams, the collection tree, single sign-on, and what is kept between requests
 * (per caller and per token) and within one (until a write says to forget it).
 */
let db: Db;
beforeAll(async () => {
  db = await freshTestDb();
  await readModelOf(db).ready;
});
afterAll(async () => db?.close());

let n = 0;
async function user(name: string) {
  const u = await ensureUser(db, `${name}-${++n}-${Math.random().toString(36).slice(2, 7)}@example.com`, name);
  await createToken(db, u.id);
  const [token] = await db.query<{ id: string }>('SELECT id FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1', [u.id]);
  return { id: u.id, tokenId: token!.id };
}

async function org() {
  const owner = await user('owner');
  const o = await createOrg(db, `Org ${++n}`, owner.id);
  return { orgId: o.id, owner };
}

/** A space at the organization's root or in a collection, with its own default level. */
async function space(orgId: string, collectionId: string | null = null, defaultLevel: string | null = null) {
  const id = `space-${++n}-${Math.random().toString(36).slice(2, 7)}`;
  await db.query(
    "INSERT INTO spaces (id, org_id, title, parent_id, default_level, share_key, position) VALUES ($1, $2, 'Space', $3, $4, $1, 'a')",
    [id, orgId, collectionId, defaultLevel],
  );
  return { id, parent_id: collectionId, default_level: defaultLevel as null };
}

describe('loadOrgAccess', () => {
  it("gathers the caller's membership, own and team grants of this organization, and its collection tree", async () => {
    const { orgId } = await org();
    const me = await user('me');
    await addMember(db, orgId, me.id, 'read');
    const top = (await createCollection(db, orgId, 'Top', null)).id;
    const inner = (await createCollection(db, orgId, 'Inner', top)).id;
    await db.query("UPDATE collections SET default_level = 'comment' WHERE id = $1", [top]);
    const deep = await space(orgId, inner);
    const granted = await space(orgId);
    const teamGranted = await space(orgId);
    await setGrant(db, { resource_id: granted.id, resource_kind: 'space', principal_id: me.id, principal_kind: 'user', role: 'edit' });
    const team = await createTeam(db, orgId, 'Team');
    await upsertTeamMember(db, team, me.id, undefined);
    await setGrant(db, { resource_id: teamGranted.id, resource_kind: 'space', principal_id: team, principal_kind: 'team', role: 'review' });

    const a = await loadOrgAccess(db, orgId, me.id);
    expect(a).toMatchObject({ orgId, userId: me.id, orgRole: 'read', isMember: true });
    expect(a.collection(inner)).toMatchObject({ id: inner, parent_id: top, default_level: null });
    expect(a.roleOn(deep)).toBe('comment');
    expect(a.roleOn(granted)).toBe('edit');
    expect(a.roleOn(teamGranted)).toBe('review');
    expect(a.roleOn(await space(orgId))).toBe('read');
  });

  it('leaves out collections and members of other organizations', async () => {
    const mine = await org();
    const other = await org();
    const me = await user('me');
    await addMember(db, mine.orgId, me.id, 'edit');
    const elsewhere = (await createCollection(db, other.orgId, 'Elsewhere', null)).id;
    const a = await loadOrgAccess(db, mine.orgId, me.id);
    expect(a.collection(elsewhere)).toBeUndefined();
    const stranger = await loadOrgAccess(db, other.orgId, me.id);
    expect(stranger).toMatchObject({ isMember: false, orgRole: null });
  });
});

describe('Access within one request', () => {
  it('loads each organization once, and again only after being told to forget it', async () => {
    const first = await org();
    const second = await org();
    const me = await user('me');
    await addMember(db, first.orgId, me.id, 'read');
    await addMember(db, second.orgId, me.id, 'read');
    await db.transaction(async (tx) => {
      const access = new Access(tx, me.id);
      const a1 = await access.org(first.orgId);
      expect(await access.org(first.orgId)).toBe(a1);
      expect(a1.orgRole).toBe('read');
      const b1 = await access.org(second.orgId);

      await setMemberRole(tx, first.orgId, me.id, 'edit');
      await setMemberRole(tx, second.orgId, me.id, 'edit');
      expect((await access.org(first.orgId)).orgRole).toBe('read');
      access.reset(first.orgId);
      expect((await access.org(first.orgId)).orgRole).toBe('edit');
      // Only the organization named was forgotten.
      expect(await access.org(second.orgId)).toBe(b1);
      access.reset();
      expect((await access.org(second.orgId)).orgRole).toBe('edit');
    });
  });

  it('loads through the read model on the whole database, and from what a transaction sees inside one', async () => {
    const { orgId } = await org();
    const me = await user('me');
    await addMember(db, orgId, me.id, 'comment');
    expect((await new Access(db, me.id).org(orgId)).orgRole).toBe('comment');
    await db.transaction(async (tx) => {
      await setMemberRole(tx, orgId, me.id, 'create');
      // Not committed: only the transaction sees it.
      expect((await new Access(tx, me.id).org(orgId)).orgRole).toBe('create');
    });
    expect((await new Access(db, me.id).org(orgId)).orgRole).toBe('create');
  });
});

describe('access kept between requests', () => {
  it('keeps each caller their own', async () => {
    const { orgId } = await org();
    const reader = await user('reader');
    const editor = await user('editor');
    await addMember(db, orgId, reader.id, 'read');
    await addMember(db, orgId, editor.id, 'edit');
    expect((await orgAccessOf(db, orgId, reader.id, undefined)).orgRole).toBe('read');
    expect((await orgAccessOf(db, orgId, editor.id, undefined)).orgRole).toBe('edit');
    expect((await orgAccessOf(db, orgId, reader.id, undefined)).orgRole).toBe('read');
  });

  it('sees a role change on the next request', async () => {
    const { orgId } = await org();
    const me = await user('me');
    await addMember(db, orgId, me.id, 'read');
    expect((await orgAccessOf(db, orgId, me.id, me.tokenId)).orgRole).toBe('read');
    expect((await orgAccessOf(db, orgId, me.id, me.tokenId)).orgRole).toBe('read');
    await setMemberRole(db, orgId, me.id, 'admin');
    expect((await orgAccessOf(db, orgId, me.id, me.tokenId)).orgRole).toBe('admin');
  });

  it('keeps each token its own: in an organization that enforces single sign-on only the sign-in token opens it', async () => {
    const { orgId } = await org();
    const me = await user('me');
    await addMember(db, orgId, me.id, 'edit');
    await db.query('UPDATE organizations SET sso = true WHERE id = $1', [orgId]);
    await createToken(db, me.id);
    const [ssoToken] = await db.query<{ id: string }>('SELECT id FROM api_tokens WHERE user_id = $1 AND id <> $2', [me.id, me.tokenId]);
    await db.query('INSERT INTO sso_tokens (token_id, org_id, user_id) VALUES ($1, $2, $3)', [ssoToken!.id, orgId, me.id]);

    for (let i = 0; i < 2; i++) {
      expect((await orgAccessOf(db, orgId, me.id, ssoToken!.id)).isMember).toBe(true);
      expect((await orgAccessOf(db, orgId, me.id, me.tokenId)).isMember).toBe(false);
      expect((await orgAccessOf(db, orgId, me.id, undefined)).isMember).toBe(false);
      expect((await new Access(db, me.id, ssoToken!.id).org(orgId)).isMember).toBe(true);
      expect((await new Access(db, me.id, me.tokenId).org(orgId)).isMember).toBe(false);
    }
    await db.transaction(async (tx) => {
      expect((await new Access(tx, me.id, ssoToken!.id).org(orgId)).isMember).toBe(true);
      expect((await new Access(tx, me.id, me.tokenId).org(orgId)).isMember).toBe(false);
    });
  });
});
