import { setPageMarkdown } from '@quire/shared/content/body';
import { createPage } from '@quire/shared/content/pages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalNode } from '../../desktop/src/local/LocalNode';
import { MemoryCredentialStore } from '../../desktop/src/local/credentials';
import { type QuireTestServer, eventually, startQuireServer } from './helpers/server';

let s: QuireTestServer;
beforeAll(async () => {
  s = await startQuireServer();
});
afterAll(async () => s?.close());

describe('sync status', () => {
  it('counts pages waiting to be sent, not keystrokes, and clears them once the server confirms', { timeout: 60_000 }, async () => {
    const created = await s.live.t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title: 'Counted' });
    const spaceId = created.body.id as string;
    const n = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
    try {
      await n.session.connect(s.url, s.token);
      await n.catalog.refresh();
      await n.branches.acquire({ spaceId });
      await n.session.setWorkOffline(true);
      const [intro, faq] = await n.branches.with({ spaceId }, (branch) => [
        createPage(branch.doc, { title: 'Intro' }),
        createPage(branch.doc, { title: 'FAQ' }),
      ]);
      // Forty separate edits (one per keystroke, as a window sends them) over two pages.
      for (let i = 1; i <= 20; i++) {
        await n.branches.with({ spaceId }, async (branch) => {
          setPageMarkdown(branch.doc, intro as string, `Intro ${'x'.repeat(i)}`);
          await branch.saved();
        });
        await n.branches.with({ spaceId }, async (branch) => {
          setPageMarkdown(branch.doc, faq as string, `FAQ ${'y'.repeat(i)}`);
          await branch.saved();
        });
      }
      await eventually(async () => (await n.session.status()).pendingPages === 2, 'two pages waiting');
      const st = await n.session.status();
      expect(st.unsentEdits).toBeGreaterThan(2);
      expect(st.pendingFiles).toBe(0);

      await n.session.setWorkOffline(false);
      await eventually(async () => (await n.session.status()).pending === 0, 'the pages to be sent', 30_000);
      expect((await n.session.status()).pendingPages).toBe(0);
    } finally {
      await n.close();
    }
  });

  it(
    'an edit made while online by a branch nobody keeps open is sent at once, not at the next reconnect',
    { timeout: 60_000 },
    async () => {
      const created = await s.live.t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title: 'Brief' });
      const spaceId = created.body.id as string;
      // Probing rarely: a reconnect must not be what sends the edit.
      const n = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 60_000 });
      try {
        await n.session.connect(s.url, s.token);
        await n.catalog.refresh();
        // Opened, edited and closed at once (as updating a change request from main does): the
        // branch is gone before the server could confirm the edit.
        await n.branches.with({ spaceId }, async (branch) => {
          createPage(branch.doc, { title: 'Written in passing' });
          await branch.saved();
        });
        await eventually(async () => (await n.session.status()).pending === 0, 'the edit to be confirmed', 10_000);
        // The server cuts a revision once live edits go quiet.
        await eventually(
          async () => JSON.stringify((await s.live.t.get(`/v1/spaces/${spaceId}/content`, s.token)).body).includes('Written in passing'),
          'the page in the space’s content',
          10_000,
        );
      } finally {
        await n.close();
      }
    },
  );
});
