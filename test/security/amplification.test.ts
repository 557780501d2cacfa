import { SyncClose, SyncCloseReason, spaceRoom } from '@quire/shared/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient } from '../../sync-server/src/testing/syncClients';
import { World } from './world';

/**
 * One request, or one credential, doing the work of many: a JSON-RPC batch that starts a
 * hundred tool calls counted once by the rate limits, a sync ticket that opens any number of
 * connections within its minute.
 */
let w: World;
let space: string;
let siteMcp: string;

const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

function mcp(path: string, message: unknown, opts: { token?: string; chunked?: boolean } = {}) {
  const headers: Record<string, string> = { ...MCP_HEADERS };
  if (opts.chunked) headers['transfer-encoding'] = 'chunked';
  return w.request('POST', path, { token: opts.token, raw: JSON.stringify(message), headers });
}

const changeRequests = async () => (await w.get(`/v1/spaces/${space}/change-requests`, w.a.admin.token)).body.count as number;

beforeAll(async () => {
  w = await World.start();
  space = await w.space(w.a, 'Handbook');
  const page = await mcp('/v1/mcp', call(1, 'propose_edit', { spaceId: space, title: 'Welcome', markdown: 'Hello.\n', target: 'main' }), {
    token: w.a.admin.token,
  });
  expect(page.status, page.text).toBe(200);
  expect(page.body.result.isError, page.text).toBeFalsy();
  const site = await w.post(`/v1/orgs/${w.a.orgId}/sites`, w.a.admin.token, { title: 'Handbook', spaces: [space], visibility: 'public' });
  expect(site.status, site.text).toBe(200);
  expect((await w.post(`/v1/orgs/${w.a.orgId}/sites/${site.body.id}/publish`, w.a.admin.token)).status).toBe(200);
  siteMcp = `/s/${w.a.orgId}/${site.body.basename}/~mcp`;
});
afterAll(async () => w?.stop());

describe('JSON-RPC batches', () => {
  it('are refused by /v1/mcp before any call in them runs', async () => {
    const before = await changeRequests();
    const batch = Array.from({ length: 100 }, (_, i) =>
      call(i + 1, 'propose_edit', { spaceId: space, title: `Spam ${i}`, markdown: 'Spam.\n' }),
    );
    const res = await mcp('/v1/mcp', batch, { token: w.a.writer.token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/batch/) } });
    expect(await changeRequests()).toBe(before);
    // A batch of one is a batch too.
    expect((await mcp('/v1/mcp', batch.slice(0, 1), { token: w.a.writer.token })).status).toBe(400);
    expect(await changeRequests()).toBe(before);

    // One message per request is answered as ever.
    const one = await mcp('/v1/mcp', batch[0], { token: w.a.writer.token });
    expect(one.status, one.text).toBe(200);
    expect(one.body.result.isError, one.text).toBeFalsy();
    expect(await changeRequests()).toBe(before + 1);
  });

  it("are refused by a site's ~mcp, whether the body declares its length or comes in chunks", async () => {
    const batch = Array.from({ length: 100 }, (_, i) => call(i + 1, i % 2 ? 'search_site' : 'list_pages', i % 2 ? { query: 'hello' } : {}));
    for (const chunked of [false, true]) {
      const res = await mcp(siteMcp, batch, { chunked });
      expect(res.status, `chunked: ${chunked}`).toBe(400);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      const one = await mcp(siteMcp, batch[0], { chunked });
      expect(one.status, `chunked: ${chunked}`).toBe(200);
      expect(one.body.result.structuredContent.sections[0].variants[0].pages[0].title).toBe('Welcome');
    }
  });
});

describe('sync tickets', () => {
  const ticket = async (token: string) => {
    const res = await w.post('/v1/sync/tickets', token, { room: spaceRoom(space) });
    expect(res.status, res.text).toBe(201);
    return res.body.ticket as string;
  };
  const connect = (base: string, t: string) => rawClient(`${base.replace(/^http/, 'ws')}/v1/sync/${spaceRoom(space)}?token=${t}`);
  /** The connection was let in: the server sent it the document. */
  const opened = async (client: Awaited<ReturnType<typeof connect>>) => {
    for (let i = 0; i < 100 && client.messages.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    return client.messages.length > 0;
  };

  it('open one connection each: a second upgrade with the same ticket is refused before any data', async () => {
    const t = await ticket(w.a.writer.token);
    const first = await connect(w.url, t);
    expect(await opened(first)).toBe(true);
    for (let i = 0; i < 3; i++) {
      const again = await connect(w.url, t);
      expect(await again.closed).toEqual({ code: SyncClose.unauthenticated, reason: SyncCloseReason.ticketUsed });
      expect(again.messages).toEqual([]);
    }
    // Closing the first connection gives the ticket nothing back.
    first.ws.close();
    await first.closed;
    expect(await (await connect(w.url, t)).closed).toEqual({ code: SyncClose.unauthenticated, reason: SyncCloseReason.ticketUsed });
    // A new ticket opens a new connection.
    const next = await connect(w.url, await ticket(w.a.writer.token));
    expect(await opened(next)).toBe(true);
    next.ws.close();
  });

  // The embedded database serves one process: there is no other instance to ask.
  it.runIf(!!process.env.DATABASE_URL)('are spent for every instance sharing the database', async () => {
    const other = await w.anotherInstance();
    if (!other) throw new Error('no second instance');
    const t = await ticket(w.a.writer.token);
    const onOther = await connect(other.url, t);
    expect(await opened(onOther)).toBe(true);
    const here = await connect(w.url, t);
    expect(await here.closed).toEqual({ code: SyncClose.unauthenticated, reason: SyncCloseReason.ticketUsed });
    expect(here.messages).toEqual([]);
    onOther.ws.close();
  });
});
