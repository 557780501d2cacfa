import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listPages } from '@quire/shared/content/pages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalNode } from '../../desktop/src/local/LocalNode';
import { ChildNode } from './helpers/childNode';
import { KillingProxy } from './helpers/killingProxy';
import { type QuireTestServer, startQuireServer } from './helpers/server';

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quire-desktop-'));
  dirs.push(dir);
  return dir;
}

let s: QuireTestServer;
beforeAll(async () => {
  s = await startQuireServer();
});
afterAll(async () => {
  await s?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// Each test starts LocalNodes in child processes (tsx, then PGlite opening its files): slow on a busy machine.
describe('crash safety', { timeout: 120_000 }, () => {
  it('reopening after SIGKILL loses no edit that was reported saved', async () => {
    const dir = dataDir();
    const child = await ChildNode.start(dir);
    await child.call('useLocal');
    const space = await child.call<{ id: string }>('createSpace', { title: 'Crash' });
    // Kill somewhere in the middle of a burst of edits, at a moment the child does not choose.
    const killAt = 15 + Math.floor(Math.random() * 20);
    let lastSaved = -1;
    child.onLine((line) => {
      if (line.event === 'saved') lastSaved = Math.max(lastSaved, line.n as number);
    });
    void child.call('addPages', { spaceId: space.id, count: 100_000, prefix: 'edit' }).catch(() => {});
    await child.next((line) => line.event === 'saved' && (line.n as number) >= killAt);
    await child.kill();
    expect(lastSaved).toBeGreaterThanOrEqual(killAt);

    const node = await LocalNode.open({ dataDir: dir });
    const branch = await node.branches.acquire({ spaceId: space.id });
    const titles = new Set(listPages(branch.doc).map((p) => p.title));
    for (let i = 0; i <= lastSaved; i++) expect(titles.has(`edit-${i}`), `edit-${i} survived`).toBe(true);
    await node.close();
  });

  it('the outbox replays exactly once across a crash in the middle of the replay', async () => {
    const created = await s.live.t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title: 'Outbox' });
    expect(created.status).toBeLessThan(300);
    const spaceId = created.body.id as string;
    const proxy = await KillingProxy.start(s.url);
    const dir = dataDir();
    const subjects = ['one', 'two', 'three', 'four', 'five'].map((w) => `Offline ${w}`);
    try {
      const first = await ChildNode.start(dir);
      await first.call('connect', { url: proxy.url, token: s.token });
      await first.call('refreshCatalog');
      await first.call('workOffline', { offline: true });
      await first.call('createChangeRequests', { spaceId, subjects });

      // The third creation reaches the server, which creates it; the process dies before it hears back.
      let creations = 0;
      proxy.onAnswered = async (req, status) => {
        if (req.method !== 'POST' || !req.url?.endsWith('/change-requests') || status >= 300) return false;
        creations++;
        if (creations !== 3) return false;
        await first.kill();
        return true;
      };
      await first.call('workOffline', { offline: false }).catch(() => {});
      await first.exited;
      expect(creations).toBe(3);
      proxy.onAnswered = () => false;

      const second = await ChildNode.start(dir);
      const status = await second.call<{ pendingMutations: number; failed: number }>('drain');
      expect(status.failed).toBe(0);
      await second.close();

      const list = await s.live.t.get(`/v1/spaces/${spaceId}/change-requests?limit=100`, s.token);
      expect(list.status).toBe(200);
      const onServer = (list.body.items as { subject: string }[]).map((cr) => cr.subject).sort();
      expect(onServer).toEqual([...subjects].sort());
      // The replay after the crash reused the key of the request the server had already handled.
      const posts = proxy.seen.filter((r) => r.method === 'POST' && r.path.endsWith('/change-requests'));
      expect(posts.length).toBe(6);
      expect(new Set(posts.map((p) => p.key)).size).toBe(5);
    } finally {
      await proxy.close();
    }
  });
});
