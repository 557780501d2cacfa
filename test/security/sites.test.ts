import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDnsServer } from '../../sync-server/src/testing/dnsServer';
import { World } from './world';

/**
 * Published sites on a shared server: hostnames, redirects, the published structure and
 * the download links they hand out, attacked by organization B against organization A.
 */
const SERVER_HOST = 'quire-server.example.test';
const ADMIN_HOST = 'docs-admin.example.test';
const A_HOST = 'docs.a-corp.test';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

let w: World;
let dns: TestDnsServer;
let fixtures: Server;
let aSpace: string;
let aSite: { id: string; basename: string };
let bSite: { id: string; basename: string };

async function site(orgId: string, token: string, title: string, spaces: string[], visibility = 'public') {
  const created = await w.post(`/v1/orgs/${orgId}/sites`, token, { title, spaces, visibility });
  expect(created.status, created.text).toBe(200);
  expect((await w.post(`/v1/orgs/${orgId}/sites/${created.body.id}/publish`, token)).status).toBe(200);
  return created.body as { id: string; basename: string };
}

const atHost = (host: string, path: string) => w.get(path, undefined, { host });
/** A link the server handed out, asked of this server (PUBLIC_URL names a host the test cannot reach). */
const follow = (url: string) => w.get(new URL(url).pathname + new URL(url).search);

beforeAll(async () => {
  dns = await TestDnsServer.start();
  fixtures = createServer((req, res) => {
    if (req.url === '/plans.md') res.end('# Plans\n\nThe zeppelin launch.\n\n![Logo](logo.png)\n');
    else if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => fixtures.listen(0, '127.0.0.1', resolve));
  w = await World.start({
    PUBLIC_URL: `http://${SERVER_HOST}`,
    RESERVED_HOSTNAMES: ADMIN_HOST,
    HOSTNAME_DNS_SERVERS: dns.address,
    ALLOW_PRIVATE_FETCH: 'true',
    RATE_LIMIT_SITES_PER_ADDRESS: '150',
  });
  aSpace = await w.space(w.a);
  const origin = `http://127.0.0.1:${(fixtures.address() as AddressInfo).port}`;
  const imported = await w.post(`/v1/spaces/${aSpace}/content/import`, w.a.admin.token, { source: 'markdown', url: `${origin}/plans.md` });
  expect(imported.status, imported.text).toBe(201);
  aSite = await site(w.a.orgId, w.a.admin.token, 'A docs', [aSpace]);
  bSite = await site(w.b.orgId, w.b.admin.token, 'B docs', [await w.space(w.b, 'B public')]);
});
afterAll(async () => {
  await w?.stop();
  dns?.close();
  fixtures?.close();
});

describe('custom hostnames', () => {
  it("refuses the server's own hostnames to any site", async () => {
    for (const hostname of [SERVER_HOST, ADMIN_HOST]) {
      const res = await w.patch(`/v1/orgs/${w.b.orgId}/sites/${bSite.id}`, w.b.admin.token, { hostname });
      expect(res.status, hostname).toBe(400);
      expect(res.body.error.message).toMatch(/^Invalid body field "hostname"/);
    }
    // Whatever is stored, the server's own host is never routed to a site.
    expect((await atHost(SERVER_HOST, '/')).status).toBe(404);
  });

  it("serves a hostname only once its DNS names the site; a squatter's unproven claim gives way", async () => {
    const claimed = await w.patch(`/v1/orgs/${w.b.orgId}/sites/${bSite.id}`, w.b.admin.token, { hostname: A_HOST });
    expect(claimed.status).toBe(200);
    const squatted = await atHost(A_HOST, '/');
    expect(squatted.status).toBe(404);
    expect(squatted.text).not.toContain('B public');

    dns.prove(A_HOST, aSite.id);
    const proven = await w.patch(`/v1/orgs/${w.a.orgId}/sites/${aSite.id}`, w.a.admin.token, { hostname: A_HOST });
    expect(proven.status, proven.text).toBe(200);
    const served = await atHost(A_HOST, '/');
    expect(served.status).toBe(200);
    expect(served.text).toContain('zeppelin');
    expect((await w.get(`/v1/orgs/${w.b.orgId}/sites/${bSite.id}`, w.b.admin.token)).body.hostname).toBeUndefined();
  });

  it('never lets a site take /sso/, /v1/ or /files/, by path or by redirect', async () => {
    for (const path of ['/sso/saml/nobody', '/files/x/y/z', '/v1/orgs']) {
      const res = await atHost(A_HOST, path);
      expect(res.headers.get('content-type'), path).toMatch(/application\/json/);
      expect(res.body.error.code, path).toBeGreaterThanOrEqual(400);
    }
    for (const source of ['/sso/*', '/files/*', '/v1/orgs']) {
      const res = await w.post(`/v1/orgs/${w.a.orgId}/sites/${aSite.id}/redirects`, w.a.admin.token, {
        source,
        destination: { kind: 'external', url: 'https://evil.example/collect' },
      });
      expect(res.status, source).toBe(400);
      expect(res.body.error.message).toMatch(/^Invalid body field "source"/);
    }
  });

  it('never redirects to another host through a path starting with //', async () => {
    const siteSpaces = await w.get(`/v1/orgs/${w.a.orgId}/sites/${aSite.id}/site-spaces`, w.a.admin.token);
    const rule = await w.post(`/v1/orgs/${w.a.orgId}/sites/${aSite.id}/redirects`, w.a.admin.token, {
      source: '/old/*',
      destination: { kind: 'site-space', siteSpaceId: siteSpaces.body.items[0].id },
      captureWildcard: true,
    });
    expect(rule.status, rule.text).toBe(200);
    for (const path of ['//evil.example/path', '//evil.example/path?theme=dark', '/old//evil.example/path']) {
      const location = (await atHost(A_HOST, path)).headers.get('location');
      if (location) expect(location, path).not.toMatch(/^(\/\/|\/\\|https?:)/);
    }
    // The wildcard rule still works for ordinary paths.
    expect((await atHost(A_HOST, '/old/plans')).headers.get('location')).toBe('/plans');
  });
});

describe('what another organization sees', () => {
  it('reads only what the published site shows: no hidden sections, conditions or space internals', async () => {
    const hidden = await w.space(w.a, 'Unreleased beta');
    const base = `/v1/orgs/${w.a.orgId}/sites/${aSite.id}`;
    const section = await w.post(`${base}/sections`, w.a.admin.token, { spaceId: hidden, title: 'Beta program' });
    expect(section.status, section.text).toBe(200);
    expect(
      (await w.patch(`${base}/sections/${section.body.id}`, w.a.admin.token, { condition: 'visitor.claims.beta == true' })).status,
    ).toBe(200);
    const own = await w.get(`${base}/published`, w.a.writer.token);
    expect(own.text).toContain('Beta program');

    const outsider = await w.get(`${base}/published`, w.b.writer.token);
    expect(outsider.status).toBe(200);
    expect(outsider.text).not.toContain('Beta program');
    expect(outsider.text).not.toContain(hidden);
    expect(outsider.text).not.toContain('visitor.claims');
    const spaces = JSON.stringify(outsider.body.structure).match(/"object":"space"/g) ?? [];
    expect(spaces.length).toBeGreaterThan(0);
    expect(outsider.text).not.toMatch(/"mergeRules":\{"type":"rules"/);
    // The site page does not show the hidden section either: the same view.
    expect((await w.get(`/s/${w.a.orgId}/${aSite.basename}/`)).text).not.toContain('Beta program');
  });

  it("gets 404 for another organization's unpublished or share-link site, by id and by path", async () => {
    const shared = await site(w.a.orgId, w.a.admin.token, 'A partners', [aSpace], 'share-link');
    expect((await w.get(`/v1/orgs/${w.a.orgId}/sites/${shared.id}/published`, w.b.writer.token)).status).toBe(404);
    expect((await w.get(`/s/${w.a.orgId}/${shared.basename}/`)).status).toBe(404);
    expect((await w.get(`/v1/spaces/${aSpace}/content/files`, w.b.writer.token)).status).toBe(404);
  });

  it('finds nothing under names that are object properties', async () => {
    for (const name of ['constructor', '__proto__', 'toString']) {
      expect((await w.get(`/s/${w.a.orgId}/${aSite.basename}/~assets/${name}`)).status, name).toBe(404);
    }
  });
});

describe('download links', () => {
  it('expire, and stop working once their holder loses access to the space', async () => {
    const files = await w.get(`/v1/spaces/${aSpace}/content/files`, w.a.writer.token);
    const url = files.body.items[0].downloadURL as string;
    const exp = Number(new URL(url).searchParams.get('exp'));
    expect(exp * 1000).toBeGreaterThan(Date.now());
    expect(exp * 1000).toBeLessThanOrEqual(Date.now() + 2 * 60 * 60 * 1000);
    expect((await follow(url)).status).toBe(200);

    const altered = new URL(url);
    altered.searchParams.set('exp', String(exp + 365 * 24 * 3600));
    expect((await follow(altered.toString())).status).toBe(403);

    expect((await w.delete(`/v1/orgs/${w.a.orgId}/members/${w.a.writer.id}`, w.a.admin.token)).status).toBe(204);
    expect((await follow(url)).status).toBe(404);
  });

  it("in a site's pages stop working once the site no longer publishes the space", async () => {
    const extra = await site(w.a.orgId, w.a.admin.token, 'A launch', [aSpace]);
    const page = await w.get(`/s/${w.a.orgId}/${extra.basename}/`);
    const link = /"(http[^"]*\/files\/[^"]+)"/.exec(page.text)?.[1]?.replace(/&amp;|&#x26;/g, '&');
    expect(link).toBeDefined();
    expect((await follow(link as string)).status).toBe(200);
    expect((await w.delete(`/v1/orgs/${w.a.orgId}/sites/${extra.id}`, w.a.admin.token)).status).toBe(204);
    // Another site of A still shows the space, but this link was handed out by the deleted one.
    expect((await follow(link as string)).status).toBe(404);
  });
});

describe('rate limits', () => {
  it('limit published sites per client address', async () => {
    let status = 0;
    for (let i = 0; i < 200 && status !== 429; i++) status = (await w.get(`/s/${w.a.orgId}/${aSite.basename}/`)).status;
    expect(status).toBe(429);
  });
});
