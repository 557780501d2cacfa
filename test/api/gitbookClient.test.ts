import { ChangeRequestStatus, GitBookAPI, MemberRole, SiteVisibility } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveServer } from '../../sync-server/src/testing/syncClients';
import { clientFor, refusal, templatedSpace } from './clientHarness';

/**
 * An integration written with the public client of this API family (`@gitbook/api`),
 * pointed at our server by its endpoint and nothing else: the calls an integration makes
 * most, with the paths, query names and bodies that client sends.
 */

let s: LiveServer;
let api: GitBookAPI;
let reader: GitBookAPI;
let orgId: string;

beforeAll(async () => {
  s = await LiveServer.start();
  const fixture = await s.t.org(['read']);
  orgId = fixture.orgId;
  api = clientFor(s, fixture.admin.token);
  reader = clientFor(s, fixture.members[0]!.token);
});
afterAll(async () => s?.close());

describe('the @gitbook/api client against this server', () => {
  it('finds the caller and their organizations', async () => {
    const { data: user } = await api.user.getAuthenticatedUser();
    expect(user.object).toBe('user');
    const { data: orgs } = await api.orgs.listOrganizationsForAuthenticatedUser();
    expect(orgs.items.map((o) => o.id)).toContain(orgId);
    const { data: org } = await api.orgs.getOrganizationById(orgId);
    expect(org.object).toBe('organization');
  });

  it('creates a space in a collection, fills it from a template, and reads its pages', async () => {
    const { data: collection } = await api.orgs.createCollection(orgId, { title: 'Guides' });
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Handbook', parent: collection.id });
    expect(space.object).toBe('space');
    const { data: listed } = await api.orgs.listSpacesInOrganizationById(orgId, { limit: 10 });
    expect(listed.items.map((x) => x.id)).toContain(space.id);

    await api.spaces.applyTemplateToSpace(space.id, { id: 'getting-started' });
    const { data: tree } = await api.spaces.listPages(space.id);
    const welcome = tree.pages.find((p) => p.title === 'Welcome');
    expect(welcome).toBeDefined();
    const { data: page } = await api.spaces.getPageById(space.id, welcome!.id, { format: 'markdown' });
    expect('markdown' in page && page.markdown).toContain('Jump right in');

    const { data: updated } = await api.spaces.updateSpaceById(space.id, { title: 'Team handbook' });
    expect(updated.title).toBe('Team handbook');
    const { data: again } = await api.spaces.getSpaceById(space.id);
    expect(again.title).toBe('Team handbook');
  });

  it('pages through organization members with the cursor it is given', async () => {
    const first = await api.orgs.listMembersInOrganizationById(orgId, { limit: 1 });
    expect(first.data.items).toHaveLength(1);
    expect(first.data.next?.page).toBeTruthy();
    const second = await api.orgs.listMembersInOrganizationById(orgId, { limit: 1, page: first.data.next!.page });
    expect(second.data.items).toHaveLength(1);
    expect(second.data.items[0]!.id).not.toBe(first.data.items[0]!.id);
  });

  it('opens a change request, comments on the space, searches, and merges', async () => {
    const space = await templatedSpace(api, orgId, 'Release notes');
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'Version 2' });
    expect(cr.number).toBe(1);
    const { data: crPages } = await api.spaces.listPagesInChangeRequest(space.id, cr.id);
    expect(crPages.pages.length).toBeGreaterThan(0);

    const { data: comment } = await api.spaces.postCommentInSpace(space.id, { body: { markdown: 'Looks **good**' } });
    const { data: comments } = await api.spaces.listCommentsInSpace(space.id);
    expect(comments.items.map((c) => c.id)).toContain(comment.id);

    const { data: found } = await api.spaces.searchSpaceContent(space.id, { query: 'quickstart' });
    expect(found.items.length).toBeGreaterThan(0);

    const { data: merged } = await api.spaces.mergeChangeRequest(space.id, cr.id);
    expect(merged.result).toBe('merge');
    const { data: after } = await api.spaces.getChangeRequestById(space.id, cr.id);
    expect(after.status).toBe('merged');
  });

  it('applies a template to a change request, as the client allows', async () => {
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Drafts' });
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'Start' });
    await api.spaces.applyTemplateToSpace(space.id, { id: 'getting-started', changeRequestId: cr.id });
    const { data: onBranch } = await api.spaces.listPagesInChangeRequest(space.id, cr.id);
    expect(onBranch.pages.map((p) => p.title)).toContain('Welcome');
    const { data: onMain } = await api.spaces.listPages(space.id);
    expect(onMain.pages.map((p) => p.title)).not.toContain('Welcome');
  });

  it('creates a site with a space, publishes it, and readers get its pages', async () => {
    const space = await templatedSpace(api, orgId, 'Public docs');
    const { data: site } = await api.orgs.createSite(orgId, { title: 'Acme Docs', visibility: SiteVisibility.Public, spaces: [space.id] });
    expect(site.object).toBe('site');
    const { data: siteSpaces } = await api.orgs.listSiteSpaces(orgId, site.id);
    expect(siteSpaces.items.map((x) => x.space.id)).toContain(space.id);
    await api.orgs.publishSite(orgId, site.id);
    const { data: published } = await api.orgs.getSiteById(orgId, site.id);
    expect(published.urls.published).toBeTruthy();
    // Published URLs name the server's public address; here it listens on a local port.
    const url = new URL(published.urls.published!);
    const html = await fetch(`http://127.0.0.1:${s.running.port}${url.pathname}`);
    expect(html.status).toBe(200);
    expect(await html.text()).toContain('Welcome');
  });

  it('invites members, makes a team of them, and lists it', async () => {
    const { data: invited } = await api.orgs.inviteUsersToOrganization(orgId, {
      emails: ['ada@client.test', { email: 'bob@client.test', role: MemberRole.Review }],
      role: MemberRole.Edit,
    });
    expect(invited.invited).toBe(2);
    const { data: team } = await api.orgs.createOrganizationTeam(orgId, { title: 'Writers', members: invited.users });
    const { data: teams } = await api.orgs.listTeamsInOrganizationById(orgId, { title: 'Writers', limit: 5 });
    expect(teams.items.map((x) => x.id)).toEqual([team.id]);
  });

  it('filters change requests by status, threads replies, and reads the current revision', async () => {
    const space = await templatedSpace(api, orgId, 'Threads');
    const { data: open } = await api.spaces.createChangeRequest(space.id, { subject: 'Open one' });
    await api.spaces.updateChangeRequestById(space.id, open.id, { status: ChangeRequestStatus.Open });
    await api.spaces.createChangeRequest(space.id, { subject: 'Still a draft' });
    const { data: listed } = await api.spaces.listChangeRequestsForSpace(space.id, { status: ChangeRequestStatus.Open });
    expect(listed.items.map((x) => x.subject)).toEqual(['Open one']);

    const { data: comment } = await api.spaces.postCommentInSpace(space.id, { body: { markdown: 'Question?' } });
    await api.spaces.postCommentReplyInSpace(space.id, comment.id, { body: { markdown: 'Answer.' } });
    const { data: replies } = await api.spaces.listCommentRepliesInSpace(space.id, comment.id);
    expect(replies.items).toHaveLength(1);
    await api.spaces.updateCommentInSpace(space.id, comment.id, { resolved: true });
    const { data: comments } = await api.spaces.listCommentsInSpace(space.id, { order: 'asc', limit: 10 });
    expect(comments.items.find((x) => x.id === comment.id)?.status).toBe('resolved');

    const { data: revision } = await api.spaces.getCurrentRevision(space.id, { metadata: false });
    expect(revision.object).toBe('revision');
    const { data: found } = await api.orgs.searchOrganizationContent(orgId, { query: 'quickstart', limit: 5 });
    expect(found.items.map((x) => x.id)).toContain(space.id);
  });

  it('reports refusals as the client expects them: status and message', async () => {
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Private' });
    const forbidden = await refusal(reader.spaces.updateSpaceById(space.id, { title: 'Mine now' }));
    expect(forbidden.code).toBe(403);
    expect(forbidden.message).toBeTruthy();
    const missing = await refusal(api.spaces.getSpaceById('no-such-space'));
    expect(missing.code).toBe(404);
    const anonymous = clientFor(s);
    expect((await refusal(anonymous.user.getAuthenticatedUser())).code).toBe(401);
  });
});
