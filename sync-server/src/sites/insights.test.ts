import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Answer, TestUser } from '../testing/harness';
import { LiveServer } from '../testing/syncClients';
import { writePages } from '../testing/testContent';

/**
 * What a published site records of its readers: counted by the server as it answers (no
 * script needed), nothing under GPC or DNT, no cookie, no address or user agent kept, and
 * "Was this page helpful?" without script.
 */

let s: LiveServer;
let orgId: string;
let admin: TestUser;
let siteId: string;
let root: string;
let welcomeId: string;
let installId: string;
let spaceId: string;

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

beforeAll(async () => {
  s = await LiveServer.start();
  const org = await s.t.org();
  orgId = org.orgId;
  admin = org.admin;
  spaceId = (await s.t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Guides' })).body.id;
  [welcomeId, installId] = (await writePages(s.db, spaceId, [
    { title: 'Welcome', markdown: 'Start here.\n\nSee [GitHub](https://github.com/acme).\n' },
    { title: 'Install', markdown: 'Run the installer.\n' },
  ])) as [string, string];
  const site = await s.t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Acme Docs', spaces: [spaceId] });
  siteId = site.body.id;
  await s.t.post(`/v1/orgs/${orgId}/sites/${siteId}/publish`, admin.token);
  root = `/s/${orgId}/${site.body.basename}`;
});
afterAll(async () => s?.close());

beforeEach(async () => {
  await s.t.flushInsights();
  await s.db.query('DELETE FROM insights_events');
});

const visit = (path: string, headers: Record<string, string> = {}) =>
  s.t.request('GET', `${root}${path}`, { headers: { 'user-agent': FIREFOX, ...headers } });

async function recorded(): Promise<Record<string, any>[]> {
  await s.t.flushInsights();
  return s.db.query('SELECT * FROM insights_events WHERE site_id = $1 ORDER BY id', [siteId]);
}

describe('counted by the server as it answers', () => {
  it('a page view of an HTML page, cached or not, with no script run', async () => {
    expect((await visit('/install')).status).toBe(200);
    expect((await visit('/install')).status).toBe(200);
    expect((await visit('/', { referer: 'https://news.example/item?id=7' })).status).toBe(200);
    const rows = await recorded();
    expect(rows.map((r) => [r.type, r.url_path, r.page_id, r.space_id])).toEqual([
      ['page_view', `${root}/install`, installId, spaceId],
      ['page_view', `${root}/install`, installId, spaceId],
      ['page_view', `${root}/`, welcomeId, spaceId],
    ]);
    expect(rows[0]).toMatchObject({ display_context: 'site', browser: 'firefox', os: 'linux', device: 'desktop', bot: '' });
    expect(rows[2]).toMatchObject({ referrer: 'https://news.example/item', referrer_domain: 'news.example' });
    // One visitor, one session: the same address and browser within minutes.
    expect(new Set(rows.map((r) => r.visitor)).size).toBe(1);
    expect(new Set(rows.map((r) => r.session)).size).toBe(1);
  });

  it('a URL that is no page as a page view whose page is null', async () => {
    expect((await visit('/no/such/page')).status).toBe(404);
    const [row] = await recorded();
    expect(row).toMatchObject({ type: 'page_view', url_path: `${root}/no/such/page`, page_id: null });
  });

  it('markdown, llms.txt, llms-full.txt and MCP requests, and robots by their user agent', async () => {
    const bot = { 'user-agent': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)' };
    expect((await visit('/install.md', bot)).status).toBe(200);
    expect((await visit('/llms.txt', bot)).status).toBe(200);
    expect((await visit('/llms-full.txt', { 'user-agent': 'curl/8.5.0' })).status).toBe(200);
    const mcp = await s.t.request('POST', `${root}/~mcp`, {
      headers: { accept: 'application/json, text/event-stream', 'user-agent': 'claude-code/1.0.0' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
    });
    expect(mcp.status).toBe(200);
    const rows = await recorded();
    expect(rows.map((r) => [r.type, r.display_context, r.llms_variant, r.page_id, r.bot])).toEqual([
      ['page_markdown_request', 'server', null, installId, 'gptbot'],
      ['llms_request', 'server', 'standard', null, 'gptbot'],
      ['llms_request', 'server', 'full', null, 'unknown'],
      ['mcp_request', 'mcp', null, null, 'claude-code'],
    ]);
  });

  it('a search typed on the search page, with how many results it found', async () => {
    expect((await visit('/~search?q=zeppelin')).status).toBe(200);
    expect((await visit('/~search?q=installer')).status).toBe(200);
    const rows = await recorded();
    expect(rows.map((r) => [r.type, r.search_query, r.search_results])).toEqual([
      ['search_type_query', 'zeppelin', 0],
      ['search_type_query', 'installer', 1],
    ]);
  });

  it('stores nothing for a visitor whose browser sends Global Privacy Control or Do Not Track', async () => {
    expect((await visit('/install', { 'sec-gpc': '1' })).status).toBe(200);
    expect((await visit('/install', { dnt: '1' })).status).toBe(200);
    expect((await visit('/nowhere', { dnt: '1' })).status).toBe(404);
    expect((await visit('/llms.txt', { 'sec-gpc': '1' })).status).toBe(200);
    const form = await s.t.request('POST', `${root}/~feedback`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-gpc': '1' },
      raw: 'page=%2Finstall&rating=good',
    });
    expect(form.status).toBe(303);
    expect(await recorded()).toEqual([]);
    // The same visits without the signal are counted.
    expect((await visit('/install', { 'sec-gpc': '0' })).status).toBe(200);
    expect(await recorded()).toHaveLength(1);
  });

  it('sets no cookie on any answer of a site', async () => {
    const answers: Answer[] = [
      await visit('/'),
      await visit('/install'),
      await visit('/install.md'),
      await visit('/llms.txt'),
      await visit('/~privacy'),
      await visit('/~search?q=install'),
      await visit('/missing'),
      await s.t.request('POST', `${root}/~feedback`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        raw: 'page=%2Finstall&rating=ok',
      }),
      await s.t.request('POST', `${root}/~insights`, {
        body: { page: '/install', events: [{ type: 'page_post_feedback', rating: 'ok' }] },
      }),
    ];
    for (const a of answers) expect(a.headers.get('set-cookie')).toBeNull();
  });
});

describe('"Was this page helpful?"', () => {
  it('ends every page with the three faces, a comment box and a form that needs no script', async () => {
    const html = (await visit('/install')).body as string;
    expect(html).toContain(`<form class="feedback" id="feedback" method="post" action="${root}/~feedback">`);
    expect(html).toContain('<input type="hidden" name="page" value="/install">');
    for (const rating of ['bad', 'ok', 'good']) expect(html).toContain(`name="rating" value="${rating}"`);
    expect(html).toContain('<textarea name="comment" maxlength="512"');
    // The script that sends it in place, from the site itself (the CSP's script-src 'self').
    const script = /<script src="([^"]+\/~assets\/insights\.[0-9a-f]+\.js)" defer><\/script>/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await s.t.request('GET', script as string);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    // Small: under 2 KB once compressed.
    expect(gzipSync(asset.body as string).byteLength).toBeLessThan(2048);
  });

  it('a posted form stores the rating and its comment, and sends the reader back to the page, thanked', async () => {
    const res = await s.t.request('POST', `${root}/~feedback`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': FIREFOX },
      raw: new URLSearchParams({ page: '/install', rating: 'bad', comment: 'Which version?' }).toString(),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root}/install#feedback-thanks`);
    const rows = await recorded();
    expect(rows.map((r) => [r.type, r.page_id, r.feedback_rating, r.feedback_comment])).toEqual([
      ['page_post_feedback', installId, 'bad', null],
      ['page_post_feedback_comment', installId, 'bad', 'Which version?'],
    ]);
  });

  it('a form without a rating stores nothing and goes back to the form', async () => {
    const res = await s.t.request('POST', `${root}/~feedback`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: 'page=%2Finstall&rating=amazing',
    });
    expect(res.headers.get('location')).toBe(`${root}/install#feedback`);
    expect(await recorded()).toEqual([]);
  });

  it('is gone, and refused, once the site turns feedback off', async () => {
    const other = await s.t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Quiet Docs', spaces: [spaceId] });
    await s.t.put(`/v1/orgs/${orgId}/sites/${other.body.id}/customization`, admin.token, { favicon: {}, feedback: { enabled: false } });
    await s.t.post(`/v1/orgs/${orgId}/sites/${other.body.id}/publish`, admin.token);
    const quiet = `/s/${orgId}/${other.body.basename}`;
    const html = (await s.t.request('GET', `${quiet}/install`)).body as string;
    expect(html).toContain('Run the installer.');
    expect(html).not.toContain('class="feedback"');
    await s.t.request('POST', `${quiet}/~feedback`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: 'page=%2Finstall&rating=good',
    });
    await s.t.flushInsights();
    expect(await s.db.query("SELECT * FROM insights_events WHERE site_id = $1 AND type LIKE 'page_post%'", [other.body.id])).toEqual([]);
  });
});

describe("the site's script reports", () => {
  it('searches typed, results opened, links followed and ratings, at the site itself', async () => {
    const res = await s.t.request('POST', `${root}/~insights`, {
      headers: { 'user-agent': FIREFOX },
      body: {
        page: '/',
        events: [
          { type: 'search_type_query', query: 'flux capacitor', results: 0 },
          { type: 'search_open_result', query: 'install', url: `${root}/install` },
          { type: 'link_click', href: 'https://github.com/acme', position: 'content' },
          { type: 'link_click', href: `http://quire.test${root}/install`, position: 'sidebar' },
          { type: 'page_post_feedback', rating: 'good' },
        ],
      },
    });
    expect(res.status).toBe(204);
    const rows = await recorded();
    expect(rows.map((r) => r.type)).toEqual(['search_type_query', 'search_open_result', 'link_click', 'link_click', 'page_post_feedback']);
    expect(rows[0]).toMatchObject({ search_query: 'flux capacitor', search_results: 0, page_id: welcomeId });
    expect(rows[1]).toMatchObject({ search_query: 'install', data: { result: { spaceId, pageId: installId } } });
    expect(rows[2]).toMatchObject({
      link_kind: 'url',
      link_domain: 'github.com',
      link_position: 'content',
      link_target: { kind: 'url', url: 'https://github.com/acme' },
    });
    expect(rows[3]).toMatchObject({
      link_kind: 'page',
      link_target: { kind: 'page', page: installId, space: spaceId },
      link_position: 'sidebar',
    });
    expect(rows[4]).toMatchObject({ feedback_rating: 'good', page_id: welcomeId });
  });

  it('refuses a malformed report, naming the field, and stores none of it', async () => {
    const res = await s.t.request('POST', `${root}/~insights`, {
      body: {
        page: '/',
        events: [
          { type: 'page_post_feedback', rating: 'good' },
          { type: 'link_click', href: 'x' },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Invalid body field "events\.1\.position": /);
    const form = await s.t.request('POST', `${root}/~insights`, {
      raw: JSON.stringify({ page: '/', events: [{ type: 'page_post_feedback', rating: 'good' }] }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(form.status).toBe(415);
    const big = await s.t.request('POST', `${root}/~insights`, {
      raw: JSON.stringify({ page: '/', pad: 'x'.repeat(10_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(big.status).toBe(413);
    expect(await recorded()).toEqual([]);
  });
});

describe('privacy', () => {
  it('tells readers what is recorded on a page linked from every footer', async () => {
    const page = (await visit('/install')).body as string;
    expect(page).toContain(`<a class="privacy-link" href="${root}/~privacy">Privacy</a>`);
    const privacy = await visit('/~privacy');
    expect(privacy.status).toBe(200);
    expect(privacy.body).toContain('No cookie and no local storage');
    expect(privacy.body).toContain('Sec-GPC: 1');
    expect(await recorded()).toHaveLength(1);
  });

  it('keeps neither the address nor the user agent of a visitor: the tables hold neither after visits', async () => {
    // A distinctive loopback address (the server trusts no forwarding header, so the socket's is the one used).
    const address = '127.83.41.207';
    const agent =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/127.0.6533.88 Safari/537.36 Distinctive/42.7';
    const get = (path: string, method = 'GET', body?: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: s.running.port,
            localAddress: address,
            path: `${root}${path}`,
            method,
            headers: {
              'user-agent': agent,
              'x-forwarded-for': '192.0.2.250',
              ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    expect(await get('/install')).toBe(200);
    expect(await get('/missing')).toBe(404);
    expect(await get('/llms.txt')).toBe(200);
    expect(await get('/~feedback', 'POST', 'page=%2Finstall&rating=good&comment=fine')).toBe(303);
    const rows = await recorded();
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatchObject({ browser: 'chrome', os: 'windows', device: 'desktop' });
    const dump = JSON.stringify([
      ...(await s.db.query('SELECT * FROM insights_events')),
      ...(await s.db.query("SELECT day::text, encode(salt, 'hex') AS salt FROM insights_salts")),
    ]);
    expect(dump).not.toContain(address);
    expect(dump).not.toContain('192.0.2.250');
    expect(dump).not.toContain(agent);
    expect(dump).not.toContain('Distinctive');
    // Only today's salt is held.
    expect(await s.db.query('SELECT day FROM insights_salts')).toHaveLength(1);
  });
});
