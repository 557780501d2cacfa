import { getPageMarkdown, setPageMarkdown } from '@quire/shared/content/body';
import { createPage, listPages } from '@quire/shared/content/pages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { LocalNode } from './LocalNode';

/**
 * A change request's changes are drawn against where it started (main as it was opened
 * from, or last updated from), never against main as it is now.
 */

let node: LocalNode;
beforeAll(async () => {
  node = await LocalNode.open({});
  await node.session.useLocal();
});
afterAll(async () => node?.close());

const baseDoc = async (changeRequestId: string) => {
  const { state } = await node.changeRequests.base(changeRequestId);
  const doc = new Y.Doc();
  if (state) Y.applyUpdate(doc, Buffer.from(state, 'base64'));
  return doc;
};

describe('where a change request started', () => {
  it('is main as the request was opened from; main’s later edits are not its changes, and an update from main moves it', async () => {
    const space = await node.catalog.createSpace({ title: 'Handbook' });
    const install = await node.branches.with({ spaceId: space.id }, async (main) => {
      const id = listPages(main.doc)[0]!.id;
      setPageMarkdown(main.doc, id, 'Install the CLI\n\nThen run the setup.\n');
      await main.saved();
      return id;
    });
    const cr = await node.changeRequests.create(space.id, 'Explain setup');
    await node.branches.with({ spaceId: space.id, changeRequestId: cr.id }, async (branch) => {
      setPageMarkdown(branch.doc, install, 'Install the CLI\n\nThen run the setup wizard.\n');
      await branch.saved();
    });
    await node.branches.with({ spaceId: space.id }, async (main) => {
      setPageMarkdown(main.doc, install, 'Install the CLI and log in\n\nThen run the setup.\n');
      createPage(main.doc, { title: 'Quickstart', markdown: 'Added on main.\n' });
      await main.saved();
    });

    const base = await baseDoc(cr.id);
    expect(listPages(base).map((p) => p.title)).not.toContain('Quickstart');
    expect(getPageMarkdown(base, install).trim()).toBe('Install the CLI\n\nThen run the setup.');
    const diff = await node.changeRequests.diff(cr.id);
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
    expect(diff.edited).toHaveLength(1);
    const lines = diff.edited[0]!.lines.filter((l) => l.kind !== 'same');
    expect(lines.map((l) => [l.kind, l.text])).toEqual([
      ['removed', 'Then run the setup.'],
      ['added', 'Then run the setup wizard.'],
    ]);
    expect((await node.changeRequests.list(space.id)).find((c) => c.id === cr.id)?.outdated).toBe(true);

    // Taking main in moves the start: main's edits are then part of both sides.
    const before = (await node.changeRequests.list(space.id)).find((c) => c.id === cr.id)!.base;
    await node.changeRequests.updateFromMain(cr.id);
    const after = (await node.changeRequests.list(space.id)).find((c) => c.id === cr.id)!;
    expect(after.base).not.toBe(before);
    expect(after.outdated).toBe(false);
    const moved = await baseDoc(cr.id);
    expect(listPages(moved).map((p) => p.title)).toContain('Quickstart');
    const again = await node.changeRequests.diff(cr.id);
    expect([again.added, again.removed]).toEqual([[], []]);
    expect(again.edited[0]!.lines.filter((l) => l.kind !== 'same').map((l) => l.text)).toEqual([
      'Then run the setup.',
      'Then run the setup wizard.',
    ]);

    // Merged, it still shows what it merged.
    await node.changeRequests.merge(cr.id);
    const merged = await node.changeRequests.diff(cr.id);
    expect(merged.edited.map((p) => p.pageId)).toEqual([install]);
  });
});
