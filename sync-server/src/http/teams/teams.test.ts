import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setGrant } from '../../store/grants';
import { NO_MEMBER, NO_ORG, NO_TEAM, UNKNOWN_ID, expectError } from '../../testing/apiExpect';
import { type TestUser, TestServer } from '../../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

const ADMIN_ONLY = 'This needs the admin role in the organization.';
const MANAGERS_ONLY = 'Only an admin or an owner of the team can change it.';
const GUEST_TEAMS = 'Guests can only see the teams they belong to.';

async function team(orgId: string, token: string, body: Record<string, unknown>) {
  const res = await t.put(`/v1/orgs/${orgId}/teams`, token, body);
  expect(res.status).toBe(200);
  return res.body as { id: string; members: number };
}

async function teamMembers(orgId: string, teamId: string, token: string): Promise<[string, string][]> {
  const res = await t.get(`/v1/orgs/${orgId}/teams/${teamId}/members`, token);
  expect(res.status).toBe(200);
  return res.body.items.map((i: { organization: { id: string }; team: { role: string } }) => [i.organization.id, i.team.role]);
}

describe('GET /v1/orgs/{organizationId}/teams', () => {
  it('lists teams with counts, filtered by title and by a member who can manage them', async () => {
    const { orgId, admin, members } = await t.org(['edit', 'read']);
    const [editor, reader] = members as [TestUser, TestUser];
    const writers = await team(orgId, admin.token, { title: 'Writers', members: [editor.id, reader.email] });
    const design = await team(orgId, admin.token, { title: 'Design' });
    await t.put(`/v1/orgs/${orgId}/teams/${design.id}/members/${editor.id}`, admin.token, { role: 'owner' });
    const list = await t.get(`/v1/orgs/${orgId}/teams`, reader.token);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    expect(list.body.items[0]).toEqual({
      object: 'team',
      id: writers.id,
      title: 'Writers',
      members: 2,
      spaces: 0,
      createdAt: expect.any(String),
      urls: { location: `http://quire.test/v1/orgs/${orgId}/teams/${writers.id}` },
      permissions: { admin: false, view: true },
    });
    expect((await t.get(`/v1/orgs/${orgId}/teams?title=SIGN`, reader.token)).body.items.map((x: { id: string }) => x.id)).toEqual([
      design.id,
    ]);
    const owned = await t.get(`/v1/orgs/${orgId}/teams?owner=${editor.id}`, editor.token);
    expect(owned.body.items.map((x: { id: string }) => x.id)).toEqual([design.id]);
    expect(owned.body.items[0].permissions).toEqual({ admin: true, view: true });
  });

  it('refuses bad input (400), guests (403) and outsiders (404)', async () => {
    const { orgId, admin, members } = await t.org([null]);
    expectError(await t.get(`/v1/orgs/${orgId}/teams?owner=no%20id`, admin.token), 400, /^Invalid query parameter field "owner"/);
    expectError(
      await t.get(`/v1/orgs/${orgId}/teams?limit=0`, admin.token),
      400,
      'Invalid query parameter field "limit": must be at least 1.',
    );
    expectError(await t.get(`/v1/orgs/${orgId}/teams`, members[0]!.token), 403, GUEST_TEAMS);
    const stranger = await t.user();
    expectError(await t.get(`/v1/orgs/${orgId}/teams`, stranger.token), 404, NO_ORG);
  });
});

describe('PUT /v1/orgs/{organizationId}/teams', () => {
  it('creates a team with members given by id or email', async () => {
    const { orgId, admin, members } = await t.org(['edit', null]);
    const res = await t.put(`/v1/orgs/${orgId}/teams`, admin.token, {
      title: 'Crew',
      members: [members[0]!.id, members[1]!.email.toUpperCase()],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'team', title: 'Crew', members: 2, spaces: 0, permissions: { admin: true, view: true } });
    expect((await teamMembers(orgId, res.body.id, admin.token)).sort()).toEqual(
      [
        [members[0]!.id, 'member'],
        [members[1]!.id, 'member'],
      ].sort(),
    );
  });

  it('refuses bad input (400), non-admins (403), outsiders and members of other organizations (404), creating nothing', async () => {
    const { orgId, admin, members } = await t.org(['create']);
    expectError(await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { members: [] }), 400, 'Missing body field "title".');
    expectError(
      await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: 'x'.repeat(257) }),
      400,
      'Invalid body field "title": Too big: expected string to have <=256 characters.',
    );
    expectError(
      await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: 'T', members: ['not an id!'] }),
      400,
      'Invalid body field "members.0": Invalid input.',
    );
    expectError(await t.put(`/v1/orgs/${orgId}/teams`, members[0]!.token, { title: 'T' }), 403, ADMIN_ONLY);
    const stranger = await t.user();
    expectError(await t.put(`/v1/orgs/${orgId}/teams`, stranger.token, { title: 'T' }), 404, NO_ORG);
    expectError(
      await t.put(`/v1/orgs/${orgId}/teams`, admin.token, { title: 'T', members: [members[0]!.id, stranger.id] }),
      404,
      NO_MEMBER,
    );
    expect((await t.get(`/v1/orgs/${orgId}/teams`, admin.token)).body.count).toBe(0);
  });
});

describe('GET /v1/orgs/{organizationId}/teams/{teamId}', () => {
  it('answers a team to members, and to guests who belong to it', async () => {
    const { orgId, admin, members } = await t.org(['read', null]);
    const tm = await team(orgId, admin.token, { title: 'Crew', members: [members[1]!.id] });
    const res = await t.get(`/v1/orgs/${orgId}/teams/${tm.id}`, members[0]!.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'team', id: tm.id, title: 'Crew', members: 1, permissions: { admin: false, view: true } });
    expect((await t.get(`/v1/orgs/${orgId}/teams/${tm.id}`, members[1]!.token)).status).toBe(200);
  });

  it('counts the spaces granted to the team', async () => {
    const { orgId, admin } = await t.org();
    const tm = await team(orgId, admin.token, { title: 'Crew' });
    const s = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'S' });
    const col = await t.post(`/v1/orgs/${orgId}/collections`, admin.token, { title: 'C' });
    await setGrant(t.db, { resource_id: s.body.id, resource_kind: 'space', principal_id: tm.id, principal_kind: 'team', role: 'edit' });
    await setGrant(t.db, {
      resource_id: col.body.id,
      resource_kind: 'collection',
      principal_id: tm.id,
      principal_kind: 'team',
      role: 'edit',
    });
    expect((await t.get(`/v1/orgs/${orgId}/teams/${tm.id}`, admin.token)).body.spaces).toBe(1);
  });

  it('refuses a bad id (400), guests outside the team (403), outsiders and unknown teams (404)', async () => {
    const { orgId, admin, members } = await t.org([null]);
    const tm = await team(orgId, admin.token, { title: 'Crew' });
    expectError(await t.get(`/v1/orgs/${orgId}/teams/%3Cscript%3E`, admin.token), 400, /^Invalid path parameter field "teamId"/);
    expectError(await t.get(`/v1/orgs/${orgId}/teams/${tm.id}`, members[0]!.token), 403, GUEST_TEAMS);
    const stranger = await t.user();
    expectError(await t.get(`/v1/orgs/${orgId}/teams/${tm.id}`, stranger.token), 404, NO_ORG);
    expectError(await t.get(`/v1/orgs/${orgId}/teams/${UNKNOWN_ID}`, admin.token), 404, NO_TEAM);
    // A team of another organization, through this organization's path, is unknown here.
    const other = await t.org();
    const theirs = await team(other.orgId, other.admin.token, { title: 'Theirs' });
    expectError(await t.get(`/v1/orgs/${orgId}/teams/${theirs.id}`, admin.token), 404, NO_TEAM);
  });
});

describe('DELETE /v1/orgs/{organizationId}/teams/{teamId}', () => {
  it('deletes a team and the grants it held; 204 again when it is gone', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const tm = await team(orgId, admin.token, { title: 'Crew', members: [members[0]!.id] });
    const s = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'S' });
    await setGrant(t.db, { resource_id: s.body.id, resource_kind: 'space', principal_id: tm.id, principal_kind: 'team', role: 'admin' });
    expect((await t.get(`/v1/spaces/${s.body.id}`, members[0]!.token)).body.permissions.admin).toBe(true);
    const first = await t.delete(`/v1/orgs/${orgId}/teams/${tm.id}`, admin.token);
    expect(first.status).toBe(204);
    expect(first.body).toBeUndefined();
    expectError(await t.get(`/v1/orgs/${orgId}/teams/${tm.id}`, admin.token), 404, NO_TEAM);
    expect((await t.get(`/v1/spaces/${s.body.id}`, members[0]!.token)).body.permissions.admin).toBe(false);
    expect((await t.delete(`/v1/orgs/${orgId}/teams/${tm.id}`, admin.token)).status).toBe(204);
  });

  it('refuses a bad id (400) and non-admins (403), and answers outsiders 204 as for an unknown team, deleting nothing', async () => {
    const { orgId, admin, members } = await t.org(['create']);
    const tm = await team(orgId, admin.token, { title: 'Crew' });
    expectError(await t.delete(`/v1/orgs/${orgId}/teams/a..b`, admin.token), 400, /^Invalid path parameter field "teamId"/);
    expectError(await t.delete(`/v1/orgs/${orgId}/teams/${tm.id}`, members[0]!.token), 403, ADMIN_ONLY);
    const stranger = await t.user();
    expect((await t.delete(`/v1/orgs/${orgId}/teams/${tm.id}`, stranger.token)).status).toBe(204);
    expect((await t.get(`/v1/orgs/${orgId}/teams/${tm.id}`, admin.token)).status).toBe(200);
  });
});

describe('PATCH /v1/orgs/{organizationId}/teams/{teamId}', () => {
  it('renames a team, by an admin or an owner of the team', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const tm = await team(orgId, admin.token, { title: 'Crew' });
    const res = await t.patch(`/v1/orgs/${orgId}/teams/${tm.id}`, admin.token, { title: 'Renamed' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: tm.id, title: 'Renamed' });
    await t.put(`/v1/orgs/${orgId}/teams/${tm.id}/members/${members[0]!.id}`, admin.token, { role: 'owner' });
    const byOwner = await t.patch(`/v1/orgs/${orgId}/teams/${tm.id}`, members[0]!.token, { title: 'By owner' });
    expect(byOwner.body).toMatchObject({ title: 'By owner', permissions: { admin: true } });
  });

  it('refuses bad input (400), plain members (403), outsiders and unknown teams (404)', async () => {
    const { orgId, admin, members } = await t.org(['create']);
    const tm = await team(orgId, admin.token, { title: 'Crew', members: [members[0]!.id] });
    const url = `/v1/orgs/${orgId}/teams/${tm.id}`;
    expectError(await t.patch(url, admin.token, {}), 400, 'Missing body field "title".');
    expectError(
      await t.patch(url, admin.token, { title: '' }),
      400,
      'Invalid body field "title": Too small: expected string to have >=1 characters.',
    );
    expectError(await t.patch(url, admin.token, { title: 'A', members: [] }), 400, 'Unknown body field: "members".');
    expectError(await t.patch(url, members[0]!.token, { title: 'Nope' }), 403, MANAGERS_ONLY);
    const stranger = await t.user();
    expectError(await t.patch(url, stranger.token, { title: 'Nope' }), 404, NO_ORG);
    expectError(await t.patch(`/v1/orgs/${orgId}/teams/${UNKNOWN_ID}`, admin.token, { title: 'Nope' }), 404, NO_TEAM);
    expect((await t.get(url, admin.token)).body.title).toBe('Crew');
  });
});

describe('GET /v1/orgs/{organizationId}/teams/{teamId}/members', () => {
  it('lists the members of a team with their team role', async () => {
    const { orgId, admin, members } = await t.org(['edit', 'read']);
    const tm = await team(orgId, admin.token, { title: 'Crew', members: [members[0]!.id] });
    await t.put(`/v1/orgs/${orgId}/teams/${tm.id}/members/${members[1]!.id}`, admin.token, { role: 'owner' });
    const res = await t.get(`/v1/orgs/${orgId}/teams/${tm.id}/members`, members[0]!.token);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.items[0]).toEqual({
      organization: expect.objectContaining({ object: 'member', id: members[0]!.id, role: 'edit', teams: 1 }),
      team: { role: 'member' },
      permissions: { view: true },
    });
    expect(res.body.items[1].team).toEqual({ role: 'owner' });
    const paged = await t.get(`/v1/orgs/${orgId}/teams/${tm.id}/members?limit=1`, admin.token);
    expect(paged.body.items).toHaveLength(1);
    const rest = await t.get(`/v1/orgs/${orgId}/teams/${tm.id}/members?limit=1&page=${paged.body.next.page}`, admin.token);
    expect(rest.body.items[0].organization.id).toBe(members[1]!.id);
    expect(rest.body.next).toBeUndefined();
  });

  it('refuses bad input (400), guests outside the team (403), outsiders and unknown teams (404)', async () => {
    const { orgId, admin, members } = await t.org([null]);
    const tm = await team(orgId, admin.token, { title: 'Crew' });
    expectError(
      await t.get(`/v1/orgs/${orgId}/teams/${tm.id}/members?page=not-a-cursor`, admin.token),
      400,
      'Invalid query parameter field "page": not a cursor from a previous answer.',
    );
    expectError(await t.get(`/v1/orgs/${orgId}/teams/${tm.id}/members`, members[0]!.token), 403, GUEST_TEAMS);
    const stranger = await t.user();
    expectError(await t.get(`/v1/orgs/${orgId}/teams/${tm.id}/members`, stranger.token), 404, NO_ORG);
    expectError(await t.get(`/v1/orgs/${orgId}/teams/unknown/members`, admin.token), 404, NO_TEAM);
  });
});

describe('PUT /v1/orgs/{organizationId}/teams/{teamId}/members', () => {
  it('adds, removes and sets roles in one call, by an admin or an owner', async () => {
    const { orgId, admin, members } = await t.org(['edit', 'read', 'comment']);
    const [a, b, c] = members as [TestUser, TestUser, TestUser];
    const tm = await team(orgId, admin.token, { title: 'Crew', members: [a.id] });
    const res = await t.put(`/v1/orgs/${orgId}/teams/${tm.id}/members`, admin.token, {
      add: [b.email, c.id],
      remove: [a.id],
      memberships: { [c.id]: { role: 'owner' } },
    });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(await teamMembers(orgId, tm.id, admin.token)).toEqual([
      [b.id, 'member'],
      [c.id, 'owner'],
    ]);
    // c now owns the team and can change it.
    const byOwner = await t.put(`/v1/orgs/${orgId}/teams/${tm.id}/members`, c.token, { memberships: { [b.email]: { role: 'owner' } } });
    expect(byOwner.status).toBe(204);
    expect(await teamMembers(orgId, tm.id, admin.token)).toEqual([
      [b.id, 'owner'],
      [c.id, 'owner'],
    ]);
  });

  it('removes a user who is both added and removed', async () => {
    const { orgId, admin, members } = await t.org(['edit', 'read']);
    const [a, b] = members as [TestUser, TestUser];
    const tm = await team(orgId, admin.token, { title: 'Crew', members: [a.id] });
    const res = await t.put(`/v1/orgs/${orgId}/teams/${tm.id}/members`, admin.token, { add: [a.id, b.email], remove: [a.email, b.id] });
    expect(res.status).toBe(204);
    expect(await teamMembers(orgId, tm.id, admin.token)).toEqual([]);
  });

  it('refuses bad input (400), plain members (403), outsiders and non-members (404), changing nothing', async () => {
    const { orgId, admin, members } = await t.org(['edit', 'read']);
    const [a, b] = members as [TestUser, TestUser];
    const tm = await team(orgId, admin.token, { title: 'Crew', members: [a.id] });
    const url = `/v1/orgs/${orgId}/teams/${tm.id}/members`;
    expectError(await t.put(url, admin.token, {}), 400, 'Invalid body: must set at least one field.');
    expectError(await t.put(url, admin.token, { add: [b.id], kick: [] }), 400, 'Unknown body field: "kick".');
    expectError(await t.put(url, admin.token, { memberships: { [b.id]: { role: 'captain' } } }), 400, /^Invalid body field "memberships\./);
    expectError(await t.put(url, a.token, { add: [b.id] }), 403, MANAGERS_ONLY);
    const stranger = await t.user();
    expectError(await t.put(url, stranger.token, { add: [b.id] }), 404, NO_ORG);
    expectError(await t.put(url, admin.token, { add: [b.id, stranger.id] }), 404, NO_MEMBER);
    expectError(await t.put(url, admin.token, { add: [b.id], remove: [stranger.email] }), 404, NO_MEMBER);
    expect(await teamMembers(orgId, tm.id, admin.token)).toEqual([[a.id, 'member']]);
  });
});

describe('PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', () => {
  it('adds a member, then updates their role', async () => {
    const { orgId, admin, members } = await t.org(['edit']);
    const tm = await team(orgId, admin.token, { title: 'Crew' });
    const url = `/v1/orgs/${orgId}/teams/${tm.id}/members/${members[0]!.id}`;
    const added = await t.put(url, admin.token, {});
    expect(added.status).toBe(204);
    expect(await teamMembers(orgId, tm.id, admin.token)).toEqual([[members[0]!.id, 'member']]);
    expect((await t.put(url, admin.token, { role: 'owner' })).status).toBe(204);
    expect(await teamMembers(orgId, tm.id, admin.token)).toEqual([[members[0]!.id, 'owner']]);
    // Adding again without a role keeps the role.
    expect((await t.put(url, admin.token, {})).status).toBe(204);
    expect(await teamMembers(orgId, tm.id, admin.token)).toEqual([[members[0]!.id, 'owner']]);
  });

  it('refuses bad input (400), plain members (403), outsiders and non-members (404)', async () => {
    const { orgId, admin, members } = await t.org(['edit', 'read']);
    const tm = await team(orgId, admin.token, { title: 'Crew', members: [members[0]!.id] });
    const url = `/v1/orgs/${orgId}/teams/${tm.id}/members/${members[1]!.id}`;
    expectError(await t.put(url, admin.token, { role: 'captain' }), 400, /^Invalid body field "role": Invalid option/);
    expectError(
      await t.put(`/v1/orgs/${orgId}/teams/${tm.id}/members/x@y.test`, admin.token, {}),
      400,
      /^Invalid path parameter field "userId"/,
    );
    expectError(await t.put(url, members[0]!.token, {}), 403, MANAGERS_ONLY);
    const stranger = await t.user();
    expectError(await t.put(url, stranger.token, {}), 404, NO_ORG);
    expectError(await t.put(`/v1/orgs/${orgId}/teams/${tm.id}/members/${stranger.id}`, admin.token, {}), 404, NO_MEMBER);
    expectError(await t.put(`/v1/orgs/${orgId}/teams/${UNKNOWN_ID}/members/${members[1]!.id}`, admin.token, {}), 404, NO_TEAM);
    expect(await teamMembers(orgId, tm.id, admin.token)).toEqual([[members[0]!.id, 'member']]);
  });
});

describe('DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', () => {
  it('removes a member from a team; 204 again when they are gone', async () => {
    const { orgId, admin, members } = await t.org(['edit']);
    const tm = await team(orgId, admin.token, { title: 'Crew', members: [members[0]!.id] });
    const url = `/v1/orgs/${orgId}/teams/${tm.id}/members/${members[0]!.id}`;
    const first = await t.delete(url, admin.token);
    expect(first.status).toBe(204);
    expect(first.body).toBeUndefined();
    expect(await teamMembers(orgId, tm.id, admin.token)).toEqual([]);
    expect((await t.delete(url, admin.token)).status).toBe(204);
  });

  it('refuses a bad id (400) and plain members (403), and answers outsiders 204 as for an unknown team, removing nobody', async () => {
    const { orgId, admin, members } = await t.org(['edit', 'read']);
    const tm = await team(orgId, admin.token, { title: 'Crew', members: [members[0]!.id, members[1]!.id] });
    expectError(
      await t.delete(`/v1/orgs/${orgId}/teams/${tm.id}/members/%F0%9F%98%80`, admin.token),
      400,
      /^Invalid path parameter field "userId"/,
    );
    expectError(await t.delete(`/v1/orgs/${orgId}/teams/${tm.id}/members/${members[1]!.id}`, members[0]!.token), 403, MANAGERS_ONLY);
    const stranger = await t.user();
    expect((await t.delete(`/v1/orgs/${orgId}/teams/${tm.id}/members/${members[1]!.id}`, stranger.token)).status).toBe(204);
    expect(await teamMembers(orgId, tm.id, admin.token)).toHaveLength(2);
  });
});
