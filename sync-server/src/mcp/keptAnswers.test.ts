import { setPageMarkdown } from '@quire/shared/content/body';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelOf } from '../core/readModel/readModel';
import { TestServer, type TestUser } from '../testing/harness';
import { listen } from '../testing/mcpClients';
import type { Db } from '../store/db';
import { testAdapter } from '../testing/databases';
import { editLive } from '../testing/testEdits';
import { rewritePage, writePages } from '../testing/testContent';
import { revokeToken } from '../store/tokens';

let t: TestServer;
let http: Awaited<ReturnType<typeof listen>>;
let orgId: string;
let admin: TestUser;
let reader: TestUser;
let spaceId: string;
let pageId: string;

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

/** One POST to `/v1/mcp`, as a stateless client sends it; the answer's exact text. */
async function post(token: string, message: unknown, headers: Record<string, string> = HEADERS) {
  const res = await fetch(`${http.base}/v1/mcp`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: JSON.stringify(message),
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

const callMessage = (id: unknown, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

async function readPage(token: string, id: unknown = 1, args: Record<string, unknown> = { spaceId, pageId }) {
  const res = await post(token, callMessage(id, 'read_page', args));
  const message = JSON.parse(res.text);
  return { ...res, message, markdown: message.result?.content?.[0]?.text as string | undefined };
}

const model = () => readModelOf(t.db);
/** Counts the answers given from kept bytes while `run` runs. */
async function keptHits(run: () => Promise<unknown>): Promise<number> {
  const before = model().stats.responseHits;
  await run();
  return model().stats.responseHits - before;
}

beforeAll(async () => {
  t = await TestServer.start();
  await model().ready;
  http = await listen(t.app.fetch);
  const org = await t.org(['read']);
  orgId = org.orgId;
  admin = org.admin;
  reader = org.members[0] as TestUser;
  spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Handbook' })).body.id;
  [pageId] = (await writePages(t.db, spaceId, [{ title: 'Onboarding', markdown: 'Welcome aboard.\n' }])) as [string];
});
afterAll(async () => {
  await http?.close();
  await t?.close();
});

describe('kept answers of /v1/mcp read-only tools', () => {
  it('answers a repeated read from kept bytes: the SDK answer, but for the id', async () => {
    const first = await readPage(reader.token, 1);
    expect(first.markdown).toBe('Welcome aboard.\n');
    let again!: Awaited<ReturnType<typeof readPage>>;
    expect(await keptHits(async () => (again = await readPage(reader.token, 'second')))).toBe(1);
    expect(again.status).toBe(200);
    expect(again.type).toBe(first.type);
    expect(again.text).toBe(first.text.replace(/"id":1}$/, '"id":"second"}'));
    // The same arguments in another order are the same call.
    expect(await keptHits(() => readPage(reader.token, 7, { pageId, spaceId }))).toBe(1);

    const tree = callMessage(3, 'list_pages', { spaceId });
    const treeFirst = await post(reader.token, tree);
    let treeAgain!: Awaited<ReturnType<typeof post>>;
    expect(await keptHits(async () => (treeAgain = await post(reader.token, { ...tree, id: 4 })))).toBe(1);
    expect(treeAgain.text).toBe(treeFirst.text.replace(/"id":3}$/, '"id":4}'));
  });

  it('shows an edit on the very next read: merged over REST, or written live', async () => {
    await readPage(admin.token);
    expect(await keptHits(() => readPage(admin.token))).toBe(1);

    const proposed = JSON.parse(
      (await post(admin.token, callMessage(2, 'propose_edit', { spaceId, pageId, markdown: 'Merged words.\n' }))).text,
    );
    const crId = proposed.result.structuredContent.changeRequest.id as string;
    expect((await t.post(`/v1/spaces/${spaceId}/change-requests/${crId}/merge`, admin.token)).status).toBe(200);
    expect((await readPage(admin.token)).markdown).toBe('Merged words.\n');
    expect(await keptHits(() => readPage(admin.token))).toBe(1);

    await editLive(t.db, { spaceId }, (doc) => setPageMarkdown(doc, pageId, 'Typed live.\n'));
    expect((await readPage(admin.token)).markdown).toBe('Typed live.\n');
  });

  it('refuses a revoked token and a removed member on their next call', async () => {
    const gone = await t.member(orgId, 'read');
    await readPage(gone.token);
    expect(await keptHits(() => readPage(gone.token))).toBe(1);
    expect((await t.delete(`/v1/orgs/${orgId}/members/${gone.id}`, admin.token)).status).toBe(204);
    const refused = await readPage(gone.token);
    expect(refused.message.result).toMatchObject({ isError: true, content: [{ text: 'No matching space found.' }] });

    const revoked = await t.member(orgId, 'read');
    await readPage(revoked.token);
    expect(await keptHits(() => readPage(revoked.token))).toBe(1);
    await revokeToken(t.db, revoked.token);
    expect((await readPage(revoked.token)).status).toBe(401);
  });

  it("never answers a caller from another caller's kept answer: a stranger and another organization's admin get not found", async () => {
    const member = await t.member(orgId, 'read');
    const tree = (id: number) => callMessage(id, 'list_pages', { spaceId });
    const read = await readPage(member.token);
    expect(read.message.result.isError).toBeFalsy();
    const listed = await post(member.token, tree(1));
    expect(JSON.parse(listed.text).result.isError).toBeFalsy();
    expect(await keptHits(() => readPage(member.token))).toBe(1);
    expect(await keptHits(() => post(member.token, tree(2)))).toBe(1);

    const stranger = await t.user('stranger');
    const elsewhere = (await t.org()).admin;
    for (const [who, token] of [
      ['a user of no organization', stranger.token],
      ["another organization's admin", elsewhere.token],
    ] as const) {
      let refused!: Awaited<ReturnType<typeof readPage>>;
      expect(await keptHits(async () => (refused = await readPage(token))), who).toBe(0);
      expect(refused.message.result, who).toMatchObject({ isError: true, content: [{ text: 'No matching space found.' }] });
      let tree3!: Awaited<ReturnType<typeof post>>;
      expect(await keptHits(async () => (tree3 = await post(token, tree(3)))), who).toBe(0);
      expect(JSON.parse(tree3.text).result, who).toMatchObject({ isError: true, content: [{ text: 'No matching space found.' }] });
      // Asked twice, still nothing of the member's answer.
      expect((await readPage(token)).markdown, who).toBe('No matching space found.');
    }
  });

  it('leaves malformed messages and unusual headers to the SDK, and refuses batches', async () => {
    await readPage(reader.token);
    expect(await keptHits(() => readPage(reader.token))).toBe(1);
    const message = callMessage(5, 'read_page', { spaceId, pageId });

    // A batch, even of one, is refused before the SDK, and never answered from kept bytes.
    let batch!: Awaited<ReturnType<typeof post>>;
    expect(await keptHits(async () => (batch = await post(reader.token, [message])))).toBe(0);
    expect(batch.status).toBe(400);
    expect(JSON.parse(batch.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });

    const fractional = await post(reader.token, { ...message, id: 1.5 });
    expect(fractional.status).toBe(400);
    const extra = await post(reader.token, { ...message, params: { ...message.params, _meta: { progressToken: 1 } } });
    expect(JSON.parse(extra.text)).toMatchObject({ id: 5, result: { content: [{ type: 'text' }] } });
    const badVersion = await post(reader.token, message, { ...HEADERS, 'mcp-protocol-version': '1999-01-01' });
    expect(badVersion.status).toBe(400);
    const noStream = await post(reader.token, message, { ...HEADERS, accept: 'application/json' });
    expect(noStream.status).toBe(406);
    expect(await keptHits(() => post(reader.token, { ...message, jsonrpc: '1.0' }))).toBe(0);
  });

  it('keeps no tool error and no write', async () => {
    await readPage(reader.token);
    expect(await keptHits(() => readPage(reader.token))).toBe(1);
    const missing = { spaceId, pageId: 'nosuchpage' };
    await readPage(reader.token, 1, missing);
    expect(await keptHits(() => readPage(reader.token, 1, missing))).toBe(0);
    const denied = callMessage(6, 'propose_edit', { spaceId, pageId, markdown: 'No.\n' });
    await post(reader.token, denied);
    expect(await keptHits(() => post(reader.token, denied))).toBe(0);
  });

  it.runIf(testAdapter() === 'postgres')('shows a write made through another instance on the next read', async () => {
    // Another instance: a handle of its own on the database, with its own read model.
    const otherDb = Object.create(t.db) as Db;
    await readModelOf(otherDb).ready;
    await readPage(reader.token);
    expect(await keptHits(() => readPage(reader.token))).toBe(1);
    await rewritePage(otherDb, spaceId, pageId, 'Written elsewhere.\n');
    expect((await readPage(reader.token)).markdown).toBe('Written elsewhere.\n');
  });
});
