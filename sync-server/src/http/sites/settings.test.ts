import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer, type TestUser } from '../../testing/harness';

let t: TestServer;
let orgId: string;
let admin: TestUser;
let reader: TestUser;
let stranger: TestUser;
let site: string;
let siteSpaceId: string;
let sectionId: string;

const ZERO = 'AAAAAAAAAAAAAAAAAAAAAA';

beforeAll(async () => {
  t = await TestServer.start();
  const org = await t.org(['read']);
  orgId = org.orgId;
  admin = org.admin;
  reader = org.members[0] as TestUser;
  stranger = await t.user('stranger');
  const a = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Guides' })).body.id;
  const b = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'API' })).body.id;
  const created = await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Docs', spaces: [a] });
  site = `/v1/orgs/${orgId}/sites/${created.body.id}`;
  siteSpaceId = (await t.get(`${site}/site-spaces`, admin.token)).body.items[0].id;
  sectionId = (await t.post(`${site}/sections`, admin.token, { spaceId: b, title: 'API' })).body.id;
});
afterAll(async () => t?.close());

describe('site customization', () => {
  it('answers defaults, replaces on PUT (favicon required, title 2–128) and keeps reads stable', async () => {
    const initial = await t.get(`${site}/customization`, reader.token);
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({ themes: { default: 'light', toggeable: true }, favicon: {}, header: { links: [] } });
    expect(initial.body.title).toBeUndefined();
    const noFavicon = await t.put(`${site}/customization`, admin.token, { title: 'Acme Docs' });
    expect(noFavicon.status).toBe(400);
    expect(noFavicon.body.error.message).toBe('Missing body field "favicon".');
    const short = await t.put(`${site}/customization`, admin.token, { title: 'A', favicon: { emoji: '📘' } });
    expect(short.body.error.message).toMatch(/^Invalid body field "title": /);
    const long = await t.put(`${site}/customization`, admin.token, { title: 'x'.repeat(129), favicon: { emoji: '📘' } });
    expect(long.status).toBe(400);
    const js = await t.put(`${site}/customization`, admin.token, {
      favicon: {},
      header: { links: [{ title: 'Evil', to: { kind: 'url', url: 'javascript:alert(1)' } }] },
    });
    expect(js.status).toBe(400);
    expect(js.body.error.message).toMatch(/^Invalid body field "header\.links\.0\.to\.url"/);
    const body = {
      title: 'Acme Docs',
      favicon: { icon: { light: 'https://cdn.example.com/fav.png', dark: 'https://cdn.example.com/fav-dark.png' } },
      styling: { ...initial.body.styling, primaryColor: { light: '#ff5500', dark: '#ffaa77' } },
      header: {
        logo: { light: 'https://cdn.example.com/logo.svg' },
        links: [{ title: 'Status', to: { kind: 'url', url: 'https://status.example.com' } }],
      },
      footer: { groups: [{ title: 'Company', links: [{ title: 'About', to: { kind: 'url', url: '/about' } }] }], copyright: '© Acme' },
      announcement: { enabled: true, message: 'v2 is out', style: 'success' },
      themes: { default: 'dark', toggeable: false },
    };
    const put = await t.put(`${site}/customization`, admin.token, body);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject(body);
    expect(put.body.pagination).toEqual({ enabled: true });
    expect((await t.get(`${site}/customization?unmasked=true`, reader.token)).body).toEqual(put.body);
    expect((await t.get(site, admin.token)).body.icon).toEqual({ icon: body.favicon.icon });
    expect((await t.put(`${site}/customization`, reader.token, body)).status).toBe(403);
    expect((await t.get(`${site}/customization`, stranger.token)).status).toBe(404);
    expect((await t.put(`${site}/customization`, admin.token, { ...body, extra: true })).body.error.message).toBe(
      'Unknown body field: "extra".',
    );
  });

  it('overrides per site space: merged with the site, null resets, DELETE removes all', async () => {
    await t.put(`${site}/customization`, admin.token, {
      title: 'Acme Docs',
      favicon: { emoji: '📘' },
      announcement: { enabled: true, message: 'Hello', style: 'info' },
    });
    const path = `${site}/site-spaces/${siteSpaceId}/customization`;
    expect((await t.get(path, reader.token)).body.title).toBe('Acme Docs');
    const patched = await t.patch(path, admin.token, {
      title: 'Guides',
      styling: { primaryColor: { light: '#112233', dark: '#445566' } },
      announcement: { message: 'Guides only' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: 'Guides',
      favicon: { emoji: '📘' },
      announcement: { enabled: true, message: 'Guides only', style: 'info' },
    });
    expect(patched.body.styling.primaryColor).toEqual({ light: '#112233', dark: '#445566' });
    expect(patched.body.styling.corners).toBe('rounded');
    expect((await t.get(path, reader.token)).body).toEqual(patched.body);
    const reset = await t.patch(path, admin.token, { title: null });
    expect(reset.body.title).toBe('Acme Docs');
    expect(reset.body.announcement.message).toBe('Guides only');
    const published = await t.get(`${site}/published`, admin.token);
    expect(published.body.customizations.siteSpaces[siteSpaceId].announcement.message).toBe('Guides only');
    expect(published.body.customizations.site.announcement.message).toBe('Hello');
    expect((await t.patch(path, admin.token, { title: 'x' })).body.error.message).toMatch(/^Invalid body field "title"/);
    expect((await t.patch(path, admin.token, {})).status).toBe(400);
    expect((await t.patch(path, admin.token, { pdf: { enabled: true } })).body.error.message).toBe('Unknown body field: "pdf".');
    expect((await t.patch(path, reader.token, { title: 'Nope' })).status).toBe(403);
    expect((await t.patch(`${site}/site-spaces/${ZERO}/customization`, admin.token, { title: 'Nope' })).body.error.message).toBe(
      'No matching site space found.',
    );
    expect((await t.delete(path, reader.token)).status).toBe(403);
    expect((await t.delete(path, admin.token)).status).toBe(204);
    expect((await t.delete(path, admin.token)).status).toBe(204);
    expect((await t.get(path, admin.token)).body).toEqual((await t.get(`${site}/customization`, admin.token)).body);
  });
});

describe('site redirects', () => {
  it('creates, lists with search and order, patches and deletes redirects', async () => {
    const a = await t.post(`${site}/redirects`, admin.token, {
      source: '/old/start',
      destination: { kind: 'site-section', siteSectionId: sectionId },
    });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      object: 'site-redirect',
      source: '/old/start',
      destination: { kind: 'site-section', siteSectionId: sectionId },
    });
    const b = await t.post(`${site}/redirects`, admin.token, {
      source: '/blog',
      destination: { kind: 'url', url: 'https://blog.example.com/' },
    });
    expect(b.status).toBe(200);
    const dup = await t.post(`${site}/redirects`, admin.token, {
      source: '/blog',
      destination: { kind: 'url', url: 'https://x.example.com/' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe('A redirect from /blog already exists.');
    for (const source of ['old', '/old/', '/a b', '/<script>', 'https://evil.example.com']) {
      const bad = await t.post(`${site}/redirects`, admin.token, { source, destination: { kind: 'url', url: 'https://x.example.com/' } });
      expect(bad.status, source).toBe(400);
      expect(bad.body.error.message).toMatch(/^Invalid body field "source"/);
    }
    const evil = await t.post(`${site}/redirects`, admin.token, { source: '/x', destination: { kind: 'url', url: 'javascript:alert(1)' } });
    expect(evil.body.error.message).toMatch(/^Invalid body field "destination.url"/);
    expect(
      (await t.post(`${site}/redirects`, admin.token, { source: '/x', destination: { kind: 'site-section', siteSectionId: ZERO } })).body
        .error.message,
    ).toBe('No matching site section found.');
    expect(
      (await t.post(`${site}/redirects`, reader.token, { source: '/x', destination: { kind: 'url', url: 'https://x.example.com/' } }))
        .status,
    ).toBe(403);
    const search = await t.get(`${site}/redirects?search=OLD`, reader.token);
    expect(search.body.items.map((r: { id: string }) => r.id)).toEqual([a.body.id]);
    const bySource = await t.get(`${site}/redirects?orderBy=source&limit=1`, reader.token);
    expect(bySource.body.items[0].source).toBe('/blog');
    const nextPage = await t.get(`${site}/redirects?orderBy=source&limit=1&page=${bySource.body.next.page}`, reader.token);
    expect(nextPage.body.items[0].source).toBe('/old/start');
    expect((await t.get(`${site}/redirects?draft=true`, reader.token)).body).toEqual({ items: [], count: 0 });
    expect((await t.get(`${site}/redirects?orderBy=nope`, reader.token)).status).toBe(400);
    expect((await t.get(`${site}/redirects`, stranger.token)).status).toBe(404);
    const patched = await t.patch(`${site}/redirects/${b.body.id}`, admin.token, { source: '/news' });
    expect(patched.body).toMatchObject({ source: '/news', destination: { kind: 'url' } });
    expect((await t.patch(`${site}/redirects/${b.body.id}`, admin.token, { source: '/old/start' })).status).toBe(409);
    expect((await t.patch(`${site}/redirects/${ZERO}`, admin.token, { source: '/y' })).body.error.message).toBe(
      'No matching redirect found.',
    );
    expect((await t.patch(`${site}/redirects/${b.body.id}`, reader.token, { source: '/y' })).status).toBe(403);
    expect((await t.delete(`${site}/redirects/${b.body.id}`, reader.token)).status).toBe(403);
    expect((await t.delete(`${site}/redirects/${b.body.id}`, admin.token)).status).toBe(204);
    // a DELETE of what is already gone changes nothing, not even the site's updatedAt
    const before = (await t.get(site, admin.token)).body.updatedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await t.delete(`${site}/redirects/${b.body.id}`, admin.token)).status).toBe(204);
    expect((await t.delete(`${site}/redirects/${ZERO}`, admin.token)).status).toBe(204);
    expect((await t.get(site, admin.token)).body.updatedAt).toBe(before);
  });

  it('takes a PUT with only some settings of an object: the rest keep their defaults', async () => {
    const put = await t.put(`${site}/customization`, admin.token, {
      title: 'Acme Docs',
      favicon: {},
      styling: { primaryColor: { light: '#346DDB', dark: '#8DB0F5' } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.styling).toMatchObject({ theme: 'clean', primaryColor: { light: '#346DDB', dark: '#8DB0F5' } });
    expect((await t.get(`${site}/customization`, reader.token)).body).toEqual(put.body);
    const bad = await t.put(`${site}/customization`, admin.token, { favicon: {}, styling: { theme: 'neon' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^Invalid body field "styling\.theme"/);
  });

  it('resolves a source to its target, with the error conditions of the specification', async () => {
    await t.post(`${site}/redirects`, admin.token, {
      source: '/legacy/api',
      destination: { kind: 'site-section', siteSectionId: sectionId, path: 'authentication' },
    });
    const res = await t.get(`${site}/redirect?source=/legacy/api/`, reader.token);
    expect(res.status).toBe(200);
    expect(res.body.redirect.source).toBe('/legacy/api');
    expect(res.body.target).toMatch(/^http:\/\/quire\.test\/s\/[^/]+\/docs\/api\/authentication$/);
    const unknown = await t.get(`${site}/redirect?source=/nowhere`, reader.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('No matching redirect found.');
    expect((await t.get(`${site}/redirect`, reader.token)).body.error.message).toBe('Missing query parameter field "source".');
    expect((await t.get(`${site}/redirect?source=nope`, reader.token)).body.error.message).toBe(
      'Invalid query parameter field "source": must be a path such as /old/page.',
    );
    expect((await t.get(`${site}/redirect?source=/legacy/api`, stranger.token)).status).toBe(404);
  });
});
