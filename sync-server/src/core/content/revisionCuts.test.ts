import {
  addFile,
  createPage,
  createReusableContent,
  deletePage,
  getPageMarkdown,
  listFiles,
  listPages,
  setPageMarkdown,
  setVariable,
  updatePage,
} from '@quire/shared/content/index';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getChangeRequest } from '../../store/changeRequests';
import { maybeOne } from '../../store/db';
import { listPageRevisions } from '../../store/revisionPages';
import { getRevision, latestRevisionHead } from '../../store/revisions';
import { searchSections } from '../../store/search';
import { appendUpdate, compactDoc, loadYDoc } from '../../store/ydocs';
import { TestServer, type TestUser } from '../../testing/harness';
import { editLive } from '../../testing/testEdits';
import { openChangeRequest } from './changeRequests';
import {
  branchHead,
  contentAtRevision,
  copySpaceContent,
  cutRevision,
  docAtRevision,
  editBranch,
  forgetCachedRevisions,
  initSpaceContent,
  insertForkRevision,
  revisionState,
} from './revisions';

/**
 * Cutting revisions, called directly: when a cut makes a revision and when it answers the
 * head, what each revision records (type, parents, where the log stood, a delta or a whole
 * state), the page histories and webhook events it leaves, server-side edits, copies and forks.
 */
let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

async function setup() {
  const { orgId, admin } = await t.org();
  const spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Cuts' })).body.id as string;
  return { orgId, admin, spaceId, main: { spaceId }, mainId: `space:${spaceId}` };
}

const titlesAt = async (revisionId: string) => listPages(await docAtRevision(t.db, revisionId)).map((p) => p.title);

const lastSeqOf = async (docId: string) =>
  Number((await maybeOne<{ last_seq: number }>(t.db, 'SELECT last_seq FROM ydocs WHERE id = $1', [docId]))?.last_seq);

const file = (id: string) => ({ id, name: `${id}.png`, contentType: 'image/png', size: 3 });

function docOf(update: Uint8Array): Y.Doc {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, update);
  return doc;
}

async function history(spaceId: string, pageId: string) {
  const page = await listPageRevisions(t.db, spaceId, pageId, { limit: 50 });
  return page.rows.map((r) => [r.change, r.title, r.type]);
}

async function hookOn(orgId: string, admin: TestUser) {
  const hook = await t.post(`/v1/orgs/${orgId}/webhooks`, admin.token, {
    url: 'https://93.184.216.34/hook',
    events: ['page.content_changed'],
  });
  expect(hook.status).toBe(201);
  return async () =>
    (await t.db.query<{ body: string }>('SELECT body FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq', [hook.body.id])).map(
      (r) =>
        JSON.parse(r.body) as {
          changeRequest: { id: string } | null;
          revision: { id: string; url: string };
          data: { revisionType: string; pages: { id: string; url: string }[] };
        },
    );
}

describe('cutting a revision', () => {
  it('cuts only when the log moved past the head, recording type, parents and where the log stood', async () => {
    const { spaceId, main, mainId } = await setup();
    const initial = await latestRevisionHead(t.db, mainId);
    expect(initial).toMatchObject({ type: 'initial', parents: [], doc_seq: 0, state_base: null });
    expect(await cutRevision(t.db, main)).toEqual({ revision: initial, changed: false });

    await editLive(t.db, main, (doc) => createPage(doc, { title: 'One' }), false);
    const cut = await cutRevision(t.db, mainId, { createdBy: null });
    expect(cut?.changed).toBe(true);
    expect(cut?.revision).toMatchObject({
      type: 'edits',
      parents: [initial?.id],
      branch: mainId,
      space_id: spaceId,
      change_request_id: null,
      created_by: null,
    });
    const lastSeq = Number((await maybeOne<{ last_seq: number }>(t.db, 'SELECT last_seq FROM ydocs WHERE id = $1', [mainId]))?.last_seq);
    expect(cut?.revision.doc_seq).toBe(lastSeq);
    expect((await maybeOne<{ revision_id: string }>(t.db, 'SELECT revision_id FROM spaces WHERE id = $1', [spaceId]))?.revision_id).toBe(
      cut?.revision.id,
    );
    expect(await titlesAt(cut!.revision.id)).toEqual(['One']);
    expect(await cutRevision(t.db, mainId)).toEqual({ revision: cut?.revision, changed: false });
  });

  it('answers nothing for a document that is no branch, or a branch whose space is gone', async () => {
    expect(await cutRevision(t.db, 'not-a-branch')).toBeUndefined();
    expect(await cutRevision(t.db, { spaceId: 'no-such-space' })).toBeUndefined();
    expect(await t.db.transaction((tx) => branchHead(tx, { spaceId: 'no-such-space' }))).toBeUndefined();
    await expect(t.db.transaction((tx) => initSpaceContent(tx, 'no-such-space'))).rejects.toThrow('space no-such-space is missing');
    await expect(t.db.transaction((tx) => editBranch(tx, { spaceId: 'no-such-space' }, () => 1))).rejects.toThrow(
      'branch space:no-such-space has no revision',
    );
  });

  it('takes in live edits that a compaction folded into the snapshot before they were cut', async () => {
    const { main, mainId } = await setup();
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Cut' }));
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Folded' }), false);
    expect(await compactDoc(t.db, mainId)).toBeGreaterThan(0);
    const cut = await cutRevision(t.db, main);
    expect(cut?.changed).toBe(true);
    expect(await titlesAt(cut!.revision.id)).toEqual(['Cut', 'Folded']);
    forgetCachedRevisions();
    expect(listPages(docOf(await revisionState(t.db, cut!.revision.id))).map((p) => p.title)).toEqual(['Cut', 'Folded']);
  });

  it("makes the first revision of a branch that has none its 'initial' one, holding the whole document", async () => {
    const { spaceId, main, mainId } = await setup();
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Older than revisions' }), false);
    await t.db.transaction(async (tx) => {
      await tx.query('UPDATE spaces SET revision_id = NULL WHERE id = $1', [spaceId]);
      await tx.query('DELETE FROM revisions WHERE branch = $1', [mainId]);
    });
    const cut = await cutRevision(t.db, main);
    expect(cut?.revision).toMatchObject({ type: 'initial', parents: [], state_base: null });
    expect(await titlesAt(cut!.revision.id)).toEqual(['Older than revisions']);
  });

  it('moves the head along without a new revision when the log grew with nothing new', async () => {
    const { main, mainId } = await setup();
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'One' }));
    const head = await latestRevisionHead(t.db, mainId);
    // A reconnecting client re-sends what the document already holds.
    const { doc } = await loadYDoc(t.db, mainId);
    const seq = await appendUpdate(t.db, mainId, Y.encodeStateAsUpdate(doc));
    expect(await cutRevision(t.db, main)).toMatchObject({ changed: false, revision: { id: head?.id } });
    expect((await latestRevisionHead(t.db, mainId))?.doc_seq).toBe(seq);
    // The next real edit reads from there on.
    await editLive(t.db, main, (d) => createPage(d, { title: 'Two' }));
    expect(await titlesAt((await latestRevisionHead(t.db, mainId))!.id)).toEqual(['One', 'Two']);
  });

  it('names the type and extra parents it is given', async () => {
    const { admin, main, mainId } = await setup();
    const head = await latestRevisionHead(t.db, mainId);
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Imported' }), false);
    const cut = await cutRevision(t.db, main, { type: 'import', createdBy: admin.id, extraParents: ['elsewhere'] });
    expect(cut?.revision).toMatchObject({ type: 'import', created_by: admin.id, parents: [head?.id, 'elsewhere'] });
  });

  it('sets the head of a change request on its own branch, leaving main alone', async () => {
    const { admin, spaceId } = await setup();
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Branch' });
    const mainRevision = (await maybeOne<{ revision_id: string }>(t.db, 'SELECT revision_id FROM spaces WHERE id = $1', [spaceId]))
      ?.revision_id;
    await editLive(t.db, { spaceId, changeRequestId: cr.id }, (doc) => createPage(doc, { title: 'On the branch' }));
    const head = await latestRevisionHead(t.db, `cr:${cr.id}`);
    expect(head).toMatchObject({ change_request_id: cr.id, branch: `cr:${cr.id}`, type: 'edits' });
    expect((await getChangeRequest(t.db, cr.id))?.revision_id).toBe(head?.id);
    expect((await maybeOne<{ revision_id: string }>(t.db, 'SELECT revision_id FROM spaces WHERE id = $1', [spaceId]))?.revision_id).toBe(
      mainRevision,
    );
  });
});

describe('what a revision stores', () => {
  it('stores a small edit as a delta on the last whole state, and a large one as a whole state', async () => {
    const { main, mainId } = await setup();
    const pageId = await editLive(t.db, main, (doc) => createPage(doc, { title: 'Page', markdown: 'Short.\n' }));
    const first = (await latestRevisionHead(t.db, mainId))!;
    expect(first.state_base).not.toBeNull();
    const base = first.state_base!;

    await editLive(t.db, main, (doc) => setPageMarkdown(doc, pageId, 'Short, edited.\n'));
    const second = (await latestRevisionHead(t.db, mainId))!;
    // A delta over a delta head shares that head's base and carries both deltas.
    expect(second.state_base).toBe(base);

    await editLive(t.db, main, (doc) => setPageMarkdown(doc, pageId, `${'Long text. '.repeat(9000)}\n`));
    const large = (await latestRevisionHead(t.db, mainId))!;
    expect(large.state_base).toBeNull();

    await editLive(t.db, main, (doc) => updatePage(doc, pageId, { title: 'Page, renamed' }));
    const after = (await latestRevisionHead(t.db, mainId))!;
    expect(after.state_base).toBe(large.id);

    for (const [rev, title, start] of [
      [first, 'Page', 'Short.'],
      [second, 'Page', 'Short, edited.'],
      [large, 'Page', 'Long text.'],
      [after, 'Page, renamed', 'Long text.'],
    ] as const) {
      const doc = docOf(await revisionState(t.db, rev.id));
      expect(listPages(doc).map((p) => p.title)).toEqual([title]);
      expect(getPageMarkdown(doc, pageId).startsWith(start)).toBe(true);
      expect((await contentAtRevision(t.db, rev.id)).pages[pageId]?.title).toBe(title);
    }
  });

  it('stores a whole state when a cut changes more pages than a patch should hold', async () => {
    const { main, mainId } = await setup();
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Seed' }));
    await editLive(t.db, main, (doc) => {
      for (let i = 0; i < 70; i++) createPage(doc, { title: `Page ${i}` });
    });
    const head = (await latestRevisionHead(t.db, mainId))!;
    expect(head.state_base).toBeNull();
    expect((await titlesAt(head.id)).length).toBe(71);
    const content = await contentAtRevision(t.db, head.id);
    expect(Object.keys(content.pages).length).toBe(71);

    // Files count as entries of the patch as pages do.
    await editLive(t.db, main, (doc) => {
      for (let i = 0; i < 70; i++) addFile(doc, file(`f${i}`));
    });
    const withFiles = (await latestRevisionHead(t.db, mainId))!;
    expect(withFiles.state_base).toBeNull();
    expect(Object.keys((await contentAtRevision(t.db, withFiles.id)).files).length).toBe(70);
  });

  it("stores a whole state once a delta outgrows a quarter of a large base's state", async () => {
    const { main, mainId } = await setup();
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Large', markdown: `${'Words. '.repeat(45000)}\n` }));
    const base = (await latestRevisionHead(t.db, mainId))!;
    expect(base.state_base).toBeNull();
    // Above the 64 KiB floor and above a quarter of the base: a delta would cost more than it saves.
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Next', markdown: `${'Other. '.repeat(15000)}\n` }));
    const next = (await latestRevisionHead(t.db, mainId))!;
    expect(next.state_base).toBeNull();
    expect(await titlesAt(next.id)).toEqual(['Large', 'Next']);
  });

  it('serves recent revisions from memory until told to forget them', async () => {
    const { main, mainId } = await setup();
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Cached' }));
    const head = (await latestRevisionHead(t.db, mainId))!;
    const doc = await docAtRevision(t.db, head.id);
    const content = await contentAtRevision(t.db, head.id);
    expect(await docAtRevision(t.db, head.id)).toBe(doc);
    expect(await contentAtRevision(t.db, head.id)).toBe(content);
    forgetCachedRevisions();
    expect(await docAtRevision(t.db, head.id)).not.toBe(doc);
    expect(await contentAtRevision(t.db, head.id)).not.toBe(content);
    expect(await titlesAt(head.id)).toEqual(['Cached']);
  });

  it('reads each revision as stored once nothing is cached, as a restarted server does', async () => {
    const { main, mainId } = await setup();
    // A whole base with content of its own, then two deltas on it.
    const [base] = await editLive(t.db, main, (doc) => [
      createPage(doc, { title: 'Base', markdown: `${'Long text. '.repeat(9000)}\n` }),
      addFile(doc, file('on-base')),
    ]);
    const whole = (await latestRevisionHead(t.db, mainId))!;
    expect(whole.state_base).toBeNull();
    const [untouched, dropped, renamed] = await editLive(t.db, main, (doc) => {
      addFile(doc, file('first'));
      setVariable(doc, 'product', 'Quire');
      createReusableContent(doc, { title: 'Snippet', markdown: 'Shared.\n' });
      return [createPage(doc, { title: 'Untouched' }), createPage(doc, { title: 'Dropped' }), createPage(doc, { title: 'Renamed' })];
    });
    const first = (await latestRevisionHead(t.db, mainId))!;
    await editLive(t.db, main, (doc) => {
      deletePage(doc, dropped);
      updatePage(doc, renamed, { title: 'Renamed, twice' });
      addFile(doc, file('second'));
    });
    const second = (await latestRevisionHead(t.db, mainId))!;
    expect([first.state_base, second.state_base]).toEqual([whole.id, whole.id]);

    const revisions = [whole, first, second];
    const served = [];
    for (const r of revisions) served.push({ content: await contentAtRevision(t.db, r.id), titles: await titlesAt(r.id) });
    expect(Object.keys(served[2]!.content.pages).sort()).toEqual([base, renamed, untouched].sort());
    expect(Object.keys(served[2]!.content.files).sort()).toEqual(['first', 'on-base', 'second']);
    expect(served[2]!.content.variables).toEqual({ product: 'Quire' });
    expect(served[2]!.titles).toEqual(['Base', 'Untouched', 'Renamed, twice']);

    forgetCachedRevisions();
    for (const [i, r] of revisions.entries()) {
      expect(await contentAtRevision(t.db, r.id)).toEqual(served[i]!.content);
      expect(await titlesAt(r.id)).toEqual(served[i]!.titles);
    }
    // A cut on a delta head read back from storage carries the head's delta and patch on.
    forgetCachedRevisions();
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Third' }));
    const third = (await latestRevisionHead(t.db, mainId))!;
    expect(third.state_base).toBe(whole.id);
    forgetCachedRevisions();
    const content = await contentAtRevision(t.db, third.id);
    expect(
      Object.values(content.pages)
        .map((p) => p.title)
        .sort(),
    ).toEqual(['Base', 'Renamed, twice', 'Third', 'Untouched']);
    expect(Object.keys(content.files).sort()).toEqual(['first', 'on-base', 'second']);
    const doc = docOf(await revisionState(t.db, third.id));
    expect(listPages(doc).map((p) => p.title)).toEqual(['Base', 'Untouched', 'Renamed, twice', 'Third']);
    expect(
      listFiles(doc)
        .map((f) => f.id)
        .sort(),
    ).toEqual(['first', 'on-base', 'second']);
  });

  it('refuses to read a revision that is not there, or whose base is gone', async () => {
    await expect(revisionState(t.db, 'no-such-revision')).rejects.toThrow('revision no-such-revision is missing');
    await expect(contentAtRevision(t.db, 'no-such-revision')).rejects.toThrow('revision no-such-revision is missing');
    const { admin, spaceId, main, mainId } = await setup();
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'On a delta' }));
    const delta = (await latestRevisionHead(t.db, mainId))!;
    await expect(
      t.db.transaction((tx) =>
        insertForkRevision(tx, { spaceId, changeRequestId: 'cr-gone' }, { ...delta, id: 'no-such-revision' }, 0, admin.id),
      ),
    ).rejects.toThrow('revision no-such-revision is missing');
    await t.db.query('DELETE FROM revisions WHERE id = $1', [delta.state_base]);
    await expect(revisionState(t.db, delta.id)).rejects.toThrow(`base revision ${delta.state_base} is missing`);
  });
});

describe('page histories and events', () => {
  it("records each page a main revision adds, edits or removes, under the page's title", async () => {
    const { spaceId, main } = await setup();
    const [kept, dropped] = await editLive(t.db, main, (doc) => [
      createPage(doc, { title: 'Kept' }),
      createPage(doc, { title: 'Dropped' }),
    ]);
    await editLive(t.db, main, (doc) => updatePage(doc, kept, { title: 'Kept, renamed' }));
    await editLive(t.db, main, (doc) => deletePage(doc, dropped));
    expect(await history(spaceId, kept)).toEqual([
      ['edited', 'Kept, renamed', 'edits'],
      ['added', 'Kept', 'edits'],
    ]);
    expect(await history(spaceId, dropped)).toEqual([
      ['removed', 'Dropped', 'edits'],
      ['added', 'Dropped', 'edits'],
    ]);
  });

  it('queues one content event per revision, naming its pages on main and on a change request', async () => {
    const { orgId, admin, spaceId, main } = await setup();
    const queued = await hookOn(orgId, admin);
    const [a, b] = await editLive(t.db, main, (doc) => [createPage(doc, { title: 'A' }), createPage(doc, { title: 'B' })]);
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Hooked' });
    await editLive(t.db, { spaceId, changeRequestId: cr.id }, (doc) => updatePage(doc, a, { title: 'A on the branch' }));
    const events = await queued();
    expect(events.length).toBe(2);
    const base = (url: string) => url.replace(/\/v1\/.*$/, '');
    const onMain = events[0]!;
    const root = base(onMain.revision.url);
    expect(onMain.changeRequest).toBeNull();
    expect(onMain.data.revisionType).toBe('edits');
    expect(onMain.data.pages.sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual(
      [a, b].sort().map((id) => ({ id, url: `${root}/v1/spaces/${spaceId}/content/page/${id}` })),
    );
    const onBranch = events[1]!;
    expect(onBranch.changeRequest).toMatchObject({ id: cr.id });
    expect(onBranch.data.pages).toEqual([{ id: a, url: `${root}/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${a}` }]);
  });

  it("keeps main's search index on the pages each revision changed, and leaves a change request's out", async () => {
    const { admin, spaceId, main } = await setup();
    const found = async (word: string) => (await searchSections(t.db, [spaceId], word)).map((h) => h.page_title);
    const pageId = await editLive(t.db, main, (doc) => createPage(doc, { title: 'Guide', markdown: 'Walrus facts.\n' }));
    expect(await found('walrus')).toEqual(['Guide']);
    await editLive(t.db, main, (doc) => setPageMarkdown(doc, pageId, 'Narwhal facts.\n'));
    expect(await found('narwhal')).toEqual(['Guide']);
    expect(await found('walrus')).toEqual([]);
    const cr = await openChangeRequest(t.db, spaceId, admin.id, { subject: 'Unmerged' });
    await editLive(t.db, { spaceId, changeRequestId: cr.id }, (doc) => setPageMarkdown(doc, pageId, 'Octopus facts.\n'));
    expect(await found('octopus')).toEqual([]);
  });

  it('queues no content event for a revision that changed no page', async () => {
    const { orgId, admin, main, mainId } = await setup();
    const queued = await hookOn(orgId, admin);
    const before = await latestRevisionHead(t.db, mainId);
    await editLive(t.db, main, (doc) => setVariable(doc, 'product', 'Quire'));
    expect((await latestRevisionHead(t.db, mainId))?.id).not.toBe(before?.id);
    expect(await queued()).toEqual([]);
  });
});

describe('server-side edits, copies and forks', () => {
  it('commits an edit as a revision of the given type, and writes nothing when it changes nothing or throws', async () => {
    const { admin, main, mainId } = await setup();
    const before = await latestRevisionHead(t.db, mainId);
    const done = await editBranch(t.db, main, (doc) => createPage(doc, { title: 'Server page' }), {
      type: 'template',
      createdBy: admin.id,
    });
    expect(done.changed).toBe(true);
    expect(done.revision).toMatchObject({ type: 'template', created_by: admin.id, parents: [before?.id] });
    expect(await titlesAt(done.revision.id)).toEqual(['Server page']);
    expect(typeof done.result).toBe('string');

    const logged = await lastSeqOf(mainId);
    const idle = await editBranch(t.db, main, () => 42);
    expect(idle).toMatchObject({ result: 42, changed: false, revision: { id: done.revision.id } });
    expect(await lastSeqOf(mainId)).toBe(logged);
    await expect(
      editBranch(t.db, main, (doc) => {
        createPage(doc, { title: 'Half' });
        throw new Error('edit broke');
      }),
    ).rejects.toThrow('edit broke');
    expect((await latestRevisionHead(t.db, mainId))?.id).toBe(done.revision.id);
  });

  it('cuts live edits into their own revision before a server-side edit', async () => {
    const { main, mainId } = await setup();
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Typed live' }), false);
    const done = await editBranch(t.db, main, (doc) => createPage(doc, { title: 'From the server' }), { type: 'import' });
    const live = (await getRevision(t.db, done.revision.parents[0]!))!;
    expect(live.type).toBe('edits');
    expect(await titlesAt(live.id)).toEqual(['Typed live']);
    expect((await titlesAt(done.revision.id)).sort()).toEqual(['From the server', 'Typed live']);
    expect((await latestRevisionHead(t.db, mainId))?.id).toBe(done.revision.id);
  });

  it('starts a copy of a space from its current content, live edits included, as its first revision', async () => {
    const from = await setup();
    const to = await setup();
    await editLive(t.db, from.main, (doc) => createPage(doc, { title: 'Cut' }));
    await editLive(t.db, from.main, (doc) => createPage(doc, { title: 'Live' }), false);
    await t.db.transaction(async (tx) => {
      await tx.query('DELETE FROM revisions WHERE branch = $1', [to.mainId]);
      await tx.query('DELETE FROM ydocs WHERE id = $1', [to.mainId]);
      await tx.query('UPDATE spaces SET revision_id = NULL WHERE id = $1', [to.spaceId]);
      await copySpaceContent(tx, from.spaceId, to.spaceId);
    });
    const head = await latestRevisionHead(t.db, to.mainId);
    expect(head).toMatchObject({ type: 'initial', parents: [] });
    expect((await titlesAt(head!.id)).sort()).toEqual(['Cut', 'Live']);
  });

  it("forks from main's head, whole or delta, reading as main does", async () => {
    const { admin, spaceId, main, mainId } = await setup();
    await editLive(t.db, main, (doc) => {
      createPage(doc, { title: 'Big', markdown: `${'Words. '.repeat(12000)}\n` });
      setVariable(doc, 'product', 'Quire');
      createReusableContent(doc, { title: 'Snippet', markdown: 'Shared.\n' });
    });
    const whole = (await latestRevisionHead(t.db, mainId))!;
    expect(whole.state_base).toBeNull();
    const forkOfWhole = await t.db.transaction((tx) =>
      insertForkRevision(tx, { spaceId, changeRequestId: 'cr-one' }, whole, whole.doc_seq, admin.id),
    );
    expect(forkOfWhole).toMatchObject({
      type: 'fork',
      parents: [whole.id],
      state_base: whole.id,
      branch: 'cr:cr-one',
      change_request_id: 'cr-one',
      created_by: admin.id,
    });
    // Nothing of main's whole state is copied into the fork's row.
    const stored = await maybeOne<{ n: number }>(t.db, 'SELECT octet_length(state)::int AS n FROM revisions WHERE id = $1', [
      forkOfWhole.id,
    ]);
    expect(Number(stored?.n)).toBeLessThan(100);
    expect(await titlesAt(forkOfWhole.id)).toEqual(['Big']);
    expect((await contentAtRevision(t.db, forkOfWhole.id)).pages).toEqual((await contentAtRevision(t.db, whole.id)).pages);
    // Variables and reusable contents are stored whole in every revision, a fork's too.
    const forked = await contentAtRevision(t.db, forkOfWhole.id);
    expect(forked.variables).toEqual({ product: 'Quire' });
    expect(Object.values(forked.reusableContents).map((r) => r.title)).toEqual(['Snippet']);

    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Small' }));
    const delta = (await latestRevisionHead(t.db, mainId))!;
    expect(delta.state_base).toBe(whole.id);
    const forkOfDelta = await t.db.transaction((tx) =>
      insertForkRevision(tx, { spaceId, changeRequestId: 'cr-two' }, delta, delta.doc_seq, admin.id),
    );
    expect(forkOfDelta.state_base).toBe(whole.id);
    expect(await titlesAt(forkOfDelta.id)).toEqual(['Big', 'Small']);
    expect((await contentAtRevision(t.db, forkOfDelta.id)).pages).toEqual((await contentAtRevision(t.db, delta.id)).pages);
  });

  it("answers a branch's head, cutting what is live first", async () => {
    const { main, mainId } = await setup();
    await editLive(t.db, main, (doc) => createPage(doc, { title: 'Live' }), false);
    const head = await t.db.transaction((tx) => branchHead(tx, main));
    expect(head?.id).toBe((await latestRevisionHead(t.db, mainId))?.id);
    expect(await titlesAt(head!.id)).toEqual(['Live']);
  });
});
