import { createPage, deletePage, getPageMarkdown, listPages, setPageMarkdown, updatePage } from '@quire/shared/content/index';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editLive } from '../../testing/testEdits';
import { getChangeRequest } from '../../store/changeRequests';
import { maybeOne } from '../../store/db';
import { getRevisionHead, latestRevisionHead } from '../../store/revisions';
import { compactDoc, loadYDoc } from '../../store/ydocs';
import { TestServer } from '../../testing/harness';
import { isOutdated, mergeChangeRequest, openChangeRequest, updateFromMain } from './changeRequests';
import { contentAtRevision, cutRevision, docAtRevision, revisionState } from './revisions';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

/** What a reader sees of a branch: the pages in tree order with their fields and markdown. */
function snapshot(doc: Y.Doc) {
  return listPages(doc).map((p) => ({ ...p, markdown: getPageMarkdown(doc, p.id) }));
}

function docOf(update: Uint8Array): Y.Doc {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, update);
  return doc;
}

async function setup() {
  const { orgId, admin } = await t.org();
  const res = await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Revisions' });
  expect(res.status).toBe(201);
  const spaceId = res.body.id as string;
  return { admin, spaceId, main: { spaceId }, mainId: `space:${spaceId}` };
}

async function spaceRevision(spaceId: string): Promise<string> {
  const row = await maybeOne<{ revision_id: string }>(t.db, 'SELECT revision_id FROM spaces WHERE id = $1', [spaceId]);
  return row?.revision_id as string;
}

describe('revisions and change request branches', () => {
  it("forks a change request from main's revision: its document starts as a copy of main's state, live edits included", async () => {
    const { admin, spaceId, main, mainId } = await setup();
    // Typed live and not yet in a revision: the fork cuts it first.
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Guide', markdown: 'Live text.\n' }), false);
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Fork' });

    const mainHead = await latestRevisionHead(t.db, mainId);
    expect(mainHead?.id).toBe(await spaceRevision(spaceId));
    expect(cr.revision_initial).toBe(mainHead?.id);
    expect(cr.revision_merged_ancestor).toBe(mainHead?.id);
    const mainState = await revisionState(t.db, mainHead?.id as string);
    expect(snapshot(docOf(mainState)).map((p) => p.title)).toEqual(['Guide']);

    const { doc: branch } = await loadYDoc(t.db, `cr:${cr.id}`);
    expect(Y.encodeStateVector(branch)).toEqual(Y.encodeStateVectorFromUpdate(mainState));
    expect(snapshot(branch)).toEqual(snapshot(docOf(mainState)));
    expect(cr.fork_state_vector).toEqual(Y.encodeStateVectorFromUpdate(mainState));
    const fork = await getRevisionHead(t.db, cr.revision_id);
    expect(fork).toMatchObject({ type: 'fork', parents: [mainHead?.id], branch: `cr:${cr.id}` });
    expect(snapshot(await docAtRevision(t.db, cr.revision_id))).toEqual(snapshot(branch));
  });

  it("merges by applying encodeStateAsUpdate(branch, forkStateVector) to main, in a 'merge' revision whose parents are both heads", async () => {
    const { admin, spaceId, main, mainId } = await setup();
    const pageId = await editLive(t.db, main, (doc) => createPage(doc, { title: 'Guide', markdown: 'First line.\n' }));
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Edits' });
    const crBranch = { spaceId, changeRequestId: cr.id };
    await editLive(t.db, crBranch, (doc) => {
      createPage(doc, { title: 'New page', markdown: 'From the change request.\n' });
      setPageMarkdown(doc, pageId, 'First line.\n\nAdded in the change request.\n');
    });
    await editLive(t.db, main, (doc) => updatePage(doc, pageId, { title: 'Guide, renamed on main' }));

    const expected = (await loadYDoc(t.db, mainId)).doc;
    const branch = (await loadYDoc(t.db, `cr:${cr.id}`)).doc;
    Y.applyUpdate(expected, Y.encodeStateAsUpdate(branch, cr.fork_state_vector));
    const mainBefore = await latestRevisionHead(t.db, mainId);
    const crHead = await latestRevisionHead(t.db, `cr:${cr.id}`);

    const merged = await mergeChangeRequest(t.db, cr.id, admin.id);
    const head = await getRevisionHead(t.db, merged.revision);
    expect(head).toMatchObject({ type: 'merge', parents: [mainBefore?.id, crHead?.id], branch: mainId });
    expect(await spaceRevision(spaceId)).toBe(merged.revision);
    const result = snapshot(await docAtRevision(t.db, merged.revision));
    expect(result).toEqual(snapshot(expected));
    expect(result.map((p) => p.title)).toEqual(['Guide, renamed on main', 'New page']);
  });

  it("updates a branch from main with main's missing updates, even a deletion that leaves main's state vector as it was", async () => {
    const { admin, spaceId, main, mainId } = await setup();
    const [, drop] = await editLive(t.db, main, (doc) => [createPage(doc, { title: 'Keep' }), createPage(doc, { title: 'Drop' })]);
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Behind' });
    const crId = `cr:${cr.id}`;
    await editLive(t.db, { spaceId, changeRequestId: cr.id }, (doc) => createPage(doc, { title: 'Mine' }));

    const vectorBefore = Y.encodeStateVector((await loadYDoc(t.db, mainId)).doc);
    await editLive(t.db, main, (doc) => deletePage(doc, drop as string));
    expect(Y.encodeStateVector((await loadYDoc(t.db, mainId)).doc)).toEqual(vectorBefore);
    const mainHead = await latestRevisionHead(t.db, mainId);
    expect(isOutdated(cr, await spaceRevision(spaceId))).toBe(true);

    const crBefore = await latestRevisionHead(t.db, crId);
    const updated = await updateFromMain(t.db, cr.id, admin.id);
    const head = await getRevisionHead(t.db, updated.revision);
    expect(head).toMatchObject({ type: 'update', parents: [crBefore?.id, mainHead?.id], branch: crId });
    const after = await getChangeRequest(t.db, cr.id);
    expect(after?.revision_merged_ancestor).toBe(mainHead?.id);
    expect(isOutdated(after as NonNullable<typeof after>, await spaceRevision(spaceId))).toBe(false);
    expect(snapshot(await docAtRevision(t.db, updated.revision)).map((p) => p.title)).toEqual(['Keep', 'Mine']);
  });

  it('never changes a revision: an early one reads the same after later edits, cuts, a merge and a compaction', async () => {
    const { admin, spaceId, main, mainId } = await setup();
    const ids = await editLive(t.db, main, (doc) => [
      createPage(doc, { title: 'One', markdown: 'One.\n' }),
      createPage(doc, { title: 'Two', markdown: 'Two.\n' }),
    ]);
    const early = (await latestRevisionHead(t.db, mainId))?.id as string;
    const row = () =>
      maybeOne<Record<string, unknown>>(t.db, 'SELECT id, parents, type, state, state_base, materialized FROM revisions WHERE id = $1', [
        early,
      ]);
    const rowBefore = JSON.stringify(await row());
    const contentBefore = JSON.stringify(await contentAtRevision(t.db, early));
    const docBefore = snapshot(docOf(await revisionState(t.db, early)));

    for (let i = 0; i < 5; i++) {
      await editLive(t.db, main, (doc) => {
        setPageMarkdown(doc, ids[0] as string, `One, edit ${i}.\n`);
        createPage(doc, { title: `Page ${i}`, markdown: `${'More text. '.repeat(200)}\n` });
      });
    }
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Later' });
    await editLive(t.db, { spaceId, changeRequestId: cr.id }, (doc) => deletePage(doc, ids[1] as string));
    await mergeChangeRequest(t.db, cr.id, admin.id);
    await compactDoc(t.db, mainId);
    await cutRevision(t.db, main);

    expect(JSON.stringify(await row())).toBe(rowBefore);
    expect(JSON.stringify(await contentAtRevision(t.db, early))).toBe(contentBefore);
    expect(snapshot(docOf(await revisionState(t.db, early)))).toEqual(docBefore);
    expect(snapshot(await docAtRevision(t.db, early))).toEqual(docBefore);
    expect(docBefore.map((p) => p.title)).toEqual(['One', 'Two']);
  });
});
