import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer, type TestUser } from '../../testing/harness';

/**
 * The 37 site operations, each refused the same way everywhere: 401 without a valid
 * token, 404 to someone outside the organization (204 on DELETE, deleting nothing), 403
 * to a reader on a write, 400 naming the field on bad input. Success and the move and
 * resolve error conditions are in sites, structure and settings tests beside this one.
 */

let t: TestServer;
let orgId: string;
let admin: TestUser;
let reader: TestUser;
let outsider: TestUser;
const ids = { site: '', section: '', other: '', group: '', siteSpace: '', redirect: '' };

beforeAll(async () => {
  t = await TestServer.start();
  const org = await t.org(['read']);
  orgId = org.orgId;
  admin = org.admin;
  reader = org.members[0] as TestUser;
  outsider = (await t.org()).admin;
  const space = async (title: string) => (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title })).body.id as string;
  const [a, b] = [await space('Guides'), await space('API')];
  ids.site = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Docs', spaces: [a] })).body.id;
  const site = `/v1/orgs/${orgId}/sites/${ids.site}`;
  ids.other = (await t.post(`${site}/sections`, admin.token, { spaceId: b, title: 'API' })).body.id;
  ids.section = (await t.get(site, admin.token)).body.defaultSiteSection;
  await t.put(`${site}/adaptive-schema`, admin.token, { jsonSchema: { type: 'object', properties: { beta: { type: 'boolean' } } } });
  ids.group = (await t.post(`${site}/section-groups`, admin.token, { title: 'Group' })).body.id;
  ids.siteSpace = (await t.get(`${site}/site-spaces`, admin.token)).body.items[0].id;
  ids.redirect = (
    await t.post(`${site}/redirects`, admin.token, { source: '/old', destination: { kind: 'url', url: 'https://x.example.com/' } })
  ).body.id;
});
afterAll(async () => t?.close());

interface Op {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path below `/v1/orgs/{org}/sites`, with `:site`, `:section`… placeholders. */
  path: string;
  body?: unknown;
  /** A refused call: another path or body, and the field its message names. */
  bad: { path?: string; body?: unknown; field: string };
}

const BAD_ID = 'not!an-id';
const url = { kind: 'url', url: 'https://x.example.com/' };

const OPS: Record<string, Op> = {
  listSites: { method: 'GET', path: '', bad: { path: '?limit=0', field: 'limit' } },
  createSite: { method: 'POST', path: '', body: { title: 'New' }, bad: { body: { visibility: 'secret' }, field: 'visibility' } },
  getSite: { method: 'GET', path: '/:site', bad: { path: `/${BAD_ID}`, field: 'siteId' } },
  deleteSite: { method: 'DELETE', path: '/:site', bad: { path: `/${BAD_ID}`, field: 'siteId' } },
  updateSite: { method: 'PATCH', path: '/:site', body: { title: 'Docs' }, bad: { body: { hostname: 'localhost' }, field: 'hostname' } },
  getAdaptiveSchema: { method: 'GET', path: '/:site/adaptive-schema', bad: { path: `/${BAD_ID}/adaptive-schema`, field: 'siteId' } },
  putAdaptiveSchema: {
    method: 'PUT',
    path: '/:site/adaptive-schema',
    body: { jsonSchema: { type: 'object' } },
    bad: { body: { jsonSchema: 'object' }, field: 'jsonSchema' },
  },
  getTemplateConditions: {
    method: 'GET',
    path: '/:site/adaptive-schema/template-conditions',
    bad: { path: `/${BAD_ID}/adaptive-schema/template-conditions`, field: 'siteId' },
  },
  getPublished: {
    method: 'GET',
    path: '/:site/published',
    bad: { path: `/:site/published?shareKey=${'k'.repeat(300)}`, field: 'shareKey' },
  },
  publish: { method: 'POST', path: '/:site/publish', bad: { path: `/${BAD_ID}/publish`, field: 'siteId' } },

  listSections: { method: 'GET', path: '/:site/sections', bad: { path: '/:site/sections?limit=many', field: 'limit' } },
  createSection: { method: 'POST', path: '/:site/sections', body: { spaceId: ':site' }, bad: { body: { spaceId: 5 }, field: 'spaceId' } },
  deleteSection: { method: 'DELETE', path: '/:site/sections/:section', bad: { path: `/:site/sections/${BAD_ID}`, field: 'siteSectionId' } },
  updateSection: {
    method: 'PATCH',
    path: '/:site/sections/:section',
    body: { title: 'Guides' },
    bad: { body: { path: 'Not A Path' }, field: 'path' },
  },
  moveSection: {
    method: 'POST',
    path: '/:site/sections/:section/move',
    body: { position: { after: { type: 'site-section', siteSection: ':other' } } },
    bad: { body: { position: { after: { type: 'site-space', siteSection: ':other' } } }, field: 'position.after.type' },
  },

  listSectionGroups: { method: 'GET', path: '/:site/section-groups', bad: { path: '/:site/section-groups?limit=1001', field: 'limit' } },
  createSectionGroup: { method: 'POST', path: '/:site/section-groups', body: { title: 'G2' }, bad: { body: { title: 5 }, field: 'title' } },
  deleteSectionGroup: {
    method: 'DELETE',
    path: '/:site/section-groups/:group',
    bad: { path: `/:site/section-groups/${BAD_ID}`, field: 'siteSectionGroupId' },
  },
  updateSectionGroup: {
    method: 'PATCH',
    path: '/:site/section-groups/:group',
    body: { title: 'Group' },
    bad: { body: { title: '' }, field: 'title' },
  },
  addSectionToGroup: {
    method: 'POST',
    path: '/:site/section-groups/:group/sections',
    body: { sectionId: ':other' },
    bad: { body: { sectionId: BAD_ID }, field: 'sectionId' },
  },
  removeSectionFromGroup: {
    method: 'DELETE',
    path: '/:site/section-groups/:group/sections/:other',
    bad: { path: `/:site/section-groups/:group/sections/${BAD_ID}`, field: 'siteSectionId' },
  },
  moveSectionGroup: {
    method: 'POST',
    path: '/:site/section-groups/:group/move',
    body: { position: { before: { type: 'site-section', id: ':section' } } },
    bad: { body: { position: 3 }, field: 'position' },
  },

  listSiteSpaces: { method: 'GET', path: '/:site/site-spaces', bad: { path: '/:site/site-spaces?default=maybe', field: 'default' } },
  createSiteSpace: {
    method: 'POST',
    path: '/:site/site-spaces',
    body: { spaceId: ':site' },
    bad: { body: { spaceId: BAD_ID }, field: 'spaceId' },
  },
  deleteSiteSpace: {
    method: 'DELETE',
    path: '/:site/site-spaces/:siteSpace',
    bad: { path: `/:site/site-spaces/${BAD_ID}`, field: 'siteSpaceId' },
  },
  updateSiteSpace: {
    method: 'PATCH',
    path: '/:site/site-spaces/:siteSpace',
    body: { path: 'guides' },
    bad: { body: { condition: 'globalThis.process' }, field: 'condition' },
  },
  moveSiteSpace: {
    method: 'POST',
    path: '/:site/site-spaces/:siteSpace/move',
    body: { position: { before: { type: 'site-space', siteSpace: ':siteSpace' } } },
    bad: { body: { position: { before: { type: 'site-space' } } }, field: 'position.before.siteSpace' },
  },

  getCustomization: {
    method: 'GET',
    path: '/:site/customization',
    bad: { path: '/:site/customization?unmasked=maybe', field: 'unmasked' },
  },
  putCustomization: {
    method: 'PUT',
    path: '/:site/customization',
    body: { favicon: {} },
    bad: { body: { title: 'A', favicon: {} }, field: 'title' },
  },
  getSiteSpaceCustomization: {
    method: 'GET',
    path: '/:site/site-spaces/:siteSpace/customization',
    bad: { path: '/:site/site-spaces/:siteSpace/customization?unmasked=1', field: 'unmasked' },
  },
  deleteSiteSpaceCustomization: {
    method: 'DELETE',
    path: '/:site/site-spaces/:siteSpace/customization',
    bad: { path: `/:site/site-spaces/${BAD_ID}/customization`, field: 'siteSpaceId' },
  },
  updateSiteSpaceCustomization: {
    method: 'PATCH',
    path: '/:site/site-spaces/:siteSpace/customization',
    body: { title: null },
    bad: { body: { title: 'x'.repeat(129) }, field: 'title' },
  },

  listRedirects: { method: 'GET', path: '/:site/redirects', bad: { path: '/:site/redirects?orderBy=nope', field: 'orderBy' } },
  createRedirect: {
    method: 'POST',
    path: '/:site/redirects',
    body: { source: '/new', destination: url },
    bad: { body: { source: 'new', destination: url }, field: 'source' },
  },
  deleteRedirect: {
    method: 'DELETE',
    path: '/:site/redirects/:redirect',
    bad: { path: `/:site/redirects/${BAD_ID}`, field: 'siteRedirectId' },
  },
  updateRedirect: {
    method: 'PATCH',
    path: '/:site/redirects/:redirect',
    body: { source: '/old' },
    bad: { body: { destination: { kind: 'url', url: 'javascript:alert(1)' } }, field: 'destination.url' },
  },
  resolveRedirect: { method: 'GET', path: '/:site/redirect?source=/old', bad: { path: '/:site/redirect', field: 'source' } },
};

const fill = (s: string) =>
  `/v1/orgs/${orgId}/sites${s.replace(/:(site|section|other|group|siteSpace|redirect)\b/g, (_, k: keyof typeof ids) => ids[k])}`;
const fillBody = (b: unknown) => (b === undefined ? undefined : JSON.parse(fill(JSON.stringify(b)).replace(`/v1/orgs/${orgId}/sites`, '')));
const call = (op: Op, token: string | undefined, over: { path?: string; body?: unknown } = {}) =>
  t.request(op.method, fill(over.path ?? op.path), { token, body: fillBody('body' in over ? over.body : op.body) });

/** Everything a refused call could have changed, read as the admin. */
async function snapshot() {
  const site = fill('/:site');
  const reads = await Promise.all(
    ['', '/published', '/section-groups', '/redirects', '/customization', '/site-spaces/:siteSpace/customization'].map((p) =>
      t.get(fill(`/:site${p}`), admin.token),
    ),
  );
  const list = await t.get(fill(''), admin.token);
  return { site, reads: reads.map((r) => r.body), sites: list.body };
}

describe('every site operation', () => {
  it('covers the 37 operations of the specification', () => {
    expect(Object.keys(OPS)).toHaveLength(37);
  });

  it('answers 401 without a valid token', async () => {
    for (const [name, op] of Object.entries(OPS)) {
      for (const token of [undefined, 'not-a-real-token']) {
        const res = await call(op, token);
        expect(res.status, `${name} ${token ?? 'no token'}`).toBe(401);
        expect(res.body.error.code).toBe(401);
      }
    }
  });

  it('hides the site from outsiders (404), and their DELETE deletes nothing', async () => {
    const before = await snapshot();
    for (const [name, op] of Object.entries(OPS)) {
      const res = await call(op, outsider.token);
      if (op.method === 'DELETE') expect(res.status, name).toBe(204);
      else {
        expect(res.status, name).toBe(404);
        expect(res.body.error.message, name).toMatch(/^No matching (organization|site) found\.$/);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('lets readers read and refuses them every write (403), changing nothing', async () => {
    const before = await snapshot();
    for (const [name, op] of Object.entries(OPS)) {
      const res = await call(op, reader.token);
      if (op.method === 'GET') expect(res.status, name).toBe(200);
      else if (name === 'createSite')
        expect(res.body.error, name).toEqual({ code: 403, message: 'This needs the create role in the organization.' });
      else expect(res.status, name).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses bad input with a 400 naming the field, changing nothing', async () => {
    const before = await snapshot();
    for (const [name, op] of Object.entries(OPS)) {
      const res = await call(op, admin.token, op.bad);
      expect(res.status, name).toBe(400);
      expect(res.body.error.code).toBe(400);
      expect(res.body.error.message, name).toMatch(new RegExp(`field "${op.bad.field.replaceAll('.', '\\.')}"`));
    }
    // A field sent with the wrong type is invalid, not missing.
    const wrongType = await call(OPS.createSectionGroup as Op, admin.token, { body: { title: 5 } });
    expect(wrongType.body.error.message).toMatch(/^Invalid body field "title": /);
    const missing = await call(OPS.moveSiteSpace as Op, admin.token, OPS.moveSiteSpace?.bad);
    expect(missing.body.error.message).toBe('Missing body field "position.before.siteSpace".');
    expect(await snapshot()).toEqual(before);
  });

  it('answers bodies that are not JSON, and empty ones, with 400', async () => {
    for (const [name, op] of Object.entries(OPS)) {
      if (op.body === undefined) continue;
      const raw = await t.request(op.method, fill(op.path), {
        token: admin.token,
        raw: '{"title":',
        headers: { 'content-type': 'application/json' },
      });
      expect(raw.status, name).toBe(400);
      const empty = await t.request(op.method, fill(op.path), {
        token: admin.token,
        raw: '',
        headers: { 'content-type': 'application/json' },
      });
      expect(empty.status, name).toBe(400);
    }
  });
});
