import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer, type TestUser } from '../../testing/harness';

let t: TestServer;
let orgId: string;
let admin: TestUser;
let reader: TestUser;
let creator: TestUser;
let stranger: TestUser;
let spaceA: string;
let spaceB: string;

beforeAll(async () => {
  t = await TestServer.start();
  const org = await t.org(['read', 'create']);
  orgId = org.orgId;
  admin = org.admin;
  [reader, creator] = org.members as [TestUser, TestUser];
  stranger = await t.user('stranger');
  spaceA = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Guides' })).body.id;
  spaceB = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'API Reference' })).body.id;
});
afterAll(async () => t?.close());

const sites = () => `/v1/orgs/${orgId}/sites`;

async function newSite(body: Record<string, unknown> = {}) {
  const res = await t.post(sites(), admin.token, { title: 'Docs', ...body });
  expect(res.status).toBe(200);
  return res.body;
}

describe('sites', () => {
  it('creates a site with spaces as root site spaces, and a creator may too', async () => {
    const res = await t.post(sites(), creator.token, { title: 'Help Center', spaces: [spaceA, spaceB], visibility: 'unlisted' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'site',
      title: 'Help Center',
      type: 'basic',
      basename: 'help-center',
      visibility: 'unlisted',
      published: false,
      siteSpaces: 2,
      adaptiveContent: { enabled: false },
      agentsContext: 'included',
      permissions: { view: true, edit: true, admin: true },
    });
    expect(res.body.id).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(res.body.urls.published).toBe(`http://quire.test/s/${orgId}/help-center/`);
    expect(res.body.defaultSiteSpace).toBeTruthy();
    const again = await t.post(sites(), admin.token, { title: 'Help Center' });
    expect(again.body.basename).toBe('help-center-2');
  });

  it('refuses bad input, readers, strangers and spaces of other organizations', async () => {
    const bad = await t.post(sites(), admin.token, { title: 'X', colour: 'red' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Unknown body field: "colour".');
    const badVis = await t.post(sites(), admin.token, { visibility: 'secret' });
    expect(badVis.status).toBe(400);
    expect(badVis.body.error.message).toMatch(/^Invalid body field "visibility"/);
    const denied = await t.post(sites(), reader.token, { title: 'Nope' });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe('This needs the create role in the organization.');
    const outsider = await t.post(sites(), stranger.token, { title: 'Nope' });
    expect(outsider.status).toBe(404);
    const other = await t.org();
    const foreignSpace = (await t.post(`/v1/orgs/${other.orgId}/spaces`, other.admin.token, { title: 'Theirs' })).body.id;
    const foreign = await t.post(sites(), admin.token, { title: 'X', spaces: [foreignSpace] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe('No matching space found.');
    const noAuth = await t.get(sites());
    expect(noAuth.status).toBe(401);
  });

  it('lists with the filters of the public client, keyset pages and limit checks', async () => {
    const a = await newSite({ title: 'Filter Alpha', spaces: [spaceA] });
    await newSite({ title: 'Filter Beta' });
    await t.post(`${sites()}/${a.id}/publish`, admin.token);
    const bySpace = await t.get(`${sites()}?space=${spaceA}&title=filter`, reader.token);
    expect(bySpace.status).toBe(200);
    expect(bySpace.body.items.map((s: { title: string }) => s.title)).toEqual(['Filter Alpha']);
    const published = await t.get(`${sites()}?published=true&title=FILTER`, reader.token);
    expect(published.body.items.map((s: { id: string }) => s.id)).toEqual([a.id]);
    expect(published.body.items[0].permissions).toEqual({
      view: true,
      access: true,
      edit: false,
      create: false,
      admin: false,
      installIntegration: false,
      viewAdaptiveSchema: true,
      editAdaptiveSchema: false,
    });
    expect(published.body.items[0].shareKey).toBeUndefined();
    const first = await t.get(`${sites()}?limit=1`, reader.token);
    expect(first.body.items).toHaveLength(1);
    const second = await t.get(`${sites()}?limit=1&page=${first.body.next.page}`, reader.token);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
    expect((await t.get(`${sites()}?limit=0`, reader.token)).status).toBe(400);
    expect((await t.get(`${sites()}?published=maybe`, reader.token)).status).toBe(400);
    expect((await t.get(sites(), stranger.token)).status).toBe(404);
  });

  it('gets a site (stable), 404 for strangers and unknown ids alike', async () => {
    const s = await newSite();
    const one = await t.get(`${sites()}/${s.id}`, reader.token);
    const two = await t.get(`${sites()}/${s.id}`, reader.token);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(two.body);
    const foreign = await t.get(`${sites()}/${s.id}`, stranger.token);
    const unknown = await t.get(`${sites()}/AAAAAAAAAAAAAAAAAAAAAA`, admin.token);
    expect(foreign.status).toBe(404);
    expect(unknown.body).toEqual({ error: { code: 404, message: 'No matching site found.' } });
    const other = await t.org();
    const elsewhere = await t.get(`/v1/orgs/${other.orgId}/sites/${s.id}`, other.admin.token);
    expect(elsewhere.status).toBe(404);
  });

  it('shows a guest (no organization role) only the sites published to everyone: 404 otherwise, and none listed', async () => {
    const guest = await t.member(orgId, null);
    const draft = await newSite({ title: 'Guest draft', spaces: [spaceA] });
    const shared = await newSite({ title: 'Guest partners', visibility: 'share-link' });
    const portal = await newSite({ title: 'Guest portal', visibility: 'visitor-auth' });
    const open = await newSite({ title: 'Guest open' });
    for (const s of [shared, portal, open]) expect((await t.post(`${sites()}/${s.id}/publish`, admin.token)).status).toBe(200);
    // Members with a role read every one of them: the guest's answers are about the guest.
    for (const s of [draft, shared, portal]) expect((await t.get(`${sites()}/${s.id}`, reader.token)).status).toBe(200);

    for (const s of [draft, shared, portal]) {
      const res = await t.get(`${sites()}/${s.id}`, guest.token);
      expect(res.body, s.title).toEqual({ error: { code: 404, message: 'No matching site found.' } });
    }
    expect((await t.get(`${sites()}/${shared.id}?shareKey=${shared.shareKey}`, guest.token)).status).toBe(404);
    const seen = await t.get(`${sites()}/${open.id}`, guest.token);
    expect(seen.status).toBe(200);
    expect(seen.body.shareKey).toBeUndefined();

    for (const query of ['', '?published=false', `?space=${spaceA}`, '?title=guest']) {
      const list = await t.get(`${sites()}${query}`, guest.token);
      const listed = list.status === 200 ? list.body.items.map((s: { id: string }) => s.id) : [];
      for (const s of [draft, shared, portal]) expect(listed, `${s.title} in ${query}`).not.toContain(s.id);
    }
  });

  it('patches fields with the formats of the specification, and a refused patch changes nothing', async () => {
    const s = await newSite({ spaces: [spaceA, spaceB] });
    const ok = await t.patch(`${sites()}/${s.id}`, admin.token, {
      title: 'Renamed',
      visibility: 'share-link',
      basename: 'renamed-docs',
      hostname: 'docs.example.com',
      proxy: 'example.com/docs',
      adaptiveContent: { enabled: true },
      agentsContext: 'excluded',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      title: 'Renamed',
      visibility: 'share-link',
      basename: 'renamed-docs',
      hostname: 'docs.example.com',
      proxy: { origin: 'https://example.com/docs', target: `http://quire.test/s/${orgId}/renamed-docs/` },
      adaptiveContent: { enabled: true },
      agentsContext: 'excluded',
    });
    const removed = await t.patch(`${sites()}/${s.id}`, admin.token, { proxy: null, hostname: null });
    expect(removed.body.proxy).toBeUndefined();
    expect(removed.body.hostname).toBeUndefined();
    for (const [field, value] of [
      ['hostname', 'localhost'],
      ['hostname', 'Docs.Example.com'],
      ['proxy', 'example.com'],
      ['proxy', 'https://example.com/docs'],
      ['basename', 'Has Space'],
    ] as const) {
      const bad = await t.patch(`${sites()}/${s.id}`, admin.token, { [field]: value });
      expect(bad.status, `${field}=${value}`).toBe(400);
      expect(bad.body.error.message).toMatch(new RegExp(`^Invalid body field "${field}"`));
    }
    const before = await t.get(`${sites()}/${s.id}`, admin.token);
    const other = await newSite({ title: 'Taken' });
    const clash = await t.patch(`${sites()}/${s.id}`, admin.token, { title: 'Changed?', basename: other.basename });
    expect(clash.status).toBe(400);
    expect(clash.body.error.message).toBe('Invalid body field "basename": already used by another site of the organization.');
    expect((await t.get(`${sites()}/${s.id}`, admin.token)).body).toEqual(before.body);
    const hosted = await newSite({ title: 'Hosted' });
    await t.patch(`${sites()}/${hosted.id}`, admin.token, { hostname: 'help.example.com' });
    const hostClash = await t.patch(`${sites()}/${s.id}`, admin.token, { hostname: 'help.example.com' });
    expect(hostClash.body.error).toEqual({ code: 400, message: 'Invalid body field "hostname": already used by another site.' });
    const empty = await t.patch(`${sites()}/${s.id}`, admin.token, {});
    expect(empty.status).toBe(400);
    const denied = await t.patch(`${sites()}/${s.id}`, reader.token, { title: 'Nope' });
    expect(denied.status).toBe(403);
    const unknownSpace = await t.patch(`${sites()}/${s.id}`, admin.token, { defaultSiteSpace: 'AAAAAAAAAAAAAAAAAAAAAA' });
    expect(unknownSpace.status).toBe(404);
    expect(unknownSpace.body.error.message).toBe('No matching site space found.');
    const spaces = await t.get(`${sites()}/${s.id}/site-spaces`, admin.token);
    const second = spaces.body.items.find((x: { default: boolean }) => !x.default);
    const setDefault = await t.patch(`${sites()}/${s.id}`, admin.token, { defaultSiteSpace: second.id });
    expect(setDefault.body.defaultSiteSpace).toBe(second.id);
  });

  it('publishes, and deleting unpublishes (204 whatever existed)', async () => {
    const s = await newSite({ spaces: [spaceA] });
    expect((await t.post(`${sites()}/${s.id}/publish`, reader.token)).status).toBe(403);
    const pub = await t.post(`${sites()}/${s.id}/publish`, admin.token);
    expect(pub.status).toBe(200);
    expect(pub.body.published).toBe(true);
    expect((await t.post(`${sites()}/${s.id}/publish`, stranger.token)).status).toBe(404);
    expect((await t.delete(`${sites()}/${s.id}`, reader.token)).status).toBe(403);
    expect((await t.delete(`${sites()}/${s.id}`, stranger.token)).status).toBe(204);
    expect((await t.get(`${sites()}/${s.id}`, admin.token)).status).toBe(200);
    expect((await t.delete(`${sites()}/${s.id}`, admin.token)).status).toBe(204);
    expect((await t.delete(`${sites()}/${s.id}`, admin.token)).status).toBe(204);
    expect((await t.get(`${sites()}/${s.id}`, admin.token)).status).toBe(404);
  });

  it('stores a draft-07 visitor schema and derives template conditions from it', async () => {
    const s = await newSite();
    const none = await t.get(`${sites()}/${s.id}/adaptive-schema`, admin.token);
    expect(none.status).toBe(404);
    expect(none.body.error.message).toBe('No matching visitor attributes schema found.');
    expect((await t.get(`${sites()}/${s.id}/adaptive-schema/template-conditions`, admin.token)).body).toEqual({ items: [], count: 0 });
    const jsonSchema = {
      type: 'object',
      properties: {
        isBetaUser: { type: 'boolean', description: 'Beta testers' },
        plan: { type: 'string', enum: ['free', 'pro'] },
        unsigned: {
          type: 'object',
          description: 'Unsigned claims',
          properties: { darkLaunch: { type: 'boolean', description: 'Dark launch' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    };
    const put = await t.put(`${sites()}/${s.id}/adaptive-schema`, admin.token, { jsonSchema });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ object: 'site-adaptive-schema', jsonSchema });
    const got = await t.get(`${sites()}/${s.id}/adaptive-schema`, reader.token);
    // The same schema; `permissions` are the reader's own.
    expect(got.body).toEqual({ ...put.body, permissions: { view: true, edit: false } });
    expect(put.body.permissions).toEqual({ view: true, edit: true });
    const templates = await t.get(`${sites()}/${s.id}/adaptive-schema/template-conditions`, reader.token);
    expect(templates.body.items).toEqual([
      { description: 'Beta testers', condition: 'visitor.claims.isBetaUser' },
      { description: 'plan: free', condition: 'visitor.claims.plan == "free"' },
      { description: 'plan: pro', condition: 'visitor.claims.plan == "pro"' },
      { description: 'Dark launch', condition: 'visitor.claims.unsigned.darkLaunch' },
    ]);
    const invalid = await t.put(`${sites()}/${s.id}/adaptive-schema`, admin.token, {
      jsonSchema: { type: 'object', properties: { a: { type: 'nonsense' } } },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toMatch(/^Invalid body field "jsonSchema": is not a valid JSON Schema/);
    const notObject = await t.put(`${sites()}/${s.id}/adaptive-schema`, admin.token, { jsonSchema: { type: 'string' } });
    expect(notObject.body.error.message).toBe('Invalid body field "jsonSchema": must describe an object ("type": "object").');
    expect((await t.put(`${sites()}/${s.id}/adaptive-schema`, reader.token, { jsonSchema })).status).toBe(403);
    expect((await t.get(`${sites()}/${s.id}/adaptive-schema`, admin.token)).body).toEqual(put.body);
  });

  it('answers the published content site, opening share-link sites to outsiders with the key', async () => {
    const s = await newSite({ spaces: [spaceA], visibility: 'share-link' });
    const asMember = await t.get(`${sites()}/${s.id}/published`, reader.token);
    expect(asMember.status).toBe(200);
    expect(asMember.body).toMatchObject({
      object: 'published-content-site',
      site: { id: s.id },
      structure: { type: 'siteSpaces' },
      scripts: [],
      customizations: { site: { themes: { default: 'light', toggeable: true } } },
    });
    expect(asMember.body.structure.structure[0]).toMatchObject({ object: 'site-space', default: true, space: { id: spaceA } });
    expect(Object.keys(asMember.body.customizations.siteSpaces)).toEqual([asMember.body.structure.structure[0].id]);
    // Not yet published: outsiders see nothing, key or not.
    expect((await t.get(`${sites()}/${s.id}/published?shareKey=${s.shareKey}`, stranger.token)).status).toBe(404);
    await t.post(`${sites()}/${s.id}/publish`, admin.token);
    expect((await t.get(`${sites()}/${s.id}/published`, stranger.token)).status).toBe(404);
    expect((await t.get(`${sites()}/${s.id}/published?shareKey=wrong`, stranger.token)).status).toBe(404);
    const withKey = await t.get(`${sites()}/${s.id}/published?shareKey=${s.shareKey}`, stranger.token);
    expect(withKey.status).toBe(200);
    expect(withKey.body.site.shareKey).toBeUndefined();
    expect(withKey.body.site.visitorAuth).toBeUndefined();
    // The other reads that take the key: site spaces, sections and the redirect resolver.
    await t.post(`${sites()}/${s.id}/redirects`, admin.token, {
      source: '/old',
      destination: { kind: 'url', url: 'https://x.example.com/' },
    });
    for (const path of ['site-spaces', 'sections', 'redirect?source=/old']) {
      const sep = path.includes('?') ? '&' : '?';
      expect((await t.get(`${sites()}/${s.id}/${path}`, stranger.token)).status, path).toBe(404);
      expect((await t.get(`${sites()}/${s.id}/${path}${sep}shareKey=wrong`, stranger.token)).status, path).toBe(404);
      expect((await t.get(`${sites()}/${s.id}/${path}${sep}shareKey=${s.shareKey}`, stranger.token)).status, path).toBe(200);
    }
  });
});
