import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer, type TestUser } from '../../testing/harness';

let t: TestServer;
let orgId: string;
let admin: TestUser;
let reader: TestUser;
let stranger: TestUser;
const spaces: string[] = [];

beforeAll(async () => {
  t = await TestServer.start();
  const org = await t.org(['read']);
  orgId = org.orgId;
  admin = org.admin;
  reader = org.members[0] as TestUser;
  stranger = await t.user('stranger');
  for (const title of ['Guides', 'API', 'Changelog', 'SDK v1', 'SDK v2']) {
    spaces.push((await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title })).body.id);
  }
});
afterAll(async () => t?.close());

const ZERO = 'AAAAAAAAAAAAAAAAAAAAAA';

async function newSite(withSpaces: string[] = []) {
  const res = await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Docs', spaces: withSpaces });
  return `/v1/orgs/${orgId}/sites/${res.body.id}`;
}
const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('site sections', () => {
  it('creates sections; the first one gathers the root site spaces into a default section', async () => {
    const site = await newSite([spaces[0] as string]);
    const created = await t.post(`${site}/sections`, admin.token, { spaceId: spaces[1], title: 'API Reference', icon: 'code' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      object: 'site-section',
      title: 'API Reference',
      path: 'api-reference',
      icon: 'code',
      default: false,
    });
    expect(created.body.siteSpaces).toHaveLength(1);
    expect(created.body.siteSpaces[0]).toMatchObject({
      object: 'site-space',
      default: true,
      space: { id: spaces[1] },
      section: created.body.id,
    });
    expect(created.body.urls.published).toMatch(/\/s\/[^/]+\/docs[^/]*\/api-reference\/$/);
    const list = await t.get(`${site}/sections`, reader.token);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    const [first, second] = list.body.items;
    expect(first).toMatchObject({ default: true, title: 'Docs', siteSpaces: [{ space: { id: spaces[0] }, default: true }] });
    expect(second.id).toBe(created.body.id);
    expect((await t.get(site, admin.token)).body.defaultSiteSection).toBe(first.id);
    const published = await t.get(`${site}/published`, admin.token);
    expect(published.body.structure.type).toBe('sections');
    expect(ids(published.body.structure.structure)).toEqual([first.id, second.id]);
  });

  it('refuses bad input, unknown spaces and readers', async () => {
    const site = await newSite();
    expect((await t.post(`${site}/sections`, admin.token, { title: 'No space' })).body.error.message).toBe('Missing body field "spaceId".');
    expect((await t.post(`${site}/sections`, admin.token, { spaceId: ZERO })).body.error).toEqual({
      code: 404,
      message: 'No matching space found.',
    });
    expect((await t.post(`${site}/sections`, reader.token, { spaceId: spaces[0] })).status).toBe(403);
    expect((await t.post(`${site}/sections`, stranger.token, { spaceId: spaces[0] })).status).toBe(404);
    expect((await t.get(`${site}/sections`, stranger.token)).status).toBe(404);
    expect((await t.get(`${site}/sections?limit=1001`, admin.token)).status).toBe(400);
  });

  it('patches title, path, condition (checked, null removes), default site space', async () => {
    const site = await newSite();
    const s = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[0] })).body;
    const other = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[1] })).body;
    const variant = (await t.post(`${site}/site-spaces`, admin.token, { spaceId: spaces[2], sectionId: s.id })).body;
    const ok = await t.patch(`${site}/sections/${s.id}`, admin.token, {
      title: 'Start',
      path: 'start',
      description: 'Begin here',
      condition: 'visitor.claims.plan in ["pro", "team"] && !visitor.claims.beta',
      defaultSiteSpace: variant.id,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      title: 'Start',
      path: 'start',
      description: 'Begin here',
      condition: 'visitor.claims.plan in ["pro", "team"] && !visitor.claims.beta',
    });
    expect(ok.body.siteSpaces.find((x: { default: boolean }) => x.default).id).toBe(variant.id);
    const cleared = await t.patch(`${site}/sections/${s.id}`, admin.token, { condition: null });
    expect(cleared.body.condition).toBeUndefined();
    const badCondition = await t.patch(`${site}/sections/${s.id}`, admin.token, { condition: 'process.exit(1)' });
    expect(badCondition.status).toBe(400);
    expect(badCondition.body.error.message).toBe(
      'Invalid body field "condition": unknown name "process" at 1: conditions read "visitor.claims…".',
    );
    const unbalanced = await t.patch(`${site}/sections/${s.id}`, admin.token, { condition: '(visitor.claims.a' });
    expect(unbalanced.body.error.message).toBe('Invalid body field "condition": expected ")" at the end.');
    const taken = await t.patch(`${site}/sections/${s.id}`, admin.token, { path: other.path });
    expect(taken.status).toBe(400);
    expect(taken.body.error.message).toBe('Invalid body field "path": already used by another section of the site.');
    expect((await t.patch(`${site}/sections/${s.id}`, admin.token, { path: 'Not A Path' })).status).toBe(400);
    const foreignVariant = await t.patch(`${site}/sections/${other.id}`, admin.token, { defaultSiteSpace: variant.id });
    expect(foreignVariant.body.error).toEqual({ code: 404, message: 'No matching site space found.' });
    expect((await t.patch(`${site}/sections/${s.id}`, reader.token, { title: 'Nope' })).status).toBe(403);
    expect((await t.patch(`${site}/sections/${ZERO}`, admin.token, { title: 'Nope' })).body.error.message).toBe(
      'No matching site section found.',
    );
  });

  it('moves sections with before/after anchors and refuses invalid positions', async () => {
    const site = await newSite();
    const a = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[0], title: 'A' })).body;
    const b = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[1], title: 'B' })).body;
    const c = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[2], title: 'C' })).body;
    const order = async () => ids((await t.get(`${site}/published`, admin.token)).body.structure.structure);
    const moved = await t.post(`${site}/sections/${c.id}/move`, admin.token, {
      position: { before: { type: 'site-section', siteSection: a.id } },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.id).toBe(c.id);
    expect(await order()).toEqual([c.id, a.id, b.id]);
    await t.post(`${site}/sections/${c.id}/move`, admin.token, { position: { after: { type: 'site-section', siteSection: b.id } } });
    expect(await order()).toEqual([a.id, b.id, c.id]);
    await t.post(`${site}/sections/${a.id}/move`, admin.token, {
      position: { after: { type: 'site-section', siteSection: b.id }, before: { type: 'site-section', siteSection: c.id } },
    });
    expect(await order()).toEqual([b.id, a.id, c.id]);
    const invalid = 'Invalid body field "position": invalid move site section position.';
    for (const position of [
      {},
      { before: { type: 'site-section', siteSection: a.id } },
      { before: { type: 'site-section', siteSection: ZERO } },
      { after: { type: 'site-section', siteSection: c.id }, before: { type: 'site-section', siteSection: b.id } },
    ]) {
      const res = await t.post(`${site}/sections/${a.id}/move`, admin.token, { position });
      expect(res.status, JSON.stringify(position)).toBe(400);
      expect(res.body.error.message).toBe(invalid);
    }
    const wrongType = await t.post(`${site}/sections/${a.id}/move`, admin.token, {
      position: { before: { type: 'site-space', siteSection: b.id } },
    });
    expect(wrongType.status).toBe(400);
    const missing = await t.post(`${site}/sections/${ZERO}/move`, admin.token, {
      position: { before: { type: 'site-section', siteSection: b.id } },
    });
    expect(missing.body.error).toEqual({ code: 404, message: 'No matching site section found.' });
    expect(
      (await t.post(`${site}/sections/${a.id}/move`, reader.token, { position: { before: { type: 'site-section', siteSection: b.id } } }))
        .status,
    ).toBe(403);
    expect(await order()).toEqual([b.id, a.id, c.id]);
  });

  it('deletes a section with its site spaces; the next becomes the default; 204 always', async () => {
    const site = await newSite();
    const a = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[0], title: 'A' })).body;
    const b = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[1], title: 'B' })).body;
    expect((await t.delete(`${site}/sections/${a.id}`, reader.token)).status).toBe(403);
    expect((await t.delete(`${site}/sections/${a.id}`, admin.token)).status).toBe(204);
    // deleting what is already gone changes nothing, not even the site's updatedAt
    const before = (await t.get(site, admin.token)).body.updatedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await t.delete(`${site}/sections/${a.id}`, admin.token)).status).toBe(204);
    expect((await t.get(site, admin.token)).body).toMatchObject({ defaultSiteSection: b.id, siteSpaces: 1, updatedAt: before });
  });
});

describe('site section groups', () => {
  it('creates groups holding sections, nested groups, lists and patches them', async () => {
    const site = await newSite();
    const a = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[0], title: 'A' })).body;
    const b = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[1], title: 'B' })).body;
    const g = await t.post(`${site}/section-groups`, admin.token, { title: 'Products', icon: 'box', sections: [b.id, a.id] });
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({ object: 'site-section-group', title: 'Products', icon: 'box' });
    expect(ids(g.body.children)).toEqual([b.id, a.id]);
    expect(g.body.children[0].sectionGroup).toBe(g.body.id);
    const nested = await t.post(`${site}/section-groups`, admin.token, { title: 'Legacy', parent: g.body.id });
    expect(nested.body.sectionGroup).toBe(g.body.id);
    const list = await t.get(`${site}/section-groups`, reader.token);
    expect(list.body.count).toBe(2);
    const patched = await t.patch(`${site}/section-groups/${g.body.id}`, admin.token, { title: 'Products & more', icon: null });
    expect(patched.body.title).toBe('Products & more');
    expect(patched.body.icon).toBeUndefined();
    const published = (await t.get(`${site}/published`, admin.token)).body.structure.structure;
    expect(ids(published)).toEqual([g.body.id]);
    expect(ids(published[0].children)).toEqual([b.id, a.id, nested.body.id]);
    expect((await t.post(`${site}/section-groups`, admin.token, { title: 'X', sections: [ZERO] })).body.error.message).toBe(
      'No matching site section found.',
    );
    expect((await t.post(`${site}/section-groups`, admin.token, { title: 'X', parent: ZERO })).body.error.message).toBe(
      'No matching site section group found.',
    );
    expect((await t.post(`${site}/section-groups`, admin.token, {})).body.error.message).toBe('Missing body field "title".');
    expect((await t.post(`${site}/section-groups`, reader.token, { title: 'X' })).status).toBe(403);
    expect((await t.get(`${site}/section-groups`, stranger.token)).status).toBe(404);
    expect((await t.patch(`${site}/section-groups/${ZERO}`, admin.token, { title: 'X' })).status).toBe(404);
  });

  it('adds and removes sections; removing puts the section right after the group', async () => {
    const site = await newSite();
    const a = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[0], title: 'A' })).body;
    const b = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[1], title: 'B' })).body;
    const g = (await t.post(`${site}/section-groups`, admin.token, { title: 'G' })).body;
    const added = await t.post(`${site}/section-groups/${g.id}/sections`, admin.token, { sectionId: a.id });
    expect(added.status).toBe(200);
    expect(ids(added.body.children)).toEqual([a.id]);
    expect((await t.post(`${site}/section-groups/${g.id}/sections`, admin.token, { sectionId: ZERO })).status).toBe(404);
    expect((await t.post(`${site}/section-groups/${g.id}/sections`, admin.token, { section: a.id })).status).toBe(400);
    expect((await t.post(`${site}/section-groups/${g.id}/sections`, reader.token, { sectionId: b.id })).status).toBe(403);
    expect((await t.delete(`${site}/section-groups/${g.id}/sections/${a.id}`, reader.token)).status).toBe(403);
    expect((await t.delete(`${site}/section-groups/${g.id}/sections/${a.id}`, admin.token)).status).toBe(204);
    expect((await t.delete(`${site}/section-groups/${g.id}/sections/${a.id}`, admin.token)).status).toBe(204);
    const published = (await t.get(`${site}/published`, admin.token)).body.structure.structure;
    expect(ids(published)).toEqual([b.id, g.id, a.id]);
  });

  it('moves groups among sections and refuses invalid positions; deleting a group keeps its sections', async () => {
    const site = await newSite();
    const a = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[0], title: 'A' })).body;
    const b = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[1], title: 'B' })).body;
    const g = (await t.post(`${site}/section-groups`, admin.token, { title: 'G' })).body;
    const c = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[2], title: 'C' })).body;
    await t.post(`${site}/section-groups/${g.id}/sections`, admin.token, { sectionId: c.id });
    const order = async () => ids((await t.get(`${site}/published`, admin.token)).body.structure.structure);
    expect(await order()).toEqual([a.id, b.id, g.id]);
    const moved = await t.post(`${site}/section-groups/${g.id}/move`, admin.token, {
      position: { before: { type: 'site-section', id: a.id } },
    });
    expect(moved.status).toBe(200);
    expect(await order()).toEqual([g.id, a.id, b.id]);
    const invalid = 'Invalid body field "position": invalid move site section group position.';
    for (const position of [
      {},
      { after: { type: 'site-section', id: c.id } },
      { after: { type: 'site-section-group', id: g.id } },
      { before: { type: 'site-section', id: ZERO } },
    ]) {
      const res = await t.post(`${site}/section-groups/${g.id}/move`, admin.token, { position });
      expect(res.status, JSON.stringify(position)).toBe(400);
      expect(res.body.error.message).toBe(invalid);
    }
    expect(
      (await t.post(`${site}/section-groups/${ZERO}/move`, admin.token, { position: { before: { type: 'site-section', id: a.id } } })).body
        .error.message,
    ).toBe('No matching site section group found.');
    expect(
      (await t.post(`${site}/section-groups/${g.id}/move`, reader.token, { position: { before: { type: 'site-section', id: a.id } } }))
        .status,
    ).toBe(403);
    expect((await t.delete(`${site}/section-groups/${g.id}`, reader.token)).status).toBe(403);
    expect((await t.delete(`${site}/section-groups/${g.id}`, admin.token)).status).toBe(204);
    expect((await t.delete(`${site}/section-groups/${g.id}`, admin.token)).status).toBe(204);
    expect(await order()).toEqual([a.id, b.id, c.id]);
  });
});

describe('site spaces', () => {
  it('adds spaces to the root, to a given section or to the default section', async () => {
    const site = await newSite();
    const root = await t.post(`${site}/site-spaces`, admin.token, { spaceId: spaces[0] });
    expect(root.status).toBe(200);
    expect(root.body).toMatchObject({
      object: 'site-space',
      path: 'guides',
      title: 'Guides',
      default: true,
      hasAdvancedCustomizationFeature: false,
    });
    expect(root.body.section).toBeUndefined();
    const dup = await t.post(`${site}/site-spaces`, admin.token, { spaceId: spaces[0] });
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toBe('Invalid body field "spaceId": the space is already published in this site.');
    const section = (await t.post(`${site}/sections`, admin.token, { spaceId: spaces[1] })).body;
    const intoDefault = await t.post(`${site}/site-spaces`, admin.token, { spaceId: spaces[3] });
    const defaultSection = (await t.get(site, admin.token)).body.defaultSiteSection;
    expect(intoDefault.body.section).toBe(defaultSection);
    expect(intoDefault.body.default).toBe(false);
    const intoSection = await t.post(`${site}/site-spaces`, admin.token, { spaceId: spaces[4], sectionId: section.id });
    expect(intoSection.body).toMatchObject({ section: section.id, path: 'sdk-v2', default: false });
    expect((await t.post(`${site}/site-spaces`, admin.token, { spaceId: spaces[2], sectionId: ZERO })).body.error.message).toBe(
      'No matching site section found.',
    );
    expect((await t.post(`${site}/site-spaces`, admin.token, { spaceId: ZERO })).body.error.message).toBe('No matching space found.');
    expect((await t.post(`${site}/site-spaces`, reader.token, { spaceId: spaces[2] })).status).toBe(403);
    const all = await t.get(`${site}/site-spaces`, reader.token);
    expect(all.body.count).toBe(4);
    const defaults = await t.get(`${site}/site-spaces?default=true`, reader.token);
    expect(defaults.body.items.every((x: { default: boolean }) => x.default)).toBe(true);
    expect(defaults.body.count).toBe(2);
    const others = await t.get(`${site}/site-spaces?default=false`, reader.token);
    expect(ids(others.body.items).sort()).toEqual([intoDefault.body.id, intoSection.body.id].sort());
    expect((await t.get(`${site}/site-spaces`, stranger.token)).status).toBe(404);
  });

  it('patches path, condition and space; null removes the condition', async () => {
    const site = await newSite([spaces[0] as string, spaces[1] as string]);
    const [first, second] = (await t.get(`${site}/site-spaces`, admin.token)).body.items;
    const ok = await t.patch(`${site}/site-spaces/${second.id}`, admin.token, {
      path: 'v2',
      condition: 'visitor.claims.beta == true',
      spaceId: spaces[2],
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ path: 'v2', condition: 'visitor.claims.beta == true', space: { id: spaces[2] }, title: 'Changelog' });
    expect((await t.patch(`${site}/site-spaces/${second.id}`, admin.token, { condition: null })).body.condition).toBeUndefined();
    const clash = await t.patch(`${site}/site-spaces/${second.id}`, admin.token, { path: first.path });
    expect(clash.body.error.message).toBe('Invalid body field "path": already used by another site space of this site.');
    expect((await t.patch(`${site}/site-spaces/${second.id}`, admin.token, { condition: 'visitor.claims.a ==' })).body.error.message).toBe(
      'Invalid body field "condition": unexpected end of the condition.',
    );
    expect((await t.patch(`${site}/site-spaces/${second.id}`, admin.token, { spaceId: ZERO })).status).toBe(404);
    expect((await t.patch(`${site}/site-spaces/${second.id}`, admin.token, { other: 1 })).body.error.message).toBe(
      'Unknown body field: "other".',
    );
    expect((await t.patch(`${site}/site-spaces/${second.id}`, reader.token, { path: 'x' })).status).toBe(403);
    expect((await t.patch(`${site}/site-spaces/${ZERO}`, admin.token, { path: 'x' })).body.error.message).toBe(
      'No matching site space found.',
    );
  });

  it('moves site spaces among their siblings and refuses invalid positions', async () => {
    const site = await newSite([spaces[0] as string, spaces[1] as string, spaces[2] as string]);
    const [a, b, c] = ids((await t.get(`${site}/site-spaces`, admin.token)).body.items);
    const order = async () => ids((await t.get(`${site}/published`, admin.token)).body.structure.structure);
    const moved = await t.post(`${site}/site-spaces/${c}/move`, admin.token, {
      position: { before: { type: 'site-space', siteSpace: a } },
    });
    expect(moved.status).toBe(200);
    expect(await order()).toEqual([c, a, b]);
    await t.post(`${site}/site-spaces/${c}/move`, admin.token, { position: { after: { type: 'site-space', siteSpace: b } } });
    expect(await order()).toEqual([a, b, c]);
    const invalid = 'Invalid body field "position": invalid move site space position.';
    const other = await newSite([spaces[3] as string]);
    const foreign = ids((await t.get(`${other}/site-spaces`, admin.token)).body.items)[0];
    for (const position of [{}, { before: { type: 'site-space', siteSpace: foreign } }]) {
      const res = await t.post(`${site}/site-spaces/${b}/move`, admin.token, { position });
      expect(res.status, JSON.stringify(position)).toBe(400);
      expect(res.body.error.message).toBe(invalid);
    }
    // Between a and c is where b already is: allowed, and nothing moves.
    const inPlace = await t.post(`${site}/site-spaces/${b}/move`, admin.token, {
      position: { after: { type: 'site-space', siteSpace: a }, before: { type: 'site-space', siteSpace: c } },
    });
    expect(inPlace.status).toBe(200);
    const reversed = await t.post(`${site}/site-spaces/${a}/move`, admin.token, {
      position: { after: { type: 'site-space', siteSpace: c }, before: { type: 'site-space', siteSpace: b } },
    });
    expect(reversed.body.error.message).toBe(invalid);
    expect(
      (await t.post(`${site}/site-spaces/${ZERO}/move`, admin.token, { position: { before: { type: 'site-space', siteSpace: a } } })).body
        .error.message,
    ).toBe('No matching site space found.');
    expect(
      (await t.post(`${site}/site-spaces/${a}/move`, reader.token, { position: { before: { type: 'site-space', siteSpace: b } } })).status,
    ).toBe(403);
    expect(await order()).toEqual([a, b, c]);
  });

  it('deletes a site space; the next becomes the default; 204 always', async () => {
    const site = await newSite([spaces[0] as string, spaces[1] as string]);
    const [a, b] = ids((await t.get(`${site}/site-spaces`, admin.token)).body.items);
    expect((await t.delete(`${site}/site-spaces/${a}`, reader.token)).status).toBe(403);
    expect((await t.delete(`${site}/site-spaces/${a}`, admin.token)).status).toBe(204);
    const before = (await t.get(site, admin.token)).body.updatedAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await t.delete(`${site}/site-spaces/${a}`, admin.token)).status).toBe(204);
    expect((await t.delete(`${site}/site-spaces/${a}`, stranger.token)).status).toBe(204);
    expect((await t.get(site, admin.token)).body).toMatchObject({ defaultSiteSpace: b, siteSpaces: 1, updatedAt: before });
  });
});
