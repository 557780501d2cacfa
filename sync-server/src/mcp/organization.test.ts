import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer, type TestUser } from '../testing/harness';
import { call, listen, mcpClient } from '../testing/mcpClients';
import { writePages } from '../testing/testContent';

let t: TestServer;
let http: Awaited<ReturnType<typeof listen>>;
let orgId: string;
let admin: TestUser;
let editor: TestUser;
let reviewer: TestUser;
let reader: TestUser;
let spaceId: string;
let pageId: string;
const clients: Client[] = [];

async function as(user: TestUser) {
  const client = await mcpClient(`${http.base}/v1/mcp`, { authorization: `Bearer ${user.token}` });
  clients.push(client);
  return client;
}

const mainMarkdown = async (page = pageId) =>
  (await t.get(`/v1/spaces/${spaceId}/content/page/${page}?format=markdown`, admin.token)).body.markdown as string;

beforeAll(async () => {
  t = await TestServer.start();
  http = await listen(t.app.fetch);
  const org = await t.org(['edit', 'review', 'read']);
  orgId = org.orgId;
  admin = org.admin;
  [editor, reviewer, reader] = org.members as [TestUser, TestUser, TestUser];
  spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Handbook' })).body.id;
  [pageId] = (await writePages(t.db, spaceId, [
    { title: 'Onboarding', markdown: 'Welcome aboard the zeppelin.\n\n## First day\n\nMeet the crew.\n' },
    { title: 'Policies', markdown: 'Be kind.\n' },
  ])) as [string];
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await http?.close();
  await t?.close();
});

describe('organization MCP server (/v1/mcp)', () => {
  it('needs an API token', async () => {
    await expect(mcpClient(`${http.base}/v1/mcp`)).rejects.toThrow(/401/);
    await expect(mcpClient(`${http.base}/v1/mcp`, { authorization: 'Bearer nope' })).rejects.toThrow(/401/);
  });

  it('lists its tools with their argument schemas and which ones only read', async () => {
    const { tools } = await (await as(reader)).listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(
      [
        'list_change_requests',
        'list_comments',
        'list_organizations',
        'list_pages',
        'list_spaces',
        'merge_change_request',
        'post_comment',
        'propose_edit',
        'read_page',
        'reply_to_comment',
        'review_change_request',
        'search',
        'search_space',
      ].sort(),
    );
    const read = tools.find((x) => x.name === 'read_page');
    expect(read?.annotations?.readOnlyHint).toBe(true);
    expect(read?.inputSchema.required).toEqual(expect.arrayContaining(['spaceId', 'pageId']));
    expect(tools.find((x) => x.name === 'propose_edit')?.annotations?.readOnlyHint).toBe(false);
    expect(tools.find((x) => x.name === 'list_spaces')?.inputSchema.properties?.limit).toMatchObject({ type: 'integer', maximum: 1000 });
  });

  it('lists organizations and spaces, searches and reads pages as /v1 answers them', async () => {
    const client = await as(reader);
    const orgs = await call(client, 'list_organizations');
    expect(orgs.json.items.map((o: { id: string }) => o.id)).toEqual([orgId]);
    const spaces = await call(client, 'list_spaces', { organizationId: orgId, limit: 10 });
    expect(spaces.json).toEqual((await t.get(`/v1/orgs/${orgId}/spaces?limit=10`, reader.token)).body);

    const found = await call(client, 'search', { organizationId: orgId, query: 'zeppelin' });
    expect(found.json.items[0]).toMatchObject({ id: spaceId, pages: [{ id: pageId, title: 'Onboarding' }] });
    const inSpace = await call(client, 'search_space', { spaceId, query: 'crew' });
    expect(inSpace.json.items.map((p: { id: string }) => p.id)).toEqual([pageId]);

    const tree = await call(client, 'list_pages', { spaceId });
    expect(tree.json.pages.map((p: { title: string }) => p.title)).toEqual(['Onboarding', 'Policies']);
    const page = await call(client, 'read_page', { spaceId, pageId });
    expect(page.isError).toBe(false);
    expect(page.text).toBe(await mainMarkdown());
    expect(page.text).toContain('## First day');
  });

  it('refuses bad arguments with the message /v1 gives, naming the field', async () => {
    const client = await as(reader);
    expect(await call(client, 'read_page', { pageId })).toMatchObject({ isError: true, text: 'Missing argument field "spaceId".' });
    expect(await call(client, 'read_page', { spaceId, pageId, bogus: 1 })).toMatchObject({
      isError: true,
      text: 'Unknown argument field: "bogus".',
    });
    expect(await call(client, 'list_spaces', { organizationId: orgId, limit: 0 })).toMatchObject({
      isError: true,
      text: 'Invalid argument field "limit": must be at least 1.',
    });
    expect((await call(client, 'read_page', { spaceId: 'bad id!', pageId })).text).toMatch(
      /^Invalid argument field "spaceId": must be an id/,
    );
  });

  it('writes a proposed edit into a new change request, leaving main as it was', async () => {
    const client = await as(editor);
    const before = await mainMarkdown();
    const edit = await call(client, 'propose_edit', { spaceId, pageId, markdown: 'Welcome aboard the airship.\n', subject: 'Airship' });
    expect(edit.isError).toBe(false);
    expect(edit.json).toMatchObject({ target: 'change-request', pageId, changeRequest: { object: 'change-request', subject: 'Airship' } });
    const crId = edit.json.changeRequest.id as string;
    expect(await mainMarkdown()).toBe(before);
    expect((await call(client, 'read_page', { spaceId, pageId, changeRequestId: crId })).text).toBe('Welcome aboard the airship.\n');

    // A second edit goes into the same change request when it is named; a new page too.
    const added = await call(client, 'propose_edit', { spaceId, changeRequestId: crId, title: 'Travel', markdown: 'Pack light.\n' });
    expect(added.json.changeRequest.id).toBe(crId);
    const crTree = await call(client, 'list_pages', { spaceId, changeRequestId: crId });
    expect(crTree.json.pages.map((p: { title: string }) => p.title)).toEqual(['Onboarding', 'Policies', 'Travel']);
    expect((await call(client, 'list_pages', { spaceId })).json.pages).toHaveLength(2);

    const listed = await call(client, 'list_change_requests', { organizationId: orgId });
    expect(listed.json.items.map((c: { id: string }) => c.id)).toEqual([crId]);
    expect((await call(client, 'list_change_requests', { spaceId })).json.items.map((c: { id: string }) => c.id)).toEqual([crId]);

    // Reviewed and merged by a reviewer: main then shows the edit.
    const rev = await as(reviewer);
    const review = await call(rev, 'review_change_request', {
      spaceId,
      changeRequestId: crId,
      status: 'approved',
      comment: { markdown: 'Nice' },
    });
    expect(review.json).toMatchObject({ object: 'change-request-review', status: 'approved', reviewer: { id: reviewer.id } });
    const merged = await call(rev, 'merge_change_request', { spaceId, changeRequestId: crId });
    expect(merged.json).toMatchObject({ result: 'merge' });
    expect(await mainMarkdown()).toBe('Welcome aboard the airship.\n');
    expect((await call(rev, 'propose_edit', { spaceId, changeRequestId: crId, pageId, markdown: 'Late.\n' })).text).toBe(
      'The change request is merged: its content cannot change any more.',
    );
  });

  it('writes to main only when asked, and only for a caller who may', async () => {
    const client = await as(editor);
    const crCount = async () => (await t.get(`/v1/spaces/${spaceId}/change-requests`, admin.token)).body.count as number;
    const count = await crCount();
    const direct = await call(client, 'propose_edit', { spaceId, pageId, markdown: 'Straight to main.\n', target: 'main' });
    expect(direct.json).toMatchObject({ target: 'main', pageId });
    expect(direct.json.changeRequest).toBeUndefined();
    expect(await mainMarkdown()).toBe('Straight to main.\n');
    expect(await crCount()).toBe(count);

    await t.patch(`/v1/spaces/${spaceId}`, admin.token, { editMode: 'locked' });
    const locked = await call(client, 'propose_edit', { spaceId, pageId, markdown: 'No.\n', target: 'main' });
    expect(locked).toMatchObject({ isError: true, text: 'The space is locked: its content cannot be changed until it is live again.' });
    await t.patch(`/v1/spaces/${spaceId}`, admin.token, { editMode: 'live' });
    expect(await mainMarkdown()).toBe('Straight to main.\n');
  });

  it('refuses a reader every write, and the write changes nothing', async () => {
    const client = await as(reader);
    const before = (await t.get(`/v1/spaces/${spaceId}/change-requests`, admin.token)).body.count;
    const edit = await call(client, 'propose_edit', { spaceId, pageId, markdown: 'Vandalism.\n' });
    expect(edit).toMatchObject({ isError: true, text: 'This needs the edit role on the space.' });
    expect((await call(client, 'propose_edit', { spaceId, pageId, markdown: 'x', target: 'main' })).text).toBe(
      'This needs the edit role on the space.',
    );
    expect((await t.get(`/v1/spaces/${spaceId}/change-requests`, admin.token)).body.count).toBe(before);
    expect(await mainMarkdown()).toBe('Straight to main.\n');

    const cr = (await t.post(`/v1/spaces/${spaceId}/change-requests`, editor.token, { subject: 'Open' })).body.id as string;
    expect((await call(client, 'merge_change_request', { spaceId, changeRequestId: cr })).text).toBe(
      'This needs the review role on the space.',
    );
    expect((await call(client, 'review_change_request', { spaceId, changeRequestId: cr, status: 'approved' })).text).toBe(
      'This needs the review role on the space, or a review request.',
    );
    expect((await call(client, 'post_comment', { spaceId, body: { markdown: 'hi' } })).text).toBe(
      'This needs the comment role on the space to comment.',
    );
  });

  it('reads and posts comments on main and on change requests', async () => {
    const client = await as(editor);
    const posted = await call(client, 'post_comment', { spaceId, page: pageId, body: { markdown: 'Is this current?' } });
    expect(posted.json).toMatchObject({ object: 'comment', body: { markdown: 'Is this current?' } });
    const reply = await call(await as(reviewer), 'reply_to_comment', { spaceId, commentId: posted.json.id, body: { markdown: 'Yes.' } });
    expect(reply.json).toMatchObject({ object: 'comment-reply' });
    const listed = await call(await as(reader), 'list_comments', { spaceId, limit: 5 });
    expect(listed.json.items.map((c: { id: string }) => c.id)).toEqual([posted.json.id]);
    expect(listed.json).toEqual((await t.get(`/v1/spaces/${spaceId}/comments?limit=5`, reader.token)).body);

    const cr = (await t.post(`/v1/spaces/${spaceId}/change-requests`, editor.token, {})).body.id as string;
    await call(client, 'post_comment', { spaceId, changeRequestId: cr, body: { markdown: 'On the change request' } });
    const onCr = await call(client, 'list_comments', { spaceId, changeRequestId: cr });
    expect(onCr.json.items.map((c: { body: { markdown: string } }) => c.body.markdown)).toEqual(['On the change request']);
  });

  it("answers another organization's ids as unknown, exactly as /v1 does", async () => {
    const other = await t.org();
    const client = await as(other.admin);
    expect((await call(client, 'read_page', { spaceId, pageId })).text).toBe('No matching space found.');
    expect((await call(client, 'list_spaces', { organizationId: orgId })).text).toBe('No matching organization found.');
    expect((await call(client, 'search', { organizationId: orgId, query: 'zeppelin' })).text).toBe('No matching organization found.');
    expect((await call(client, 'propose_edit', { spaceId, pageId, markdown: 'x' })).text).toBe('No matching space found.');
    expect((await call(client, 'list_comments', { spaceId })).text).toBe('No matching space found.');
    expect((await call(client, 'list_organizations')).json.items.map((o: { id: string }) => o.id)).toEqual([other.orgId]);
  });
});
