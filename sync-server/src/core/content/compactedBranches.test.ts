import { createPage, listPages } from '@quire/shared/content/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editLive } from '../../testing/testEdits';
import { maybeOne } from '../../store/db';
import { getRevisionHead } from '../../store/revisions';
import { compactDoc, loadYDoc } from '../../store/ydocs';
import { TestServer } from '../../testing/harness';
import { mergeChangeRequest, openChangeRequest, updateFromMain } from './changeRequests';

/**
 * Idle live rooms fold their update log into a snapshot. A merge or an update from main
 * that reads "the updates since the fork" must notice when those rows are gone and fall
 * back to the revision states, or it silently drops what the writer did.
 */
let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

async function setup() {
  const { orgId, admin } = await t.org();
  const spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Compaction' })).body.id as string;
  const main = { spaceId };
  await editLive(t.db, main, (doc) => createPage(doc, { title: 'Main', markdown: 'On main.\n' }));
  const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Edits' });
  return { admin, spaceId, main, cr, crBranch: { spaceId, changeRequestId: cr.id } };
}

const titles = async (docId: string) =>
  listPages((await loadYDoc(t.db, docId)).doc)
    .map((p) => p.title)
    .sort();

async function snapshotSeq(docId: string) {
  return Number(
    (await maybeOne<{ snapshot_seq: number }>(t.db, 'SELECT snapshot_seq FROM ydocs WHERE id = $1', [docId]))?.snapshot_seq ?? 0,
  );
}

describe('change requests whose logs were compacted', () => {
  it('merges every page of a change request whose log was folded into its snapshot', async () => {
    const { admin, spaceId, cr, crBranch } = await setup();
    await editLive(t.db, crBranch, (doc) => createPage(doc, { title: 'From CR', markdown: 'Written in the request.\n' }));
    await compactDoc(t.db, `cr:${cr.id}`);
    expect(await snapshotSeq(`cr:${cr.id}`)).toBeGreaterThan(cr.fork_doc_seq);

    await mergeChangeRequest(t.db, cr.id, admin.id);
    expect(await titles(`space:${spaceId}`)).toEqual(['From CR', 'Main']);
  });

  it('merges edits made both before and after a compaction', async () => {
    const { admin, spaceId, cr, crBranch } = await setup();
    await editLive(t.db, crBranch, (doc) => createPage(doc, { title: 'Before', markdown: 'a\n' }));
    await compactDoc(t.db, `cr:${cr.id}`);
    await editLive(t.db, crBranch, (doc) => createPage(doc, { title: 'After', markdown: 'b\n' }));

    await mergeChangeRequest(t.db, cr.id, admin.id);
    expect(await titles(`space:${spaceId}`)).toEqual(['After', 'Before', 'Main']);
  });

  it("takes in main's pages when main's log was compacted after the fork", async () => {
    const { admin, spaceId, main, cr, crBranch } = await setup();
    await editLive(t.db, crBranch, (doc) => createPage(doc, { title: 'From CR', markdown: 'c\n' }));
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Later on main', markdown: 'd\n' }));
    await compactDoc(t.db, `space:${spaceId}`);

    await updateFromMain(t.db, cr.id, admin.id);
    expect(await titles(`cr:${cr.id}`)).toEqual(['From CR', 'Later on main', 'Main']);
  });

  it("still takes in only main's later edits when main's log was compacted exactly up to the fork", async () => {
    const { admin, spaceId, main } = await setup();
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Long', markdown: `${'Long text. '.repeat(6000)}\n` }));
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Forked after the long page' });
    await compactDoc(t.db, `space:${spaceId}`);
    expect(await snapshotSeq(`space:${spaceId}`)).toBe((await getRevisionHead(t.db, cr.revision_merged_ancestor))?.doc_seq);
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Later on main', markdown: 'e\n' }));

    await updateFromMain(t.db, cr.id, admin.id);
    expect(await titles(`cr:${cr.id}`)).toEqual(['Later on main', 'Long', 'Main']);
    // The rows after the fork are all still logged: the branch receives them, not main's whole state.
    const [row] = await t.db.query<{ update: Uint8Array }>('SELECT update FROM ydoc_updates WHERE doc_id = $1 ORDER BY seq DESC LIMIT 1', [
      `cr:${cr.id}`,
    ]);
    expect(row?.update.byteLength).toBeLessThan(5000);
  });
});
