import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer, type TestUser } from '../testing/harness';
import { call, listen, mcpClient } from '../testing/mcpClients';
import { rewritePage, writePages } from '../testing/testContent';
import { siteAnswerStats } from './site';

let t: TestServer;
let http: Awaited<ReturnType<typeof listen>>;
let orgId: string;
let admin: TestUser;
let guides: string;
let guidesV2: string;
let api: string;
const clients: Client[] = [];

interface PublishedSite {
  id: string;
  root: string;
  shareKey: string;
  key: Uint8Array;
}

async function open(url: string, headers: Record<string, string> = {}) {
  const client = await mcpClient(url, headers);
  clients.push(client);
  return client;
}

/** A published site of the guides (v1 and v2 as variants) and a "Pro API" section only `plan: pro` visitors see. */
async function publishSite(title: string, visibility: string): Promise<PublishedSite> {
  const created = await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title, spaces: [guides], visibility });
  const base = `/v1/orgs/${orgId}/sites/${created.body.id}`;
  await t.post(`${base}/site-spaces`, admin.token, { spaceId: guidesV2 });
  const ss = (await t.get(`${base}/site-spaces`, admin.token)).body.items;
  const v2 = ss.find((x: { space: { id: string } }) => x.space.id === guidesV2).id;
  await t.patch(`${base}/site-spaces/${v2}`, admin.token, { path: 'v2' });
  const pro = await t.post(`${base}/sections`, admin.token, { spaceId: api, title: 'Pro API' });
  await t.patch(`${base}/sections/${pro.body.id}`, admin.token, { condition: 'visitor.claims.plan == "pro"' });
  await t.patch(base, admin.token, { adaptiveContent: { enabled: true } });
  await t.put(`${base}/adaptive-schema`, admin.token, { jsonSchema: { type: 'object', properties: { plan: { type: 'string' } } } });
  await t.post(`${base}/publish`, admin.token);
  const site = (await t.get(base, admin.token)).body;
  return {
    id: site.id,
    root: `/s/${orgId}/${site.basename}`,
    shareKey: site.shareKey,
    key: new TextEncoder().encode(site.visitorAuth.signingKey),
  };
}

const visitorToken = (site: PublishedSite, claims: Record<string, unknown>, opts: { exp?: number; key?: Uint8Array } = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(site.id)
    .setExpirationTime(opts.exp ?? '1h')
    .sign(opts.key ?? site.key);

const bearer = async (site: PublishedSite, claims: Record<string, unknown>) => ({
  authorization: `Bearer ${await visitorToken(site, claims)}`,
});

const sectionTitles = async (client: Client) =>
  (await call(client, 'list_pages')).json.sections.map((s: { title: string }) => s.title) as string[];

let publicSite: PublishedSite;

beforeAll(async () => {
  t = await TestServer.start();
  http = await listen(t.app.fetch);
  const org = await t.org();
  orgId = org.orgId;
  admin = org.admin;
  const space = async (title: string) => (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title })).body.id as string;
  guides = await space('Guides v1');
  guidesV2 = await space('Guides v2');
  api = await space('API');
  await writePages(t.db, guides, [
    { title: 'Welcome', description: 'Start here', markdown: 'Quire keeps the zeppelin docs.\n\n## Install\n\nRun `npm install quire`.\n' },
    { title: 'Install guide', markdown: 'Download the zeppelin package.\n' },
    { title: 'Secret plans', hidden: true, markdown: 'hidden text\n' },
  ]);
  await writePages(t.db, guidesV2, [{ title: 'Welcome', markdown: 'Version two of the zeppelin guide.\n' }]);
  await writePages(t.db, api, [{ title: 'API overview', markdown: 'Send a bearer token.\n' }]);
  publicSite = await publishSite('Open docs', 'public');
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await http?.close();
  await t?.close();
});

describe('site MCP server (<site base>/~mcp)', () => {
  it('offers read-only tools to search, list and read', async () => {
    const client = await open(`${http.base}${publicSite.root}/~mcp`);
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(['list_pages', 'read_page', 'search_site']);
    expect(tools.every((x) => x.annotations?.readOnlyHint === true)).toBe(true);
    expect(client.getInstructions()).toContain('"Open docs"');
    expect((await fetch(`${http.base}${publicSite.root}/~mcp`)).status).toBe(405);
    const post = (body: string) =>
      fetch(`${http.base}${publicSite.root}/~mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });
    const malformed = await post('{not json');
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe(-32700);
    expect((await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70_000) } }))).status).toBe(413);
  });

  it('lists sections, variants and pages as the site shows them, and reads pages as the site serves them', async () => {
    const client = await open(`${http.base}${publicSite.root}/~mcp`);
    const list = (await call(client, 'list_pages')).json;
    expect(list.site).toBe('Open docs');
    expect(list.sections.map((s: { title: string }) => s.title)).toEqual(['Open docs']);
    const [v1, v2] = list.sections[0].variants;
    expect([v1.title, v2.title]).toEqual(['Guides v1', 'Guides v2']);
    expect(v1.pages.map((p: { title: string }) => p.title)).toEqual(['Welcome', 'Install guide']);
    expect(v1.pages[0]).toMatchObject({ description: 'Start here', markdownUrl: expect.stringMatching(/\/welcome\.md$/) });
    expect(v2.url).toMatch(new RegExp(`${publicSite.root}/v2/$`));

    const served = (await t.get(`${publicSite.root}/install-guide.md`)).body as string;
    for (const page of [
      v1.pages[1].url,
      v1.pages[1].markdownUrl,
      '/install-guide',
      'install-guide.md',
      `${publicSite.root}/install-guide`,
    ]) {
      expect((await call(client, 'read_page', { page })).text, page).toBe(served);
    }
    expect((await call(client, 'read_page', { page: v2.url })).text).toContain('Version two');
    expect((await call(client, 'read_page', { page: '/' })).text).toContain('# Welcome');
    expect(await call(client, 'read_page', { page: '/no-such-page' })).toMatchObject({ isError: true, text: 'No matching page found.' });
    expect(await call(client, 'read_page', {})).toMatchObject({ isError: true, text: 'Missing argument field "page".' });
  });

  it('searches the site and serves its pages as resources', async () => {
    const client = await open(`${http.base}${publicSite.root}/~mcp`);
    const found = (await call(client, 'search_site', { query: 'zeppelin package' })).json;
    expect(found.results[0]).toMatchObject({ title: 'Install guide', url: expect.stringMatching(/^http.*\/install-guide$/) });
    expect((await call(client, 'search_site', { query: 'hidden' })).json.results).toEqual([]);

    const { resources } = await client.listResources();
    expect(resources.map((r) => r.name)).toEqual(['Welcome', 'Install guide', 'Welcome']);
    const install = resources[1]!;
    expect(install.mimeType).toBe('text/markdown');
    const read = await client.readResource({ uri: install.uri });
    expect(read.contents[0]).toMatchObject({ uri: install.uri, text: (await t.get(`${publicSite.root}/install-guide.md`)).body });
    await expect(client.readResource({ uri: `${install.uri}x` })).rejects.toThrow(/No resource/);
  });

  it('evaluates adaptive content with the claims of the visitor token sent as Bearer', async () => {
    const anonymous = await open(`${http.base}${publicSite.root}/~mcp`);
    expect(await sectionTitles(anonymous)).toEqual(['Open docs']);
    expect((await call(anonymous, 'search_site', { query: 'bearer' })).json.results).toEqual([]);
    expect((await call(anonymous, 'read_page', { page: '/pro-api/' })).text).toBe('No matching page found.');

    const pro = await open(`${http.base}${publicSite.root}/~mcp`, await bearer(publicSite, { plan: 'pro' }));
    expect(await sectionTitles(pro)).toEqual(['Open docs', 'Pro API']);
    expect((await call(pro, 'read_page', { page: '/pro-api/' })).text).toContain('Send a bearer token.');
    expect((await call(pro, 'search_site', { query: 'bearer' })).json.results[0].section).toBe('Pro API');
    const free = await open(`${http.base}${publicSite.root}/~mcp`, await bearer(publicSite, { plan: 'free' }));
    expect(await sectionTitles(free)).toEqual(['Open docs']);
  });

  it('names the endpoint in llms.txt', async () => {
    const llms = (await t.get(`${publicSite.root}/llms.txt`)).body as string;
    expect(llms).toContain(`http://quire.test${publicSite.root}/~mcp`);
  });

  it('opens a share-link site only with its key', async () => {
    const site = await publishSite('Partner docs', 'share-link');
    const url = `${http.base}${site.root}/~mcp`;
    await expect(open(url)).rejects.toThrow(/404/);
    await expect(open(`${url}?shareKey=wrong`)).rejects.toThrow(/404/);
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(await res.text()).not.toContain('Partner');
    const client = await open(`${url}?shareKey=${site.shareKey}`);
    expect(await sectionTitles(client)).toEqual(['Partner docs']);
  });

  it('opens a visitor-auth site only with a valid visitor token', async () => {
    const site = await publishSite('Customer portal', 'visitor-auth');
    const url = `${http.base}${site.root}/~mcp`;
    await expect(open(url)).rejects.toThrow(/401/);
    const expired = await visitorToken(site, { plan: 'pro' }, { exp: Math.floor(Date.now() / 1000) - 60 });
    await expect(open(url, { authorization: `Bearer ${expired}` })).rejects.toThrow(/401/);
    const forged = await visitorToken(site, { plan: 'pro' }, { key: new TextEncoder().encode('not-the-site-key-at-all-0123456789') });
    await expect(open(url, { authorization: `Bearer ${forged}` })).rejects.toThrow(/401/);
    // Another site's token is for another audience.
    await expect(open(url, await bearer(publicSite, { plan: 'pro' }))).rejects.toThrow(/401/);

    const free = await open(url, await bearer(site, { plan: 'free' }));
    expect(await sectionTitles(free)).toEqual(['Customer portal']);
    const pro = await open(url, await bearer(site, { plan: 'pro' }));
    expect(await sectionTitles(pro)).toEqual(['Customer portal', 'Pro API']);
  });

  it('answers nothing for a site that keeps agents out', async () => {
    const site = await publishSite('Private notes', 'public');
    await t.patch(`/v1/orgs/${orgId}/sites/${site.id}`, admin.token, { agentsContext: 'excluded' });
    await expect(open(`${http.base}${site.root}/~mcp`)).rejects.toThrow(/404/);
  });
});

describe('kept answers of site tools', () => {
  const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  /** One `tools/call` POSTed as a stateless client sends it: status and exact text of the answer. */
  async function toolCall(url: string, id: number, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...HEADERS, ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
    });
    const text = await res.text();
    return { status: res.status, text, answer: res.status === 200 ? (JSON.parse(text).result.content[0].text as string) : undefined };
  }
  async function hits(run: () => Promise<unknown>): Promise<number> {
    const before = siteAnswerStats.hits;
    await run();
    return siteAnswerStats.hits - before;
  }

  it('answers a repeated call from kept bytes, the same as the SDK gave but for the id', async () => {
    const url = `${http.base}${publicSite.root}/~mcp`;
    const first = await toolCall(url, 1, 'read_page', { page: '/install-guide' });
    expect(first.answer).toBe((await t.get(`${publicSite.root}/install-guide.md`)).body);
    let again!: Awaited<ReturnType<typeof toolCall>>;
    expect(await hits(async () => (again = await toolCall(url, 22, 'read_page', { page: '/install-guide' })))).toBe(1);
    expect(again.text).toBe(first.text.replace(/"id":1}$/, '"id":22}'));
  });

  it('keeps apart what visitors with other claims or share keys see', async () => {
    const url = `${http.base}${publicSite.root}/~mcp`;
    const pro = await bearer(publicSite, { plan: 'pro' });
    expect((await toolCall(url, 1, 'read_page', { page: '/pro-api/' }, pro)).answer).toContain('Send a bearer token.');
    expect(await hits(() => toolCall(url, 2, 'read_page', { page: '/pro-api/' }, pro))).toBe(1);
    // Neither another plan nor no token at all gets the pro visitor's answer.
    for (const headers of [await bearer(publicSite, { plan: 'free' }), {}]) {
      let other!: Awaited<ReturnType<typeof toolCall>>;
      expect(await hits(async () => (other = await toolCall(url, 3, 'read_page', { page: '/pro-api/' }, headers)))).toBe(0);
      expect(JSON.parse(other.text).result).toMatchObject({ isError: true, content: [{ text: 'No matching page found.' }] });
    }

    const shared = await publishSite('Kept partner docs', 'share-link');
    const sharedUrl = `${http.base}${shared.root}/~mcp`;
    expect((await toolCall(`${sharedUrl}?shareKey=${shared.shareKey}`, 1, 'list_pages', {})).status).toBe(200);
    expect(await hits(() => toolCall(`${sharedUrl}?shareKey=${shared.shareKey}`, 2, 'list_pages', {}))).toBe(1);
    expect((await toolCall(sharedUrl, 3, 'list_pages', {})).status).toBe(404);
    expect((await toolCall(`${sharedUrl}?shareKey=wrong`, 4, 'list_pages', {})).status).toBe(404);

    const portal = await publishSite('Kept portal', 'visitor-auth');
    const portalUrl = `${http.base}${portal.root}/~mcp`;
    const visitor = await bearer(portal, { plan: 'free' });
    await toolCall(portalUrl, 1, 'list_pages', {}, visitor);
    expect(await hits(() => toolCall(portalUrl, 2, 'list_pages', {}, visitor))).toBe(1);
    const expired = await visitorToken(portal, { plan: 'free' }, { exp: Math.floor(Date.now() / 1000) - 60 });
    expect((await toolCall(portalUrl, 3, 'list_pages', {}, { authorization: `Bearer ${expired}` })).status).toBe(401);
  });

  it('on a restricted site, answers nobody from what another visitor was given', async () => {
    const portal = await publishSite('Restricted portal', 'visitor-auth');
    const portalUrl = `${http.base}${portal.root}/~mcp`;
    const pro = await bearer(portal, { plan: 'pro' });
    expect((await toolCall(portalUrl, 1, 'read_page', { page: '/pro-api/' }, pro)).answer).toContain('Send a bearer token.');
    expect(await hits(() => toolCall(portalUrl, 2, 'read_page', { page: '/pro-api/' }, pro))).toBe(1);
    const free = await toolCall(portalUrl, 3, 'read_page', { page: '/pro-api/' }, await bearer(portal, { plan: 'free' }));
    expect(JSON.parse(free.text).result).toMatchObject({ isError: true, content: [{ text: 'No matching page found.' }] });
    for (const headers of [{}, await bearer(publicSite, { plan: 'pro' })]) {
      const refused = await toolCall(portalUrl, 4, 'read_page', { page: '/pro-api/' }, headers);
      expect(refused.status).toBe(401);
      expect(refused.text).not.toContain('bearer token');
    }

    const partners = await publishSite('Restricted partners', 'share-link');
    const partnersUrl = `${http.base}${partners.root}/~mcp`;
    const withKey = `${partnersUrl}?shareKey=${partners.shareKey}`;
    expect((await toolCall(withKey, 1, 'read_page', { page: '/install-guide' })).answer).toContain('zeppelin package');
    expect(await hits(() => toolCall(withKey, 2, 'read_page', { page: '/install-guide' }))).toBe(1);
    for (const url of [partnersUrl, `${partnersUrl}?shareKey=wrong`, `${partnersUrl}?shareKey=${portal.shareKey}`]) {
      const refused = await toolCall(url, 3, 'read_page', { page: '/install-guide' });
      expect(refused.status, url).toBe(404);
      expect(refused.text, url).not.toContain('zeppelin');
    }
  });

  it('answers with what is published now: a new version shows on the next call', async () => {
    const site = await publishSite('Kept changing docs', 'public');
    const url = `${http.base}${site.root}/~mcp`;
    await toolCall(url, 1, 'read_page', { page: '/install-guide' });
    expect(await hits(() => toolCall(url, 2, 'read_page', { page: '/install-guide' }))).toBe(1);
    const pages = (await t.get(`/v1/spaces/${guides}/content/pages`, admin.token)).body.pages as { id: string; title: string }[];
    const install = pages.find((p) => p.title === 'Install guide')?.id as string;
    await rewritePage(t.db, guides, install, 'Download the airship package.\n');
    await t.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`, admin.token);
    expect((await toolCall(url, 3, 'read_page', { page: '/install-guide' })).answer).toContain('airship');
    await t.patch(`/v1/orgs/${orgId}/sites/${site.id}`, admin.token, { agentsContext: 'excluded' });
    expect((await toolCall(url, 4, 'read_page', { page: '/install-guide' })).status).toBe(404);
  });
});
