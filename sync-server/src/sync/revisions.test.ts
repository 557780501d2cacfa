import { createPage } from '@quire/shared/content/index';
import { spaceRoom } from '@quire/shared/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { appendUpdate, loadDocUpdate } from '../store/ydocs';
import { LiveServer, acknowledged, synced, waitFor } from '../testing/syncClients';

const QUIET_MS = 300;

let s: LiveServer;
beforeAll(async () => {
  s = await LiveServer.start({ sync: { quietMs: QUIET_MS } });
});
afterAll(async () => s?.close());

async function fixture() {
  const { orgId, admin } = await s.t.org();
  const spaceId = await s.space(orgId, admin.token);
  return { admin, spaceId, room: spaceRoom(spaceId) };
}

const revisionOf = async (spaceId: string, token: string) => (await s.t.get(`/v1/spaces/${spaceId}`, token)).body.revision as string;

describe('live edits reach the REST reads', () => {
  it('cuts a revision once the edits go quiet, while the client stays connected', async () => {
    const { admin, spaceId, room } = await fixture();
    const before = await revisionOf(spaceId, admin.token);
    const p = s.provider(room, admin.token);
    await synced(p);
    const pageId = createPage(p.doc, { title: 'Live', markdown: 'Typed in the editor.' });
    await acknowledged(p);
    await waitFor(async () => (await revisionOf(spaceId, admin.token)) !== before, 'a new revision', QUIET_MS + 5000);
    const page = await s.t.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`, admin.token);
    expect(page.status).toBe(200);
    expect(page.body.title).toBe('Live');
    expect(page.body.markdown).toContain('Typed in the editor.');
    expect(p.wsconnected).toBe(true);
    p.destroy();
  });

  it('records the revision of live edits as the writer’s, and lists every page it touched in a page’s history', async () => {
    const { orgId, admin, members } = await s.t.org(['edit']);
    const spaceId = await s.space(orgId, admin.token);
    const writer = members[0] as { token: string };
    const me = (await s.t.get('/v1/user', writer.token)).body as { id: string };
    const before = await revisionOf(spaceId, admin.token);
    const p = s.provider(spaceRoom(spaceId), writer.token);
    await synced(p);
    const [deploy, rollback] = [
      createPage(p.doc, { title: 'Deploy', markdown: 'Run it.' }),
      createPage(p.doc, { title: 'Rollback', markdown: 'Revert it.' }),
    ];
    await acknowledged(p);
    await waitFor(async () => (await revisionOf(spaceId, admin.token)) !== before, 'a new revision', QUIET_MS + 5000);
    const listed = await s.t.get(`/v1/spaces/${spaceId}/content/page/${deploy}/revisions`, admin.token);
    expect(listed.body.items[0]).toMatchObject({ type: 'edits', createdBy: me.id });
    expect(listed.body.items[0].pages).toEqual(
      expect.arrayContaining([
        { id: deploy, title: 'Deploy', change: 'added' },
        { id: rollback, title: 'Rollback', change: 'added' },
      ]),
    );
    p.destroy();
  });

  it('serves a page a minimal Yjs client wrote, under its key in the pages map, with defaults and its unknown keys kept', async () => {
    const { admin, spaceId, room } = await fixture();
    const before = await revisionOf(spaceId, admin.token);
    const p = s.provider(room, admin.token);
    await synced(p);
    const pageId = 'MinimalClientPage00001';
    p.doc.transact(() => {
      const page = new Y.Map<unknown>();
      p.doc.getMap('pages').set(pageId, page);
      page.set('title', 'Written elsewhere');
      page.set('type', 'document');
      page.set('parent', null);
      page.set('order', 'a0');
      page.set('x-plugin', { color: 'teal' });
      const body = new Y.XmlFragment();
      page.set('body', body);
      const paragraph = new Y.XmlElement('paragraph');
      body.insert(0, [paragraph]);
      paragraph.insert(0, [new Y.XmlText('Plain Yjs.')]);
    });
    await acknowledged(p);
    await waitFor(async () => (await revisionOf(spaceId, admin.token)) !== before, 'a new revision', QUIET_MS + 5000);
    const page = await s.t.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`, admin.token);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      id: pageId,
      title: 'Written elsewhere',
      type: 'document',
      slug: 'written-elsewhere',
      path: 'written-elsewhere',
      markdown: 'Plain Yjs.\n',
    });
    const stored = new Y.Doc();
    Y.applyUpdate(stored, (await loadDocUpdate(s.db, `space:${spaceId}`)).update);
    expect((stored.getMap('pages').get(pageId) as Y.Map<unknown>).get('x-plugin')).toEqual({ color: 'teal' });
    p.destroy();
  });

  it('cuts a revision on start for logged edits that no revision holds', async () => {
    const { admin, spaceId } = await fixture();
    const before = await revisionOf(spaceId, admin.token);
    // Edits a server stored and relayed just before it died, without their revision.
    const doc = new Y.Doc();
    Y.applyUpdate(doc, (await loadDocUpdate(s.db, `space:${spaceId}`)).update);
    const sv = Y.encodeStateVector(doc);
    createPage(doc, { title: 'Before the crash', markdown: 'Logged, not yet in a revision.' });
    await s.db.transaction((tx) => appendUpdate(tx, `space:${spaceId}`, Y.encodeStateAsUpdate(doc, sv), 'a-dead-instance'));
    expect(await revisionOf(spaceId, admin.token)).toBe(before);
    const restarted = await LiveServer.start({}, s.db);
    try {
      await waitFor(async () => (await revisionOf(spaceId, admin.token)) !== before, 'the revision cut on start', 10_000);
      const pages = await s.t.get(`/v1/spaces/${spaceId}/content/pages`, admin.token);
      expect(JSON.stringify(pages.body)).toContain('Before the crash');
    } finally {
      await restarted.close();
    }
  });
});
