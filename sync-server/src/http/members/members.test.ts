import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setGrant } from '../../store/grants';
import { NO_MEMBER, NO_ORG, UNKNOWN_ID, expectError } from '../../testing/apiExpect';
import { type TestUser, TestServer } from '../../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

const ADMIN_ONLY = 'This needs the admin role in the organization.';
const GUEST_OTHERS = 'Guests can only see their own membership.';

const ids = (list: { items: { id: string }[] }) => list.items.map((m) => m.id);

describe('GET /v1/orgs/{organizationId}/members', () => {
  it('lists members newest first with counts, and filters by role and search', async () => {
    const { orgId, admin, members } = await t.org(['edit', 'read', null]);
    const [editor, reader, guest] = members as [TestUser, TestUser, TestUser];
    const list = await t.get(`/v1/orgs/${orgId}/members`, reader.token);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(4);
    expect(ids(list.body)).toEqual([guest.id, reader.id, editor.id, admin.id]);
    expect(list.body.items[3]).toMatchObject({
      object: 'member',
      id: admin.id,
      role: 'admin',
      disabled: false,
      sso: false,
      spaces: 0,
      teams: 0,
      user: { object: 'user', id: admin.id, email: admin.email, urls: { location: `http://quire.test/v1/users/${admin.id}` } },
    });
    expect(ids((await t.get(`/v1/orgs/${orgId}/members?order=asc`, reader.token)).body)).toEqual([
      admin.id,
      editor.id,
      reader.id,
      guest.id,
    ]);
    expect(ids((await t.get(`/v1/orgs/${orgId}/members?role=edit`, reader.token)).body)).toEqual([editor.id]);
    expect(
      ids((await t.get(`/v1/orgs/${orgId}/members?search=${encodeURIComponent(editor.email.toUpperCase())}`, reader.token)).body),
    ).toEqual([editor.id]);
    // `%` and `_` are literal characters in a search, not patterns.
    expect((await t.get(`/v1/orgs/${orgId}/members?search=%25`, reader.token)).body).toEqual({ items: [], count: 0 });
  });

  it('with sort=lastSeenAt lists only members who were active, most recent first', async () => {
    const { orgId, admin, members } = await t.org(['edit', 'read']);
    await t.post(`/v1/orgs/${orgId}/ping`, members[1]!.token);
    await t.post(`/v1/orgs/${orgId}/ping`, members[0]!.token);
    const list = await t.get(`/v1/orgs/${orgId}/members?sort=lastSeenAt`, admin.token);
    expect(ids(list.body)).toEqual([members[0]!.id, members[1]!.id]);
    expect(list.body.count).toBe(2);
  });

  it('refuses bad query parameters (400), guests (403) and outsiders (404)', async () => {
    const { orgId, admin, members } = await t.org([null]);
    expectError(await t.get(`/v1/orgs/${orgId}/members?role=boss`, admin.token), 400, /^Invalid query parameter field "role"/);
    expectError(await t.get(`/v1/orgs/${orgId}/members?sort=email`, admin.token), 400, /^Invalid query parameter field "sort"/);
    expectError(await t.get(`/v1/orgs/${orgId}/members?order=up`, admin.token), 400, /^Invalid query parameter field "order"/);
    expectError(
      await t.get(`/v1/orgs/${orgId}/members?limit=1001`, admin.token),
      400,
      'Invalid query parameter field "limit": must be at most 1000.',
    );
    expectError(await t.get(`/v1/orgs/${orgId}/members`, members[0]!.token), 403, GUEST_OTHERS);
    const stranger = await t.user();
    expectError(await t.get(`/v1/orgs/${orgId}/members`, stranger.token), 404, NO_ORG);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}', () => {
  it('answers a member to members, and a guest their own membership', async () => {
    const { orgId, admin, members } = await t.org(['read', null]);
    const res = await t.get(`/v1/orgs/${orgId}/members/${admin.id}`, members[0]!.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'member', id: admin.id, role: 'admin' });
    expect(new Date(res.body.joinedAt).toISOString()).toBe(res.body.joinedAt);
    const self = await t.get(`/v1/orgs/${orgId}/members/${members[1]!.id}`, members[1]!.token);
    expect(self.body).toMatchObject({ id: members[1]!.id, role: null });
  });

  it('refuses a bad id (400), guests asking for others (403), outsiders and non-members (404)', async () => {
    const { orgId, admin, members } = await t.org([null]);
    expectError(await t.get(`/v1/orgs/${orgId}/members/%27%20OR%201=1`, admin.token), 400, /^Invalid path parameter field "userId"/);
    expectError(await t.get(`/v1/orgs/${orgId}/members/${admin.id}`, members[0]!.token), 403, GUEST_OTHERS);
    const stranger = await t.user();
    expectError(await t.get(`/v1/orgs/${orgId}/members/${admin.id}`, stranger.token), 404, NO_ORG);
    expectError(await t.get(`/v1/orgs/${orgId}/members/${stranger.id}`, admin.token), 404, NO_MEMBER);
    expectError(await t.get(`/v1/orgs/${orgId}/members/${UNKNOWN_ID}`, admin.token), 404, NO_MEMBER);
  });
});

describe('DELETE /v1/orgs/{organizationId}/members/{userId}', () => {
  it('removes a member with their team memberships and grants; 204 again when gone', async () => {
    const { orgId, admin, members } = await t.org(['edit']);
    const editor = members[0]!;
    const team = await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: 'Writers', members: [editor.id] });
    const space = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'S' });
    await setGrant(t.db, {
      resource_id: space.body.id,
      resource_kind: 'space',
      principal_id: editor.id,
      principal_kind: 'user',
      role: 'admin',
    });
    const first = await t.delete(`/v1/orgs/${orgId}/members/${editor.id}`, admin.token);
    expect(first.status).toBe(204);
    expect(first.body).toBeUndefined();
    expectError(await t.get(`/v1/orgs/${orgId}/members/${editor.id}`, admin.token), 404, NO_MEMBER);
    expectError(await t.get(`/v1/orgs/${orgId}`, editor.token), 404, NO_ORG);
    expect((await t.get(`/v1/orgs/${orgId}/teams/${team.body.id}`, admin.token)).body.members).toBe(0);
    expect(await t.db.query('SELECT * FROM grants WHERE principal_id = $1', [editor.id])).toEqual([]);
    expect((await t.delete(`/v1/orgs/${orgId}/members/${editor.id}`, admin.token)).status).toBe(204);
  });

  it('lets a member leave on their own', async () => {
    const { orgId, members } = await t.org(['read']);
    expect((await t.delete(`/v1/orgs/${orgId}/members/${members[0]!.id}`, members[0]!.token)).status).toBe(204);
    expectError(await t.get(`/v1/orgs/${orgId}`, members[0]!.token), 404, NO_ORG);
  });

  it('refuses non-admins removing others (403), bad ids (400) and the last admin (409); outsiders get 204, removing nobody', async () => {
    const { orgId, admin, members } = await t.org(['create', 'read']);
    expectError(
      await t.delete(`/v1/orgs/${orgId}/members/${members[1]!.id}`, members[0]!.token),
      403,
      'Only an admin can remove another member.',
    );
    const stranger = await t.user();
    expect((await t.delete(`/v1/orgs/${orgId}/members/${members[1]!.id}`, stranger.token)).status).toBe(204);
    expectError(await t.delete(`/v1/orgs/${orgId}/members/..%2Fx`, admin.token), 400, /^Invalid path parameter field "userId"/);
    expectError(
      await t.delete(`/v1/orgs/${orgId}/members/${admin.id}`, admin.token),
      409,
      'The last admin of an organization cannot be removed; make another member admin first.',
    );
    expect((await t.get(`/v1/orgs/${orgId}/members`, admin.token)).body.count).toBe(3);
  });

  it('does not count a disabled admin as the one left', async () => {
    const { orgId, admin, members } = await t.org(['admin']);
    await t.db.query('UPDATE org_members SET disabled = true WHERE org_id = $1 AND user_id = $2', [orgId, members[0]!.id]);
    expectError(await t.delete(`/v1/orgs/${orgId}/members/${admin.id}`, admin.token), 409);
    expect((await t.delete(`/v1/orgs/${orgId}/members/${members[0]!.id}`, admin.token)).status).toBe(204);
  });
});

describe('PATCH /v1/orgs/{organizationId}/members/{userId}', () => {
  it("changes a member's role, null making them a guest", async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const res = await t.patch(`/v1/orgs/${orgId}/members/${members[0]!.id}`, admin.token, { role: 'review' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'member', id: members[0]!.id, role: 'review' });
    const guest = await t.patch(`/v1/orgs/${orgId}/members/${members[0]!.id}`, admin.token, { role: null });
    expect(guest.body.role).toBeNull();
    // The new role takes effect on the very next request.
    expect((await t.get(`/v1/orgs/${orgId}`, members[0]!.token)).body.permissions.listMembers).toBe(false);
  });

  it('refuses bad input (400), non-admins (403), outsiders and unknown members (404), the last admin (409)', async () => {
    const { orgId, admin, members } = await t.org(['create']);
    const target = `/v1/orgs/${orgId}/members/${members[0]!.id}`;
    expectError(await t.patch(target, admin.token, {}), 400, 'Invalid body: must set at least one field.');
    expectError(await t.patch(target, admin.token, { role: 'owner' }), 400, /^Invalid body field "role": Invalid option/);
    expectError(await t.patch(target, admin.token, { role: 'read', disabled: true }), 400, 'Unknown body field: "disabled".');
    expectError(await t.patch(target, members[0]!.token, { role: 'admin' }), 403, ADMIN_ONLY);
    const stranger = await t.user();
    expectError(await t.patch(target, stranger.token, { role: 'read' }), 404, NO_ORG);
    expectError(await t.patch(`/v1/orgs/${orgId}/members/${stranger.id}`, admin.token, { role: 'read' }), 404, NO_MEMBER);
    expectError(
      await t.patch(`/v1/orgs/${orgId}/members/${admin.id}`, admin.token, { role: 'create' }),
      409,
      'The last admin of an organization cannot be demoted; make another member admin first.',
    );
    expect((await t.get(target, admin.token)).body.role).toBe('create');
    // Re-stating the role of the last admin is not a demotion.
    expect((await t.patch(`/v1/orgs/${orgId}/members/${admin.id}`, admin.token, { role: 'admin' })).status).toBe(200);
  });

  it('never leaves an organization without an admin when two admins demote each other at once', async () => {
    const { orgId, admin, members } = await t.org(['admin']);
    const other = members[0]!;
    const answers = await Promise.all([
      t.patch(`/v1/orgs/${orgId}/members/${other.id}`, admin.token, { role: 'read' }),
      t.patch(`/v1/orgs/${orgId}/members/${admin.id}`, other.token, { role: 'read' }),
    ]);
    // At once, the last-admin rule refuses the second (409); when one demotion commits before
    // the other request is authorized, its sender is no longer an admin (403). Never both 200.
    expect([
      [200, 403],
      [200, 409],
    ]).toContainEqual(answers.map((a) => a.status).sort());
    const rows = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM org_members WHERE org_id = $1 AND role = 'admin'", [
      orgId,
    ]);
    expect(rows[0]!.n).toBe(1);
  });
});

describe('POST /v1/orgs/{organizationId}/members/{userId}/sso', () => {
  it('makes a member an SSO member', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const res = await t.post(`/v1/orgs/${orgId}/members/${members[0]!.id}/sso`, admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'member', id: members[0]!.id, sso: true });
  });

  it('refuses a bad id (400), non-admins (403), outsiders and unknown members (404)', async () => {
    const { orgId, admin, members } = await t.org(['create']);
    expectError(await t.post(`/v1/orgs/${orgId}/members/bad.id/sso`, admin.token), 400, /^Invalid path parameter field "userId"/);
    expectError(await t.post(`/v1/orgs/${orgId}/members/${admin.id}/sso`, members[0]!.token), 403, ADMIN_ONLY);
    const stranger = await t.user();
    expectError(await t.post(`/v1/orgs/${orgId}/members/${admin.id}/sso`, stranger.token), 404, NO_ORG);
    expectError(await t.post(`/v1/orgs/${orgId}/members/${stranger.id}/sso`, admin.token), 404, NO_MEMBER);
    expect((await t.get(`/v1/orgs/${orgId}/members/${admin.id}`, admin.token)).body.sso).toBe(false);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}/spaces', () => {
  it("lists the spaces a member can access with their permission, a guest's granted ones only", async () => {
    const { orgId, admin, members } = await t.org(['comment', null]);
    const [commenter, guest] = members as [TestUser, TestUser];
    const a = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'A' });
    const b = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'B' });
    await t.patch(`/v1/spaces/${b.body.id}`, admin.token, { defaultLevel: 'edit' });
    await setGrant(t.db, {
      resource_id: a.body.id,
      resource_kind: 'space',
      principal_id: guest.id,
      principal_kind: 'user',
      role: 'review',
    });

    const own = await t.get(`/v1/orgs/${orgId}/members/${commenter.id}/spaces`, commenter.token);
    expect(own.status).toBe(200);
    expect(own.body.count).toBe(2);
    // Newest first by default.
    expect(own.body.items.map((i: { permission: string; space: { id: string } }) => [i.space.id, i.permission])).toEqual([
      [b.body.id, 'edit'],
      [a.body.id, 'comment'],
    ]);
    expect(own.body.items[0].space).toMatchObject({ object: 'space', permissions: { edit: true } });
    const asc = await t.get(`/v1/orgs/${orgId}/members/${commenter.id}/spaces?order=asc`, admin.token);
    expect(asc.body.items.map((i: { space: { id: string } }) => i.space.id)).toEqual([a.body.id, b.body.id]);
    const guestSpaces = await t.get(`/v1/orgs/${orgId}/members/${guest.id}/spaces`, admin.token);
    expect(guestSpaces.body).toMatchObject({ count: 1, items: [{ permission: 'review', space: { id: a.body.id } }] });
  });

  it("refuses bad input (400), non-admins listing another's spaces (403), outsiders and unknown members (404)", async () => {
    const { orgId, admin, members } = await t.org(['create']);
    expectError(
      await t.get(`/v1/orgs/${orgId}/members/${admin.id}/spaces?order=newest`, admin.token),
      400,
      /^Invalid query parameter field "order"/,
    );
    expectError(
      await t.get(`/v1/orgs/${orgId}/members/${admin.id}/spaces`, members[0]!.token),
      403,
      "Only an admin can list another member's spaces.",
    );
    const stranger = await t.user();
    expectError(await t.get(`/v1/orgs/${orgId}/members/${admin.id}/spaces`, stranger.token), 404, NO_ORG);
    expectError(await t.get(`/v1/orgs/${orgId}/members/${stranger.id}/spaces`, admin.token), 404, NO_MEMBER);
    expectError(await t.get(`/v1/orgs/${orgId}/members/unknown/spaces`, admin.token), 404, NO_MEMBER);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}/teams', () => {
  it("lists a member's teams with their team role, filtered by title", async () => {
    const { orgId, admin, members } = await t.org(['edit']);
    const editor = members[0]!;
    const writers = await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: 'Writers', members: [editor.id] });
    const reviewers = await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: 'Reviewers' });
    await t.put(`/v1/orgs/${orgId}/teams/${reviewers.body.id}/members/${editor.id}`, admin.token, { role: 'owner' });
    await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: 'Others' });
    const res = await t.get(`/v1/orgs/${orgId}/members/${editor.id}/teams`, editor.token);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.items).toEqual([
      {
        team: expect.objectContaining({ object: 'team', id: writers.body.id, permissions: { admin: false, view: true } }),
        member: { role: 'member' },
      },
      { team: expect.objectContaining({ id: reviewers.body.id, permissions: { admin: true, view: true } }), member: { role: 'owner' } },
    ]);
    const filtered = await t.get(`/v1/orgs/${orgId}/members/${editor.id}/teams?title=VIEW`, admin.token);
    expect(filtered.body.items.map((i: { team: { id: string } }) => i.team.id)).toEqual([reviewers.body.id]);
  });

  it('refuses bad input (400), guests asking about others (403), outsiders and unknown members (404)', async () => {
    const { orgId, admin, members } = await t.org([null]);
    expectError(
      await t.get(`/v1/orgs/${orgId}/members/${admin.id}/teams?title=${'x'.repeat(257)}`, admin.token),
      400,
      'Invalid query parameter field "title": Too big: expected string to have <=256 characters.',
    );
    expectError(await t.get(`/v1/orgs/${orgId}/members/${admin.id}/teams`, members[0]!.token), 403, GUEST_OTHERS);
    expect((await t.get(`/v1/orgs/${orgId}/members/${members[0]!.id}/teams`, members[0]!.token)).status).toBe(200);
    const stranger = await t.user();
    expectError(await t.get(`/v1/orgs/${orgId}/members/${admin.id}/teams`, stranger.token), 404, NO_ORG);
    expectError(await t.get(`/v1/orgs/${orgId}/members/unknown/teams`, admin.token), 404, NO_MEMBER);
  });
});
