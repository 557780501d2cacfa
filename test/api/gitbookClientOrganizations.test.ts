import { ContentType, GitBookAPI, MemberRole, SpaceEditMode, TeamMemberRole, type Space } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../sync-server/src/store/tokens';
import { ensureUser } from '../../sync-server/src/store/users';
import { LiveServer } from '../../sync-server/src/testing/syncClients';
import { clientFor, refusal } from './clientHarness';

/**
 * The organization side of the API (organizations, members, teams, collections, spaces,
 * the caller) driven through the public client of this API family (`@gitbook/api`),
 * with the paths, query names and bodies it sends, and the fields it reads back.
 */

let s: LiveServer;
let api: GitBookAPI;
let orgId: string;
let adminId: string;
let members: { id: string; token: string }[];

beforeAll(async () => {
  s = await LiveServer.start();
  const fixture = await s.t.org(['edit', 'read', null]);
  orgId = fixture.orgId;
  adminId = fixture.admin.id;
  members = fixture.members;
  api = clientFor(s, fixture.admin.token);
});
afterAll(async () => s?.close());

function as(token: string): GitBookAPI {
  return clientFor(s, token);
}

let domainCounter = 0;
/** A user with a verified address at a domain of their own. */
async function userAtNewDomain(): Promise<{ id: string; token: string; domain: string }> {
  const domain = `client${++domainCounter}-${Math.random().toString(36).slice(2, 7)}.test`;
  const u = await ensureUser(s.db, `ada@${domain}`, 'Ada');
  return { id: u.id, token: await createToken(s.db, u.id), domain };
}

describe('the caller and organizations', () => {
  it('reads the caller', async () => {
    const { data: user } = await api.user.getAuthenticatedUser();
    expect(user).toMatchObject({ object: 'user', id: adminId });
  });

  it('creates organizations and pages through them; an organization carries the fields the client reads', async () => {
    const u = await s.t.user('founder');
    const client = as(u.token);
    const { data: first } = await client.orgs.createOrganization({ title: 'Acme', emailDomains: ['acme.example'] });
    await client.orgs.createOrganization({ title: 'Globex' });
    expect(first).toMatchObject({
      object: 'organization',
      title: 'Acme',
      emailDomains: ['acme.example'],
      inviteLinks: expect.any(Boolean),
      trial: { status: 'notapplicable', count: 0 },
      permissions: { view: true, access: true, admin: true },
    });
    const page1 = await client.orgs.listOrganizationsForAuthenticatedUser({ limit: 1 });
    expect(page1.data.next?.page).toBeTruthy();
    const page2 = await client.orgs.listOrganizationsForAuthenticatedUser({ limit: 1, page: page1.data.next!.page });
    expect([...page1.data.items, ...page2.data.items].map((o) => o.title).sort()).toEqual(['Acme', 'Globex']);
    const { data: again } = await client.orgs.getOrganizationById(first.id);
    expect(again).toEqual(first);
  });

  it('creates an organization with a default site, optionally referencing an OpenAPI specification', async () => {
    const client = as((await s.t.user('founder')).token);
    const { data: org } = await client.orgs.createOrganization(
      { title: 'Initech' },
      { withDefaultSite: true, openapiUrl: 'http://127.0.0.1:1/openapi.json' },
    );
    expect(org.defaultContent).toMatchObject({ type: 'site', site: expect.any(String) });
    const { data: spaces } = await client.orgs.listSpacesInOrganizationById(org.id);
    expect(spaces.items.map((x) => x.title)).toEqual(['Initech']);
    const { data: tree } = await client.spaces.listPages(spaces.items[0]!.id);
    expect(tree.pages.map((p) => p.title)).toEqual(['API reference']);

    const { data: plain } = await client.orgs.createOrganization({ title: 'Plain' });
    expect(plain.defaultContent).toBeUndefined();
    const lone = await refusal(client.orgs.createOrganization({ title: 'Lone' }, { openapiUrl: 'https://example.com/openapi.json' }));
    expect(lone).toEqual({ code: 400, message: 'Invalid query parameter field "openapiUrl": it is only used with withDefaultSite=true.' });
  });

  it('refuses onboarding preferences, which this server does not have, saying so', async () => {
    const refused = await refusal(
      api.orgs.createOrganization({ title: 'Onboarded', onboardingPreferences: { source: null, audience: null, interests: [] } }),
    );
    expect(refused).toEqual({
      code: 400,
      message: 'Invalid body field "onboardingPreferences": site onboarding preferences are not supported by this server.',
    });
  });

  it('updates an organization with a subdomain as its hostname and merge rules turned off', async () => {
    const { data: org } = await api.orgs.updateOrganizationById(orgId, {
      title: 'Renamed',
      hostname: 'acme-docs',
      mergeRules: { type: 'none' },
      defaultRole: MemberRole.Read,
    });
    expect(org).toMatchObject({ title: 'Renamed', hostname: 'acme-docs', mergeRules: { type: 'none' }, defaultRole: 'read' });
    const other = await refusal(
      api.orgs.updateOrganizationById(orgId, {
        mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
      }),
    );
    expect(other).toEqual({
      code: 400,
      message: 'Invalid body field "mergeRules.rules.0.rule": only "require_specific_reviewers" is supported by this server.',
    });
  });

  it('invites, joins by email domain, and deletes an invite link', async () => {
    const { data: invited } = await api.orgs.inviteUsersToOrganization(orgId, {
      emails: ['invitee@client-org.test', { email: 'guest@client-org.test', role: null }],
      role: MemberRole.Comment,
    });
    expect(invited.invited).toBe(2);
    const { data: guest } = await api.orgs.getMemberInOrganizationById(orgId, invited.users[1]!);
    expect(guest.role).toBeNull();

    const joiner = await userAtNewDomain();
    const { data: org } = await api.orgs.createOrganization({ title: 'Joinable', emailDomains: [joiner.domain] });
    const { data: found } = await as(joiner.token).emailDomains.getOrganizationsForEmailDomain(joiner.domain);
    expect(found.organizations.map((o) => o.id)).toEqual([org.id]);
    const joined = await as(joiner.token).orgs.joinOrganization(org.id);
    expect(joined.status).toBe(204);
    expect((await api.orgs.getMemberInOrganizationById(org.id, joiner.id)).data.id).toBe(joiner.id);

    const deleted = await api.orgs.deleteOrganizationInviteById(orgId, 'no-such-invite-link-id');
    expect(deleted.status).toBe(204);
  });

  it('pings: the visitor claims come under the name the client reads', async () => {
    const { data } = await as(members[2]!.token).orgs.updateOrganizationMemberLastSeenAt(orgId);
    expect(data.gitbookVisitorClaims).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect((data as { platformVisitorClaims?: string }).platformVisitorClaims).toBe(data.gitbookVisitorClaims);
  });

  it('reads and sets agent instructions', async () => {
    const instructions = { object: 'document' as const, data: { schemaVersion: 1 }, nodes: [] };
    const { data: set } = await api.orgs.updateOrganizationAgentInstructions(orgId, { instructions });
    expect(set).toMatchObject({ object: 'agent-instructions', instructions, updatedBy: adminId });
    const { data: read } = await api.orgs.getOrganizationAgentInstructions(orgId);
    expect(read).toEqual(set);
  });
});

describe('collections and spaces of an organization', () => {
  it('creates a collection without a title, as the client allows', async () => {
    const { data: untitled } = await api.orgs.createCollection(orgId, {});
    expect(untitled).toMatchObject({ object: 'collection', title: 'Untitled' });
    const { data: child } = await api.orgs.createCollection(orgId, { title: 'Child', parent: untitled.id });
    const { data: top } = await api.orgs.listCollectionsInOrganizationById(orgId, { nested: false, limit: 100 });
    expect(top.items.map((x) => x.id)).toContain(untitled.id);
    expect(top.items.map((x) => x.id)).not.toContain(child.id);
    const { data: all } = await api.orgs.listCollectionsInOrganizationById(orgId, { limit: 100 });
    expect(all.items.map((x) => x.id)).toContain(child.id);
  });

  it('creates a space from a template, locked, and another explicitly empty', async () => {
    const { data: locked } = await api.orgs.createSpace(orgId, {
      title: 'From template',
      editMode: SpaceEditMode.Locked,
      template: { id: 'getting-started' },
    });
    expect(locked).toMatchObject({ object: 'space', title: 'From template', editMode: 'locked' });
    const { data: tree } = await api.spaces.listPages(locked.id);
    expect(tree.pages.map((p) => p.title)).toEqual(['Welcome', 'Quickstart', 'FAQ']);

    const { data: empty } = await api.orgs.createSpace(orgId, { title: 'Blank', empty: true });
    expect((await api.spaces.listPages(empty.id)).data.pages).toEqual([]);
    const { data: listed } = await api.orgs.listSpacesInOrganizationById(orgId, { limit: 1000 });
    expect(listed.items.map((x) => x.id)).toEqual(expect.arrayContaining([locked.id, empty.id]));
  });

  it('refuses a template it does not know, or a computed source, and creates nothing', async () => {
    const before = (await api.orgs.listSpacesInOrganizationById(orgId, { limit: 1000 })).data.count;
    const unknown = await refusal(api.orgs.createSpace(orgId, { title: 'Nope', template: { id: 'no-such-template' } }));
    expect(unknown.code).toBe(400);
    expect(unknown.message).toMatch(/^Invalid body field "template.id": no template "no-such-template"/);
    const missingRef = await refusal(api.orgs.createSpace(orgId, { title: 'Nope', template: { id: 'api-reference' } }));
    expect(missingRef).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^Missing body field "template.params.contentRefs.spec"/),
    });
    const missingSpec = await refusal(
      api.orgs.createSpace(orgId, {
        title: 'Nope',
        template: { id: 'api-reference', params: { contentRefs: { spec: { kind: 'openapi', spec: 'no-such-spec' } } } },
      }),
    );
    expect(missingSpec.code).toBe(404);
    const computed = await refusal(
      api.orgs.createSpace(orgId, {
        title: 'Computed',
        computedSource: { type: 'builtin:openapi', props: {}, dependencies: {} },
      } as never),
    );
    expect(computed.code).toBe(400);
    expect(computed.message).toMatch(/^Invalid body field "computedSource": spaces computed from a source are not supported/);
    expect((await api.orgs.listSpacesInOrganizationById(orgId, { limit: 1000 })).data.count).toBe(before);
  });
});

describe('organization members', () => {
  it('filters guests with role=guest and sorts by name, paging with the cursor', async () => {
    const { data: guests } = await api.orgs.listMembersInOrganizationById(orgId, { role: 'guest', limit: 1000 });
    expect(guests.items.length).toBeGreaterThan(0);
    expect(guests.items.every((m) => m.role === null)).toBe(true);

    const { data: all } = await api.orgs.listMembersInOrganizationById(orgId, { sort: 'name', order: 'asc', limit: 1000 });
    const names = all.items.map((m) => m.user.displayName.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(all.items[0]).toMatchObject({ object: 'member', sites: 0, spaces: expect.any(Number), teams: expect.any(Number) });

    const paged: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await api.orgs.listMembersInOrganizationById(orgId, { sort: 'name', order: 'asc', limit: 2, page });
      paged.push(...data.items.map((m) => m.id));
      page = data.next?.page;
    } while (page);
    expect(paged).toEqual(all.items.map((m) => m.id));
  });

  it('reads, updates, marks as SSO, lists spaces and teams of, and removes a member', async () => {
    const m = await s.t.member(orgId, MemberRole.Read);
    const { data: member } = await api.orgs.getMemberInOrganizationById(orgId, m.id);
    expect(member).toMatchObject({ object: 'member', id: m.id, role: 'read', sites: 0 });
    const { data: promoted } = await api.orgs.updateMemberInOrganizationById(orgId, m.id, { role: MemberRole.Edit });
    expect(promoted.role).toBe('edit');
    const { data: sso } = await api.orgs.setUserAsSsoMemberForOrganization(orgId, m.id);
    expect(sso.sso).toBe(true);

    const { data: spaces } = await api.orgs.listSpacesForOrganizationMember(orgId, m.id, { order: 'asc', limit: 5 });
    expect(spaces.items.every((x) => x.space.object === 'space' && x.permission)).toBe(true);
    const { data: team } = await api.orgs.createOrganizationTeam(orgId, { title: 'Reviewers', members: [m.id] });
    const { data: teams } = await api.orgs.listTeamsForOrganizationMember(orgId, m.id, { title: 'review' });
    expect(teams.items).toEqual([{ team: expect.objectContaining({ id: team.id }), member: { role: 'member' } }]);

    const removed = await api.orgs.removeMemberFromOrganizationById(orgId, m.id);
    expect(removed.status).toBe(204);
    expect((await refusal(api.orgs.getMemberInOrganizationById(orgId, m.id))).code).toBe(404);
  });
});

describe('teams and team members', () => {
  it('creates, lists, reads, renames and deletes a team', async () => {
    const { data: team } = await api.orgs.createOrganizationTeam(orgId, { title: 'Docs crew' });
    expect(team).toMatchObject({ object: 'team', title: 'Docs crew', members: 0, permissions: { admin: true, view: true } });
    const { data: byTitle } = await api.orgs.listTeamsInOrganizationById(orgId, { title: 'docs CREW', limit: 10 });
    expect(byTitle.items.map((x) => x.id)).toEqual([team.id]);
    const { data: renamed } = await api.orgs.updateTeamInOrganizationById(orgId, team.id, { title: 'Writers guild' });
    expect(renamed.title).toBe('Writers guild');
    expect((await api.orgs.getTeamInOrganizationById(orgId, team.id)).data.title).toBe('Writers guild');
    expect((await api.orgs.removeTeamFromOrganizationById(orgId, team.id)).status).toBe(204);
    expect((await refusal(api.orgs.getTeamInOrganizationById(orgId, team.id))).code).toBe(404);
  });

  it('adds, updates and removes team members, in bulk and one by one', async () => {
    const [editor, reader] = members as [{ id: string; token: string }, { id: string; token: string }];
    const { data: team } = await api.orgs.createOrganizationTeam(orgId, { title: 'Owners' });
    const bulk = await api.orgs.updateMembersInOrganizationTeam(orgId, team.id, {
      add: [editor.id, reader.id],
      memberships: { [editor.id]: { role: TeamMemberRole.Owner } },
    });
    expect(bulk.status).toBe(204);
    const { data: listed } = await api.orgs.listTeamMembersInOrganizationById(orgId, team.id, { limit: 10 });
    const roles = Object.fromEntries(listed.items.map((x) => [x.organization.id, x.team.role]));
    expect(roles).toEqual({ [editor.id]: 'owner', [reader.id]: 'member' });
    const { data: owned } = await api.orgs.listTeamsInOrganizationById(orgId, { owner: editor.id });
    expect(owned.items.map((x) => x.id)).toEqual([team.id]);

    expect((await api.orgs.addMemberToOrganizationTeamById(orgId, team.id, reader.id, { role: TeamMemberRole.Owner })).status).toBe(204);
    expect((await api.orgs.addMemberToOrganizationTeamById(orgId, team.id, adminId, {})).status).toBe(204);
    expect((await api.orgs.deleteMemberFromOrganizationTeamById(orgId, team.id, editor.id)).status).toBe(204);
    const { data: after } = await api.orgs.listTeamMembersInOrganizationById(orgId, team.id);
    expect(Object.fromEntries(after.items.map((x) => [x.organization.id, x.team.role]))).toEqual({
      [reader.id]: 'owner',
      [adminId]: 'member',
    });
  });
});

describe('collections', () => {
  it('reads, updates, lists the spaces of, moves, transfers and deletes a collection', async () => {
    const { data: col } = await api.orgs.createCollection(orgId, { title: 'Manuals' });
    const { data: other } = await api.orgs.createCollection(orgId, { title: 'Archive' });
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Manual', parent: col.id });
    expect((await api.collections.getCollectionById(col.id)).data).toMatchObject({ object: 'collection', title: 'Manuals' });
    const { data: updated } = await api.collections.updateCollectionById(col.id, { description: 'How-tos', defaultLevel: 'inherit' });
    expect(updated).toMatchObject({ description: 'How-tos', defaultLevel: 'inherit' });
    const { data: inside } = await api.collections.listSpacesInCollectionById(col.id, { limit: 10 });
    expect(inside.items.map((x) => x.id)).toEqual([space.id]);

    const { data: moved } = await api.collections.moveCollection(col.id, { parent: other.id });
    expect(moved.parent).toBe(other.id);
    const { data: back } = await api.collections.moveCollection(col.id, {
      parent: null,
      position: { before: { type: 'collection', collection: other.id } },
    });
    expect(back.parent).toBeUndefined();

    const { data: target } = await api.orgs.createOrganization({ title: 'New home' });
    const { data: transferred } = await api.collections.transferCollection(col.id, { organization: target.id });
    expect(transferred.organization).toBe(target.id);
    expect((await api.spaces.getSpaceById(space.id)).data.organization).toBe(target.id);

    expect((await api.collections.deleteCollectionById(col.id)).status).toBe(204);
    expect((await refusal(api.collections.getCollectionById(col.id))).code).toBe(404);
  });
});

describe('spaces', () => {
  it('reads and updates a space: emoji, icon cleared, merge rules off', async () => {
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Guide', emoji: '📘' });
    const { data: read } = await api.spaces.getSpaceById(space.id);
    expect(read).toMatchObject({ object: 'space', title: 'Guide', emoji: '📘', permissions: { admin: true } });
    const { data: cleared } = await api.spaces.updateSpaceById(space.id, { title: 'Guide 2', emoji: null, icon: null });
    expect(cleared.title).toBe('Guide 2');
    expect(cleared.emoji).toBeUndefined();
    const { data: ruled } = await api.spaces.updateSpaceById(space.id, { mergeRules: { type: 'none' }, editMode: SpaceEditMode.Live });
    expect(ruled.mergeRules).toEqual({ type: 'none' });
    const icon = await refusal(api.spaces.updateSpaceById(space.id, { icon: 'https://example.com/icon.png' }));
    expect(icon).toEqual({
      code: 400,
      message: 'Invalid body field "icon": custom space icons are not supported by this server; use "emoji".',
    });
  });

  it('reads a share-link space with its share key', async () => {
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Shared' });
    // The client's type has no `visibility` on this update; the server takes it all the same.
    const { data: shared } = await api.spaces.updateSpaceById(space.id, { visibility: 'share-link' } as never);
    const shareKey = (shared as Space & { shareKey?: string }).shareKey;
    expect(shareKey).toBeTruthy();
    const outsider = as((await s.t.user()).token);
    expect((await refusal(outsider.spaces.getSpaceById(space.id))).code).toBe(404);
    const { data: read } = await outsider.spaces.getSpaceById(space.id, { shareKey });
    expect(read).toMatchObject({ id: space.id, permissions: { view: true, edit: false } });
  });

  it('deletes, restores, duplicates, moves and transfers a space', async () => {
    const { data: col } = await api.orgs.createCollection(orgId, { title: 'Shelf' });
    const { data: neighbour } = await api.orgs.createSpace(orgId, { title: 'Neighbour', parent: col.id });
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Mover', template: { id: 'product-docs' } });

    expect((await api.spaces.deleteSpaceById(space.id)).status).toBe(204);
    expect((await refusal(api.spaces.getSpaceById(space.id))).code).toBe(404);
    const { data: restored } = await api.spaces.restoreSpace(space.id);
    expect(restored.deletedAt).toBeUndefined();

    const { data: copy } = await api.spaces.duplicateSpace(space.id);
    expect(copy.title).toBe('Mover (copy)');
    expect((await api.spaces.listPages(copy.id)).data.pages.map((p) => p.title)).toEqual(['Overview', 'Guides', 'Changelog']);

    const { data: moved } = await api.spaces.moveSpace(space.id, {
      parent: col.id,
      position: { before: { type: 'space', space: neighbour.id } },
    });
    expect(moved.parent).toBe(col.id);
    const { data: inside } = await api.collections.listSpacesInCollectionById(col.id);
    expect(inside.items.map((x) => x.id)).toEqual(expect.arrayContaining([space.id, neighbour.id]));

    // The client has no method for this operation; its generic request sends it the same way.
    const { data: target } = await api.orgs.createOrganization({ title: 'Elsewhere' });
    const { data: transferred } = await api.request<Space>({
      path: `/spaces/${copy.id}/transfer`,
      method: 'POST',
      body: { organization: target.id },
      secure: true,
      type: ContentType.Json,
      format: 'json',
    });
    expect(transferred.organization).toBe(target.id);
  });
});
