import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPage, listPages } from '@quire/shared/content/pages';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalNode } from './LocalNode';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the LocalNode data directory', () => {
  it('keeps spaces, change requests, comments and update logs in one PGlite database there, across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-local-'));
    dirs.push(dir);
    const first = await LocalNode.open({ dataDir: dir });
    expect(existsSync(join(dir, 'db', 'PG_VERSION'))).toBe(true);
    expect(readFileSync(join(dir, 'quire-desktop.lock'), 'utf8')).toBe(String(process.pid));

    await first.session.useLocal();
    const space = await first.catalog.createSpace({ title: 'On this machine' });
    const pageId = await first.branches.with({ spaceId: space.id }, async (branch) => {
      // Applied to the Y.Doc at once; saved() resolves once it is in the local log.
      const id = createPage(branch.doc, { title: 'Notes', markdown: 'Written offline.' });
      expect(listPages(branch.doc).some((p) => p.id === id)).toBe(true);
      await branch.saved();
      return id;
    });
    // Closed, the branch's log is folded into one snapshot: the next open reads one row.
    const stored = await first.db.query<{ logged: number; snapshot: boolean }>(
      `SELECT (SELECT count(*)::int FROM doc_updates WHERE doc_id = $1) AS logged,
              (SELECT snapshot IS NOT NULL OR snapshot_text IS NOT NULL FROM doc_heads WHERE doc_id = $1) AS snapshot`,
      [`space:${space.id}`],
    );
    expect(stored[0]).toEqual({ logged: 0, snapshot: true });
    const cr = await first.changeRequests.create(space.id, 'Local draft');
    await first.comments.post({ spaceId: space.id }, pageId, 'Check this.');
    // A space no server has queues nothing.
    expect(await first.queue.entries()).toEqual([]);
    await first.close();
    expect(existsSync(join(dir, 'quire-desktop.lock'))).toBe(false);

    const again = await LocalNode.open({ dataDir: dir });
    try {
      expect((await again.catalog.get()).localSpaces.map((x) => x.id)).toEqual([space.id]);
      expect((await again.changeRequests.list(space.id)).map((x) => [x.id, x.subject])).toEqual([[cr.id, 'Local draft']]);
      expect((await again.comments.list({ spaceId: space.id }, pageId)).map((c) => c.body)).toEqual(['Check this.']);
      const titles = (ref: { spaceId: string; changeRequestId?: string }) =>
        again.branches.with(ref, (branch) => listPages(branch.doc).map((p) => p.title));
      expect(await titles({ spaceId: space.id })).toContain('Notes');
      expect(await titles({ spaceId: space.id, changeRequestId: cr.id })).toContain('Notes');
    } finally {
      await again.close();
    }
  });
});
