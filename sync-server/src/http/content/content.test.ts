import { createPage, setVariable } from '@quire/shared/content/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer } from '../../testing/harness';
import { editLive } from '../../testing/testEdits';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

async function space(token: string, orgId: string, title = 'Docs') {
  const res = await t.post(`/v1/orgs/${orgId}/spaces`, token, { title });
  expect(res.status).toBe(201);
  return res.body as { id: string; revision: string };
}

const NO_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

describe('space content', () => {
  it('serves a new space as an empty first revision, the same on every read', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const s = await space(admin.token, orgId);
    const a = await t.get(`/v1/spaces/${s.id}/content`, members[0]!.token);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ object: 'revision', id: s.revision, parents: [], pages: [], files: [], variables: {}, type: 'initial' });
    const b = await t.get(`/v1/spaces/${s.id}/content?metadata=false&computed=false`, members[0]!.token);
    expect(b.body).toEqual(a.body);
    const bad = await t.get(`/v1/spaces/${s.id}/content?metadata=maybe`, admin.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^Invalid query parameter field "metadata"/);
    const stranger = await t.user();
    const hidden = await t.get(`/v1/spaces/${s.id}/content`, stranger.token);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message).toBe('No matching space found.');
  });

  it('serves the page tree, a page as markdown or document, and evaluates variables on request', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const ids = await editLive(t.db, { spaceId: s.id }, (doc) => {
      setVariable(doc, 'version', '2.1');
      const guide = createPage(doc, { title: 'Guide', emoji: '📘', description: 'All about it' });
      const install = createPage(doc, {
        title: 'Install',
        parent: guide,
        markdown: '# Install\n\nRun version {{ space.vars.version }}.\n\n```sh\nnpm i\n```\n',
      });
      const group = createPage(doc, { title: 'Reference', type: 'group' });
      return { guide, install, group };
    });
    const pages = await t.get(`/v1/spaces/${s.id}/content/pages`, admin.token);
    expect(pages.status).toBe(200);
    expect(pages.body.pages).toMatchObject([
      {
        id: ids.guide,
        title: 'Guide',
        emoji: '📘',
        path: 'guide',
        description: 'All about it',
        type: 'document',
        hidden: false,
        pages: [{ id: ids.install, path: 'guide/install', pages: [] }],
      },
      { id: ids.group, type: 'group', pages: [] },
    ]);
    const content = await t.get(`/v1/spaces/${s.id}/content`, admin.token);
    expect(content.body.variables).toEqual({ version: '2.1' });
    expect(content.body.pages).toEqual(pages.body.pages);

    const md = await t.get(`/v1/spaces/${s.id}/content/page/${ids.install}?format=markdown`, admin.token);
    expect(md.status).toBe(200);
    expect(md.body).toMatchObject({ id: ids.install, title: 'Install', path: 'guide/install', slug: 'install' });
    expect(md.body.markdown).toBe('# Install\n\nRun version {{ space.vars.version }}.\n\n```sh\nnpm i\n```\n');
    const evaluated = await t.get(
      `/v1/spaces/${s.id}/content/page/${ids.install}?format=markdown&evaluated=true&format.markdown.refs=true`,
      admin.token,
    );
    expect(evaluated.body.markdown).toContain('Run version 2.1.');
    const doc = await t.get(`/v1/spaces/${s.id}/content/page/${ids.install}`, admin.token);
    expect(doc.body.markdown).toBeUndefined();
    expect(doc.body.document).toMatchObject({ object: 'document' });
    expect(JSON.stringify(doc.body.document)).toContain('npm i');
    expect((await t.get(`/v1/spaces/${s.id}/content/page/${ids.install}`, admin.token)).body).toEqual(doc.body);

    const badFormat = await t.get(`/v1/spaces/${s.id}/content/page/${ids.install}?format=html`, admin.token);
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.error.message).toMatch(/^Invalid query parameter field "format"/);
    const unknown = await t.get(`/v1/spaces/${s.id}/content/page/${NO_ID}`, admin.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('No matching page found.');
    const stranger = await t.user();
    expect((await t.get(`/v1/spaces/${s.id}/content/page/${ids.install}`, stranger.token)).status).toBe(404);
  });

  it('reports links with their status and stats, and backlinks of pages', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const ids = await editLive(t.db, { spaceId: s.id }, (doc) => {
      const target = createPage(doc, { title: 'Target', markdown: '## Setup\n\nText.\n' });
      const source = createPage(doc, {
        title: 'Source',
        markdown: [
          `[ok page](page:${target})`,
          `[ok anchor](page:${target}#setup)`,
          `[missing anchor](page:${target}#nowhere)`,
          `[missing page](page:${NO_ID})`,
          '[external](https://example.com/docs)',
          '[app](http://quire.test/app/spaces/x)',
          '[unresolved](../other.md)',
          '',
        ].join('\n\n'),
      });
      const other = createPage(doc, { title: 'Other', markdown: `[again](page:${target})\n` });
      return { target, source, other };
    });
    const links = await t.get(`/v1/spaces/${s.id}/content/page/${ids.source}/links`, admin.token);
    expect(links.status).toBe(200);
    expect(links.body.stats).toEqual({ total: 7, broken: { total: 3, changeRequest: 0 } });
    const status = Object.fromEntries(
      links.body.items.map(
        (i: { status: string; targetReference: { kind: string; url?: string; page?: { id: string }; anchor?: string } }) => [
          i.targetReference.url ?? `${i.targetReference.page?.id}#${i.targetReference.anchor ?? ''}`,
          i.status,
        ],
      ),
    );
    expect(status).toEqual({
      [`${ids.target}#`]: 'ok',
      [`${ids.target}#setup`]: 'ok',
      [`${ids.target}#nowhere`]: 'broken',
      [`${NO_ID}#`]: 'broken',
      'https://example.com/docs': 'ok',
      'http://quire.test/app/spaces/x': 'in-app',
      '../other.md': 'broken',
    });
    expect(links.body.items[0].locationReferences[0]).toMatchObject({
      kind: 'page',
      page: { id: ids.source, title: 'Source', path: 'source' },
      space: { object: 'space', id: s.id },
      organization: { object: 'organization', id: orgId },
      versionContext: { type: 'revision' },
    });
    const paged = await t.get(`/v1/spaces/${s.id}/content/page/${ids.source}/links?limit=5`, admin.token);
    const rest = await t.get(`/v1/spaces/${s.id}/content/page/${ids.source}/links?limit=5&page=${paged.body.next.page}`, admin.token);
    expect(paged.body.items.length + rest.body.items.length).toBe(7);
    expect(rest.body.next).toBeUndefined();

    const all = await t.get(`/v1/spaces/${s.id}/links`, admin.token);
    expect(all.body.stats).toEqual({ total: 7, broken: { total: 3, changeRequest: 0 } });
    const shared = all.body.items.find(
      (i: { targetReference: { page?: { id: string }; anchor?: string } }) =>
        i.targetReference.page?.id === ids.target && !i.targetReference.anchor,
    );
    expect(shared.locationReferences.map((l: { page: { id: string } }) => l.page.id).sort()).toEqual([ids.source, ids.other].sort());

    const backlinks = await t.get(`/v1/spaces/${s.id}/content/page/${ids.target}/backlinks`, admin.token);
    expect(backlinks.status).toBe(200);
    expect(backlinks.body.items.map((i: { page: { id: string } }) => i.page.id).sort()).toEqual([ids.source, ids.other].sort());
    expect(backlinks.body.items[0]).toMatchObject({ kind: 'page', space: { id: s.id }, versionContext: { type: 'revision' } });
    expect((await t.get(`/v1/spaces/${s.id}/content/page/${NO_ID}/backlinks`, admin.token)).status).toBe(404);
    expect((await t.get(`/v1/spaces/${s.id}/content/page/${NO_ID}/links`, admin.token)).status).toBe(404);
    const stranger = await t.user();
    const hiddenLinks = await t.get(`/v1/spaces/${s.id}/links`, stranger.token);
    expect(hiddenLinks.status).toBe(404);
    expect(hiddenLinks.body.error.message).toBe('No matching space found.');
    expect((await t.get(`/v1/spaces/${s.id}/links?limit=1001`, admin.token)).status).toBe(400);
  });

  it('applies built-in templates, checking content references first', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const s = await space(admin.token, orgId);
    const path = `/v1/spaces/${s.id}/content/template`;
    const applied = await t.post(path, admin.token, { id: 'getting-started' });
    expect(applied.status).toBe(204);
    const content = await t.get(`/v1/spaces/${s.id}/content`, admin.token);
    expect(content.body.pages.map((p: { title: string }) => p.title)).toEqual(['Welcome', 'Quickstart', 'FAQ']);
    expect(content.body.type).toBe('template');
    const welcome = content.body.pages[0].id;
    const links = await t.get(`/v1/spaces/${s.id}/content/page/${welcome}/links`, admin.token);
    expect(links.body.stats.broken.total).toBe(0);
    const other = await space(admin.token, orgId);
    expect((await t.post(`/v1/spaces/${other.id}/content/template`, admin.token, { id: 'product-docs' })).status).toBe(204);
    const tree = (await t.get(`/v1/spaces/${other.id}/content/pages`, admin.token)).body.pages as {
      title: string;
      type: string;
      pages: { title: string }[];
    }[];
    expect(tree.map((p) => [p.title, p.type, p.pages.map((c) => c.title)])).toEqual([
      ['Overview', 'document', []],
      ['Guides', 'group', ['Creating your first project', 'Inviting your team']],
      ['Changelog', 'document', []],
    ]);

    const unknown = await t.post(path, admin.token, { id: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^Invalid body field "id": no template "nope"/);
    const noRef = await t.post(path, admin.token, { id: 'api-reference' });
    expect(noRef.status).toBe(400);
    expect(noRef.body.error.message).toBe(
      'Missing body field "params.contentRefs.spec": the api-reference template needs a content reference of kind openapi.',
    );
    const badRef = await t.post(path, admin.token, {
      id: 'api-reference',
      params: { contentRefs: { spec: { kind: 'openapi', spec: 'missing' } } },
    });
    expect(badRef.status).toBe(404);
    expect(badRef.body.error.message).toBe('No matching OpenAPI specification found.');
    const reader = await t.post(path, members[0]!.token, { id: 'getting-started' });
    expect(reader.status).toBe(403);
    await t.patch(`/v1/spaces/${s.id}`, admin.token, { editMode: 'locked' });
    const locked = await t.post(path, admin.token, { id: 'getting-started' });
    expect(locked.status).toBe(409);
    expect((await t.get(`/v1/spaces/${s.id}/content`, admin.token)).body.id).toBe(content.body.id);
  });

  it('makes an API reference page from an OpenAPI spec', async () => {
    const { orgId, admin } = await t.org();
    const spec = {
      openapi: '3.0.0',
      info: { title: 'Pets', version: '1' },
      paths: { '/pets': { get: { summary: 'List pets', responses: { 200: { description: 'The pets' } } } } },
    };
    const created = await t.post(`/v1/orgs/${orgId}/openapi`, admin.token, { slug: 'pets', source: { text: JSON.stringify(spec) } });
    expect(created.status).toBe(201);
    for (let i = 0; i < 100; i++) {
      const state = await t.get(`/v1/orgs/${orgId}/openapi/pets`, admin.token);
      if (state.body.lastProcessedAt) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const s = await space(admin.token, orgId);
    const applied = await t.post(`/v1/spaces/${s.id}/content/template`, admin.token, {
      id: 'api-reference',
      params: { contentRefs: { spec: { kind: 'openapi', spec: 'pets' } } },
    });
    expect(applied.status).toBe(204);
    const pages = await t.get(`/v1/spaces/${s.id}/content/pages`, admin.token);
    const page = pages.body.pages[0];
    expect(page).toMatchObject({
      title: 'API reference',
      computed: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } } },
    });
    const md = await t.get(`/v1/spaces/${s.id}/content/page/${page.id}?format=markdown`, admin.token);
    expect(md.body.markdown).toContain('List pets');
    expect(md.body.markdown).toContain('GET /pets');
    const raw = await t.get(`/v1/spaces/${s.id}/content/page/${page.id}?format=markdown&computed=false`, admin.token);
    expect(raw.body.markdown).not.toContain('List pets');
  });

  it('copies the content when a space is duplicated', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    await editLive(t.db, { spaceId: s.id }, (doc) => createPage(doc, { title: 'Only page', markdown: 'Copied text.\n' }));
    const copy = await t.post(`/v1/spaces/${s.id}/duplicate`, admin.token);
    expect(copy.status).toBe(200);
    expect(copy.body.revision).not.toBe('');
    expect(copy.body.revision).not.toBe((await t.get(`/v1/spaces/${s.id}`, admin.token)).body.revision);
    const pages = await t.get(`/v1/spaces/${copy.body.id}/content/pages`, admin.token);
    expect(pages.body.pages.map((p: { title: string }) => p.title)).toEqual(['Only page']);
    const found = await t.get(`/v1/spaces/${copy.body.id}/search?query=copied`, admin.token);
    expect(found.body.count).toBe(1);
  });
});

describe('content reads, for every operation', () => {
  it('answer 404 to callers who cannot see the space and 400 to bad list parameters', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const pageId = await editLive(t.db, { spaceId: s.id }, (doc) => createPage(doc, { title: 'Page' }));
    const cr = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, {});
    const S = `/v1/spaces/${s.id}`;
    const CR = `${S}/change-requests/${cr.body.id}`;
    const reads = [
      `${S}/content`,
      `${S}/content/pages`,
      `${S}/content/files`,
      `${S}/content/page/${pageId}`,
      `${S}/content/page/${pageId}/links`,
      `${S}/content/page/${pageId}/backlinks`,
      `${S}/links`,
      `${S}/search?query=page`,
      `${CR}/content`,
      `${CR}/content/pages`,
      `${CR}/content/files`,
      `${CR}/content/page/${pageId}`,
      `${CR}/content/page/${pageId}/links`,
      `${CR}`,
      `${CR}/reviews`,
      `${CR}/requested-reviewers`,
      `${CR}/pdf`,
      `${S}/change-requests`,
    ];
    const stranger = await t.user();
    for (const path of reads) {
      const own = await t.get(path, admin.token);
      expect(own.status, path).toBe(200);
      const hidden = await t.get(path, stranger.token);
      expect(hidden.status, path).toBe(404);
      expect(hidden.body.error.message, path).toBe('No matching space found.');
    }
    const lists = [
      `${S}/content/files`,
      `${S}/links`,
      `${S}/content/page/${pageId}/links`,
      `${S}/content/page/${pageId}/backlinks`,
      `${CR}/content/files`,
      `${CR}/reviews`,
    ];
    for (const path of lists) {
      const bad = await t.get(`${path}?limit=abc`, admin.token);
      expect(bad.status, path).toBe(400);
      expect(bad.body.error.message).toBe('Invalid query parameter field "limit": must be a whole number from 1 to 1000.');
      const cursor = await t.get(`${path}?page=garbage`, admin.token);
      expect(cursor.status, path).toBe(400);
    }
    const noAuth = await t.get(`${S}/content`);
    expect(noAuth.status).toBe(401);
  });
});

describe('search', () => {
  it('finds pages by title and section text, ranked, with section anchors', async () => {
    const { orgId, admin, members } = await t.org([null]);
    const s = await space(admin.token, orgId, 'Handbook');
    const ids = await editLive(t.db, { spaceId: s.id }, (doc) => ({
      install: createPage(doc, {
        title: 'Installation',
        markdown:
          'Intro text.\n\n## Requirements\n\nYou need a recent Node runtime.\n\n## Upgrading\n\nInstalling a new version keeps data.\n',
      }),
      other: createPage(doc, { title: 'Billing', markdown: 'Invoices are monthly. Node is not involved.\n' }),
      invoices: createPage(doc, { title: 'Invoices', markdown: 'Sent by mail.\n' }),
    }));
    const res = await t.get(`/v1/spaces/${s.id}/search?query=${encodeURIComponent('install')}`, admin.token);
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toMatchObject({
      id: ids.install,
      title: 'Installation',
      path: 'installation',
      sections: [{ id: 'upgrading', title: 'Upgrading', path: 'installation#upgrading', body: 'Installing a new version keeps data.' }],
    });
    expect(res.body.items[0].urls.app).toMatch(/\/pages\//);
    const node = await t.get(`/v1/spaces/${s.id}/search?query=node`, admin.token);
    expect(node.body.count).toBe(2);
    expect(node.body.items.find((i: { id: string }) => i.id === ids.install).sections[0]).toMatchObject({
      id: 'requirements',
      title: 'Requirements',
    });
    // A match in the title ranks above one in the text.
    const ranked = await t.get(`/v1/spaces/${s.id}/search?query=invoices`, admin.token);
    expect(ranked.body.items.map((i: { id: string }) => i.id)).toEqual([ids.invoices, ids.other]);
    const firstPage = await t.get(`/v1/spaces/${s.id}/search?query=node&limit=1`, admin.token);
    const secondPage = await t.get(`/v1/spaces/${s.id}/search?query=node&limit=1&page=${firstPage.body.next.page}`, admin.token);
    expect([firstPage.body.items[0].id, secondPage.body.items[0].id].sort()).toEqual([ids.install, ids.other].sort());

    // Edits reach the index when their revision is cut.
    await editLive(t.db, { spaceId: s.id }, (doc) => createPage(doc, { title: 'Kubernetes', markdown: 'Deploy with helm.\n' }));
    expect((await t.get(`/v1/spaces/${s.id}/search?query=helm`, admin.token)).body.items[0].title).toBe('Kubernetes');

    const missing = await t.get(`/v1/spaces/${s.id}/search`, admin.token);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('Missing query parameter field "query".');
    const punctuation = await t.get(`/v1/spaces/${s.id}/search?query=${encodeURIComponent("'&|!")}`, admin.token);
    expect(punctuation.status).toBe(400);
    const stranger = await t.user();
    expect((await t.get(`/v1/spaces/${s.id}/search?query=node`, stranger.token)).status).toBe(404);

    const org = await t.get(`/v1/orgs/${orgId}/search?query=helm`, admin.token);
    expect(org.status).toBe(200);
    expect(org.body.items).toMatchObject([{ id: s.id, title: 'Handbook', pages: [{ title: 'Kubernetes', path: 'kubernetes' }] }]);
    // A guest without grants sees no space, so finds nothing.
    const guest = await t.get(`/v1/orgs/${orgId}/search?query=helm`, members[0]!.token);
    expect(guest.body).toEqual({ items: [], count: 0 });
    expect((await t.get(`/v1/orgs/${orgId}/search?query=helm`, stranger.token)).status).toBe(404);
  });
});
