import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestSummary } from '../../desktop/src/common/ipc';
import { ChildNode } from './helpers/childNode';
import { KillingProxy } from './helpers/killingProxy';
import { type QuireTestServer, startQuireServer } from './helpers/server';

const dirs: string[] = [];
let s: QuireTestServer;
beforeAll(async () => {
  s = await startQuireServer();
});
afterAll(async () => {
  await s?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Creating a change request while signed in: the server opens it, and before the outbox
 * hears the answer a background refresh of the list brings the same request in from the
 * server. The local copy and the server's must become one row, and the LocalNode must live.
 */
describe('the change-request race', { timeout: 120_000 }, () => {
  it('a refresh that lands before the outbox records the server id joins the local row; the process lives on, across a restart', async () => {
    const created = await s.live.t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title: 'Race' });
    const spaceId = created.body.id as string;
    const proxy = await KillingProxy.start(s.url);
    const dir = mkdtempSync(join(tmpdir(), 'quire-race-'));
    dirs.push(dir);
    let child = await ChildNode.start(dir);
    try {
      await child.call('connect', { url: proxy.url, token: s.token });
      await child.call('refreshCatalog');

      // The server did the work; its answer waits until the list was refreshed from it.
      let raced = false;
      proxy.onAnswered = async (req, status) => {
        if (raced || req.method !== 'POST' || !req.url?.endsWith('/change-requests') || status >= 300) return false;
        raced = true;
        const listed = await child.call<ChangeRequestSummary[]>('refreshChangeRequests', { spaceId });
        // The refresh did bring the server's copy in next to the local one: the race is real.
        expect(listed.length).toBe(2);
        return false;
      };
      const { ids } = await child.call<{ ids: string[] }>('createChangeRequests', { spaceId, subjects: ['Raced'] });
      await child.call('drain');
      expect(raced).toBe(true);

      const list = await child.call<ChangeRequestSummary[]>('listChangeRequests', { spaceId });
      expect(list.map((cr) => [cr.id, cr.subject, cr.syncState])).toEqual([[ids[0], 'Raced', 'remote']]);
      expect(list[0]?.number).toBeGreaterThan(0);
      const status = await child.call<{ failed: number; pendingMutations: number }>('status');
      expect(status).toMatchObject({ failed: 0, pendingMutations: 0 });

      // A restart finds nothing to replay and nothing to trip over.
      await child.close();
      child = await ChildNode.start(dir);
      await child.call('refreshChangeRequests', { spaceId });
      expect((await child.call<ChangeRequestSummary[]>('listChangeRequests', { spaceId })).map((cr) => cr.id)).toEqual([ids[0]]);
      const onServer = await s.live.t.get(`/v1/spaces/${spaceId}/change-requests`, s.token);
      expect(onServer.body.items).toHaveLength(1);
    } finally {
      await child.close();
      await proxy.close();
    }
  });
});
