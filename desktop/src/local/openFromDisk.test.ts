import { createPage, listPages } from '@quire/shared/content/pages';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IpcSession } from './IpcSession';
import { LocalNode } from './LocalNode';
import { appendDocUpdate } from './store/docs';

let node: LocalNode;
beforeAll(async () => {
  node = await LocalNode.open();
  await node.useLocal();
});
afterAll(async () => node?.close());

const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');
const titles = (state: string) => {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, new Uint8Array(Buffer.from(state, 'base64')));
  return listPages(doc).map((p) => p.title);
};

describe('opening a branch that is not in memory', () => {
  it('answers the saved state from disk at once, and the window’s edits wait for the load and are saved', async () => {
    const space = await node.createSpace({ title: 'Big' });
    const ref = { spaceId: space.id };
    await node.withBranch(ref, async (branch) => {
      createPage(branch.doc, { title: 'Saved before', markdown: 'Text.' });
      await branch.saved();
    });
    const session = new IpcSession(node, () => {});
    const opened = await session.invoke('doc.open', { branch: ref });
    expect(opened.ok).toBe(true);
    const { state } = (opened as { output: { state: string } }).output;
    expect(titles(state)).toContain('Saved before');
    // The node has not decoded the branch for itself yet: the window did not wait for that.
    expect(node.openBranch(ref)).toBeUndefined();

    const window = new Y.Doc();
    Y.applyUpdate(window, new Uint8Array(Buffer.from(state, 'base64')));
    const edits: Uint8Array[] = [];
    window.on('update', (u: Uint8Array) => edits.push(u));
    createPage(window, { title: 'Typed at once', markdown: 'More.' });
    const saved = await session.invoke('doc.update', { branch: ref, update: b64(Y.mergeUpdates(edits)) });
    expect(saved).toEqual({ ok: true, output: { saved: true } });
    expect(listPages(node.openBranch(ref)!.doc).map((p) => p.title)).toContain('Typed at once');
    await session.close();
    expect(await node.withBranch(ref, (b) => listPages(b.doc).map((p) => p.title))).toEqual(
      expect.arrayContaining(['Saved before', 'Typed at once']),
    );
  });

  it('keeps a log row written by something else while the branch was open when it folds the log on close', async () => {
    const space = await node.createSpace({ title: 'Folded' });
    const ref = { spaceId: space.id };
    const branch = await node.acquireBranch(ref);
    createPage(branch.doc, { title: 'Mine', markdown: 'Text.' });
    await branch.saved();
    // What a twin folded in by a refresh writes: straight into the log, not through the doc.
    const other = new Y.Doc();
    createPage(other, { title: 'Written beside', markdown: 'Elsewhere.' });
    await appendDocUpdate(node.db, `space:${space.id}`, Y.encodeStateAsUpdate(other), true);
    createPage(branch.doc, { title: 'Mine again', markdown: 'Text.' });
    await branch.saved();
    await node.releaseBranch(ref);
    expect(await node.withBranch(ref, (b) => listPages(b.doc).map((p) => p.title))).toEqual(
      expect.arrayContaining(['Mine', 'Written beside', 'Mine again']),
    );
  });
});
