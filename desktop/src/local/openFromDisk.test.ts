import { setPageMarkdown } from '@quire/shared/content/body';
import { createPage, listPages } from '@quire/shared/content/pages';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BranchView } from '../common/branchView';
import { type StateFormat, applyState } from '../common/docState';
import { IpcSession } from './IpcSession';
import { LocalNode } from './LocalNode';
import { appendDocUpdate } from './store/docs';

let node: LocalNode;
beforeAll(async () => {
  node = await LocalNode.open();
  await node.session.useLocal();
});
afterAll(async () => node?.close());

const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');
type Opened = { state: string; format: StateFormat; view?: string };
const decoded = ({ state, format }: Opened) => {
  const doc = new Y.Doc();
  applyState(doc, new Uint8Array(Buffer.from(state, 'base64')), format);
  return doc;
};
const titles = (opened: Opened) => listPages(decoded(opened)).map((p) => p.title);

describe('opening a branch that is not in memory', () => {
  it('answers the saved state from disk at once, and the window’s edits wait for the load and are saved', async () => {
    const space = await node.catalog.createSpace({ title: 'Big' });
    const ref = { spaceId: space.id };
    await node.branches.with(ref, async (branch) => {
      createPage(branch.doc, { title: 'Saved before', markdown: 'Text.' });
      await branch.saved();
    });
    const session = new IpcSession(node, () => {});
    const opened = await session.invoke('doc.open', { branch: ref });
    expect(opened.ok).toBe(true);
    const { output } = opened as { output: Opened };
    expect(titles(output)).toContain('Saved before');
    // The node has not decoded the branch for itself yet: the window did not wait for that.
    expect(node.branches.get(ref)).toBeUndefined();

    const window = decoded(output);
    const edits: Uint8Array[] = [];
    window.on('update', (u: Uint8Array) => edits.push(u));
    createPage(window, { title: 'Typed at once', markdown: 'More.' });
    const saved = await session.invoke('doc.update', { branch: ref, update: b64(Y.mergeUpdates(edits)) });
    expect(saved).toEqual({ ok: true, output: { saved: true } });
    expect(listPages(node.branches.get(ref)!.doc).map((p) => p.title)).toContain('Typed at once');
    await session.close();
    expect(await node.branches.with(ref, (b) => listPages(b.doc).map((p) => p.title))).toEqual(
      expect.arrayContaining(['Saved before', 'Typed at once']),
    );
  });

  it('keeps a log row written by something else while the branch was open when it folds the log on close', async () => {
    const space = await node.catalog.createSpace({ title: 'Folded' });
    const ref = { spaceId: space.id };
    const branch = await node.branches.acquire(ref);
    createPage(branch.doc, { title: 'Mine', markdown: 'Text.' });
    await branch.saved();
    // What a twin folded in by a refresh writes: straight into the log, not through the doc.
    const other = new Y.Doc();
    createPage(other, { title: 'Written beside', markdown: 'Elsewhere.' });
    await appendDocUpdate(node.db, `space:${space.id}`, Y.encodeStateAsUpdate(other), true);
    createPage(branch.doc, { title: 'Mine again', markdown: 'Text.' });
    await branch.saved();
    await node.branches.release(ref);
    expect(await node.branches.with(ref, (b) => listPages(b.doc).map((p) => p.title))).toEqual(
      expect.arrayContaining(['Mine', 'Written beside', 'Mine again']),
    );
  });

  it('sends the pages and the first page as saved with the snapshot, and never a view older than the log', async () => {
    const space = await node.catalog.createSpace({ title: 'Viewed' });
    const ref = { spaceId: space.id };
    await node.branches.with(ref, async (branch) => {
      const first = listPages(branch.doc)[0]!.id;
      setPageMarkdown(branch.doc, first, 'The first page, drawn at once.\n');
      createPage(branch.doc, { title: 'Second', parent: first, markdown: 'Under it.' });
      await branch.saved();
    });
    const open = async () => {
      const session = new IpcSession(node, () => {});
      const opened = await session.invoke('doc.open', { branch: ref });
      await session.close();
      return (opened as { output: { view?: string } }).output.view;
    };
    const view = JSON.parse((await open())!) as BranchView;
    expect(view.pages.map((p) => [p.title, p.parent === null])).toEqual([
      [expect.any(String), true],
      ['Second', false],
    ]);
    expect(view.first?.id).toBe(view.pages[0]!.id);
    expect(JSON.stringify(view.first?.body)).toContain('The first page, drawn at once.');

    // A log row after the snapshot (a crash before the fold): the view would be out of date.
    const other = new Y.Doc();
    createPage(other, { title: 'Not in the view', markdown: 'Later.' });
    await appendDocUpdate(node.db, `space:${space.id}`, Y.encodeStateAsUpdate(other), false);
    expect(await open()).toBeUndefined();
  });

  it('sends a closed branch in update format v2, and still opens a snapshot saved in v1 before', async () => {
    const space = await node.catalog.createSpace({ title: 'Formats' });
    const ref = { spaceId: space.id };
    await node.branches.with(ref, async (branch) => {
      createPage(branch.doc, { title: 'Kept in v2', markdown: 'Text.' });
      await branch.saved();
    });
    const open = async () => {
      const session = new IpcSession(node, () => {});
      const opened = await session.invoke('doc.open', { branch: ref });
      await session.close();
      return (opened as { output: Opened }).output;
    };
    const v2 = await open();
    expect(v2.format).toBe('v2');
    expect(titles(v2)).toContain('Kept in v2');

    // A snapshot this app wrote before it saved v2: the same text column, in v1.
    const v1 = Buffer.from(Y.encodeStateAsUpdate(decoded(v2))).toString('base64');
    await node.db.query('UPDATE doc_heads SET snapshot_text = $2, snapshot_v2 = false WHERE doc_id = $1', [`space:${space.id}`, v1]);
    const old = await open();
    expect(old.format).toBe('v1');
    expect(titles(old)).toContain('Kept in v2');
    expect(await node.branches.with(ref, (b) => listPages(b.doc).map((p) => p.title))).toContain('Kept in v2');
  });
});
