import { readFileSync } from 'node:fs';
import {
  createPage,
  deletePage,
  getPageMarkdown,
  listPages,
  markPageRestored,
  setPageDocument,
  setPageMarkdown,
  updatePage,
} from '@quire/shared/content/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer } from '../../testing/harness';
import { editLive } from '../../testing/testEdits';
import * as Y from 'yjs';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

async function space(token: string, orgId: string) {
  const res = await t.post(`/v1/orgs/${orgId}/spaces`, token, { title: 'Docs' });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

interface Listed {
  revision: string;
  change: string;
  title: string;
  type: string;
  createdAt: string;
  urls: { page: string };
}

/** A page written three times, another page edited in between, then the first one renamed. */
async function editedPage() {
  const { orgId, admin, members } = await t.org(['read']);
  const s = await space(admin.token, orgId);
  const guide = await editLive(t.db, { spaceId: s.id }, (doc) => createPage(doc, { title: 'Guide', markdown: 'First words.\n' }));
  const other = await editLive(t.db, { spaceId: s.id }, (doc) => createPage(doc, { title: 'Other', markdown: 'Elsewhere.\n' }));
  await editLive(t.db, { spaceId: s.id }, (doc) => setPageMarkdown(doc, guide, 'First words.\n\nSecond paragraph.\n'));
  await editLive(t.db, { spaceId: s.id }, (doc) => setPageMarkdown(doc, other, 'Elsewhere, edited.\n'));
  await editLive(t.db, { spaceId: s.id }, (doc) => updatePage(doc, guide, { title: 'User guide' }));
  return { orgId, admin, reader: members[0]!, s, guide, other };
}

describe('page history', () => {
  it('lists the revisions that changed a page, newest first, to a reader; other pages’ edits are not in it', async () => {
    const { reader, s, guide } = await editedPage();
    const res = await t.get(`/v1/spaces/${s.id}/content/page/${guide}/revisions`, reader.token);
    expect(res.status).toBe(200);
    const items = res.body.items as Listed[];
    expect(res.body.count).toBe(3);
    expect(items.map((i) => [i.change, i.title])).toEqual([
      ['edited', 'User guide'],
      ['edited', 'Guide'],
      ['added', 'Guide'],
    ]);
    expect(items[0]).toMatchObject({ object: 'page-revision', type: 'edits' });
    expect(Date.parse(items[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(items[2]!.createdAt));
    expect(items[0]!.urls.page).toMatch(new RegExp(`/v1/spaces/${s.id}/revisions/${items[0]!.revision}/page/${guide}$`));
    // The same answer twice: revisions never change.
    expect((await t.get(`/v1/spaces/${s.id}/content/page/${guide}/revisions`, reader.token)).body).toEqual(res.body);
  });

  it('pages through the history with the list cursor', async () => {
    const { reader, s, guide } = await editedPage();
    const first = await t.get(`/v1/spaces/${s.id}/content/page/${guide}/revisions?limit=2`, reader.token);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.count).toBe(3);
    const rest = await t.get(
      `/v1/spaces/${s.id}/content/page/${guide}/revisions?limit=2&page=${encodeURIComponent(first.body.next.page)}`,
      reader.token,
    );
    expect(rest.body.items.map((i: Listed) => i.change)).toEqual(['added']);
    expect(rest.body.next).toBeUndefined();
  });

  it('reads the page as it was in any of its revisions, exactly (body) or as markdown', async () => {
    const { reader, s, guide } = await editedPage();
    const items = (await t.get(`/v1/spaces/${s.id}/content/page/${guide}/revisions`, reader.token)).body.items as Listed[];
    const oldest = items.at(-1)!;
    const md = await t.get(`/v1/spaces/${s.id}/revisions/${oldest.revision}/page/${guide}?format=markdown`, reader.token);
    expect(md.status).toBe(200);
    expect(md.body).toMatchObject({ object: 'revision-page', revision: oldest.revision, page: { id: guide, title: 'Guide' } });
    expect(md.body.page.markdown.trim()).toBe('First words.');
    const body = await t.get(`/v1/spaces/${s.id}/revisions/${items[1]!.revision}/page/${guide}?format=body`, reader.token);
    expect(body.body.body).toMatchObject({ type: 'doc', content: [{ type: 'paragraph' }, { type: 'paragraph' }] });
    expect(body.body.page.markdown).toBeUndefined();
    const doc = await t.get(`/v1/spaces/${s.id}/revisions/${oldest.revision}/page/${guide}`, reader.token);
    expect(doc.body.page.document).toBeTruthy();
  });

  it('keeps listing a page deleted since, with its removal', async () => {
    const { admin, s, guide } = await editedPage();
    await editLive(t.db, { spaceId: s.id }, (doc) => deletePage(doc, guide));
    const res = await t.get(`/v1/spaces/${s.id}/content/page/${guide}/revisions`, admin.token);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: Listed) => [i.change, i.title])[0]).toEqual(['removed', 'User guide']);
  });

  it('refuses other organizations, unknown pages and revisions, and bad input', async () => {
    const { s, guide, admin } = await editedPage();
    const stranger = await t.user();
    const hidden = await t.get(`/v1/spaces/${s.id}/content/page/${guide}/revisions`, stranger.token);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message).toBe('No matching space found.');
    const items = (await t.get(`/v1/spaces/${s.id}/content/page/${guide}/revisions`, admin.token)).body.items as Listed[];
    expect((await t.get(`/v1/spaces/${s.id}/revisions/${items[0]!.revision}/page/${guide}`, stranger.token)).status).toBe(404);

    // A revision of another space (of the caller's own organization) is not this space's.
    const other = await editedPage();
    const theirs = (await t.get(`/v1/spaces/${other.s.id}/content/page/${other.guide}/revisions`, other.admin.token)).body
      .items as Listed[];
    const foreign = await t.get(`/v1/spaces/${s.id}/revisions/${theirs[0]!.revision}/page/${guide}`, admin.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe('No matching revision found.');

    const unknown = await t.get(`/v1/spaces/${s.id}/content/page/AAAAAAAAAAAAAAAAAAAAAA/revisions`, admin.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('No matching page found.');

    const badLimit = await t.get(`/v1/spaces/${s.id}/content/page/${guide}/revisions?limit=0`, admin.token);
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error.message).toMatch(/"limit"/);
    const badCursor = await t.get(`/v1/spaces/${s.id}/content/page/${guide}/revisions?page=nonsense`, admin.token);
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error.message).toMatch(/"page"/);
    const badId = await t.get(`/v1/spaces/${s.id}/revisions/not%20an%20id/page/${guide}`, admin.token);
    expect(badId.status).toBe(400);
    expect(badId.body.error.message).toMatch(/"revisionId"/);
    const badFormat = await t.get(`/v1/spaces/${s.id}/revisions/${items[0]!.revision}/page/${guide}?format=pdf`, admin.token);
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.error.message).toMatch(/"format"/);
  });

  it('lists a page restored by a writer as a restore of that version, by that writer; an unbelievable mark reads as edits', async () => {
    const { admin, reader, s, guide } = await editedPage();
    const list = async () => (await t.get(`/v1/spaces/${s.id}/content/page/${guide}/revisions`, admin.token)).body.items as Listed[];
    const oldest = (await list()).at(-1)!;
    const old = await t.get(`/v1/spaces/${s.id}/revisions/${oldest.revision}/page/${guide}?format=body`, admin.token);
    // As the writer's client does it: the old title and body, and the mark, in one transaction.
    await editLive(t.db, { spaceId: s.id }, (doc) =>
      doc.transact(() => {
        setPageDocument(doc, guide, old.body.body);
        updatePage(doc, guide, { title: old.body.page.title });
        markPageRestored(doc, guide, { revision: oldest.revision, by: admin.id, at: new Date().toISOString() });
      }),
    );
    const [restored] = await list();
    expect(restored).toMatchObject({
      change: 'edited',
      title: 'Guide',
      type: 'restore',
      createdBy: admin.id,
      restoredFrom: oldest.revision,
    });
    const revision = await t.get(`/v1/spaces/${s.id}/revisions/${restored!.revision}/page/${guide}?format=markdown`, admin.token);
    expect(revision.body.page.markdown.trim()).toBe('First words.');

    // A mark naming someone outside the organization, or a revision of another space, proves nothing.
    const stranger = await t.user();
    const elsewhere = await editedPage();
    const foreign = (
      (await t.get(`/v1/spaces/${elsewhere.s.id}/content/page/${elsewhere.guide}/revisions`, elsewhere.admin.token)).body.items as Listed[]
    )[0]!.revision;
    for (const [i, mark] of [
      { revision: oldest.revision, by: stranger.id },
      { revision: foreign, by: reader.id },
    ].entries()) {
      await editLive(t.db, { spaceId: s.id }, (doc) =>
        doc.transact(() => {
          setPageMarkdown(doc, guide, `Edited again, ${i}.\n`);
          markPageRestored(doc, guide, { ...mark, at: new Date().toISOString() });
        }),
      );
      const [edits] = await list();
      expect(edits!.type).toBe('edits');
      expect(edits).not.toHaveProperty('createdBy');
      expect(edits).not.toHaveProperty('restoredFrom');
    }
    // A mark left over from an earlier restore makes later edits nothing but edits.
    await editLive(t.db, { spaceId: s.id }, (doc) => setPageMarkdown(doc, guide, 'Plain edit.\n'));
    expect((await list())[0]!.type).toBe('edits');
  });

  it('is in the OpenAPI document as an extension', async () => {
    const doc = (await t.get('/v1/openapi.json')).body;
    expect(doc.paths['/v1/spaces/{spaceId}/content/page/{pageId}/revisions'].get['x-quire-extension']).toBe(true);
    expect(doc.paths['/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}'].get['x-quire-extension']).toBe(true);
  });
});

describe('a revision of the main content as its Yjs state', () => {
  it('gives main as a change request started from it, not as main is now', async () => {
    const { admin, reader, s, guide } = await editedPage();
    const opened = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, { subject: 'Reword' });
    expect(opened.status).toBe(200);
    const base = opened.body.revisionMergedAncestor as string;
    await editLive(t.db, { spaceId: s.id }, (doc) => {
      setPageMarkdown(doc, guide, 'First words, and log in.\n');
      createPage(doc, { title: 'Added on main', markdown: 'New.\n' });
    });
    const res = await t.get(`/v1/spaces/${s.id}/revisions/${base}/state`, reader.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'revision-state', revision: base, permissions: { view: true } });
    expect(res.body.urls.location).toMatch(new RegExp(`/v1/spaces/${s.id}/revisions/${base}/state$`));
    const doc = new Y.Doc();
    Y.applyUpdate(doc, new Uint8Array(Buffer.from(res.body.state, 'base64')));
    expect(listPages(doc).map((p) => p.title)).toEqual(['User guide', 'Other']);
    expect(getPageMarkdown(doc, guide).trim()).toBe('First words.\n\nSecond paragraph.');
    // Revisions never change: the same answer later.
    expect((await t.get(`/v1/spaces/${s.id}/revisions/${base}/state`, reader.token)).body).toEqual(res.body);
  });

  it('is 404 for a change request’s own revision, another space’s, and a stranger; 400 for a bad id', async () => {
    const { admin, s } = await editedPage();
    const opened = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, { subject: 'Reword' });
    const own = await t.get(`/v1/spaces/${s.id}/revisions/${opened.body.revision}/state`, admin.token);
    expect(own.status).toBe(404);
    expect(own.body.error.message).toBe('No matching revision found.');
    const other = await editedPage();
    const theirs = (await t.get(`/v1/spaces/${other.s.id}`, other.admin.token)).body.revision as string;
    expect((await t.get(`/v1/spaces/${s.id}/revisions/${theirs}/state`, admin.token)).status).toBe(404);
    const stranger = await t.user();
    const hidden = await t.get(`/v1/spaces/${s.id}/revisions/${opened.body.revisionMergedAncestor}/state`, stranger.token);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message).toBe('No matching space found.');
    const bad = await t.get(`/v1/spaces/${s.id}/revisions/not%20an%20id/state`, admin.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/"revisionId"/);
    const doc = (await t.get('/v1/openapi.json')).body;
    expect(doc.paths['/v1/spaces/{spaceId}/revisions/{revisionId}/state'].get['x-quire-extension']).toBe(true);
  });
});

describe('page history of revisions cut before it was recorded', () => {
  it('is rebuilt by the migration from the revisions’ content, the same as recorded at each cut', async () => {
    const { admin, s, guide, other } = await editedPage();
    const list = async (page: string) => (await t.get(`/v1/spaces/${s.id}/content/page/${page}/revisions`, admin.token)).body;
    const recorded = [await list(guide), await list(other)];
    await t.db.query('DELETE FROM revision_pages WHERE space_id = $1', [s.id]);
    expect((await list(guide)).items).toEqual([]);
    const migration = readFileSync(new URL('../../store/migrations/031_revision_pages.sql', import.meta.url), 'utf8');
    const backfill = migration.slice(migration.indexOf('INSERT INTO revision_pages'));
    await t.db.query(backfill);
    expect([await list(guide), await list(other)]).toEqual(recorded);
  });
});
