import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalNode, type Notice } from '../../desktop/src/local/LocalNode';
import { MemoryCredentialStore } from '../../desktop/src/local/credentials';
import { type QuireTestServer, eventually, startQuireServer } from './helpers/server';

let s: QuireTestServer;
beforeAll(async () => {
  s = await startQuireServer();
});
afterAll(async () => s?.close());

/** Makes recording a server id for this change request fail on this machine. */
async function poison(n: LocalNode, changeRequestId: string) {
  await n.db.query(`CREATE OR REPLACE FUNCTION refuse_remote_id() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.id = '${changeRequestId}' AND NEW.remote_id IS NOT NULL THEN RAISE EXCEPTION 'disk says no'; END IF;
      RETURN NEW;
    END $$`);
  await n.db.query('CREATE TRIGGER refuse_remote_id BEFORE UPDATE ON change_requests FOR EACH ROW EXECUTE FUNCTION refuse_remote_id()');
}

/**
 * A poison entry: the server does what it asks, but recording the answer on this machine
 * fails every time. It must not stop the node nor the queue: it is kept, failed, with its
 * error; what depends on it waits; everything else goes on; a retry finishes it.
 */
describe('a poison entry in the outbox', () => {
  it('is marked failed with its error and kept; unrelated entries go on, dependent ones wait; retry and discard work', async () => {
    const created = await s.live.t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title: 'Poisoned' });
    const spaceId = created.body.id as string;
    const n = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
    const notices: Notice[] = [];
    n.on('notice', (x) => notices.push(x));
    try {
      await n.session.connect(s.url, s.token);
      await n.session.setWorkOffline(true);
      const poisoned = await n.changeRequests.create(spaceId, 'Poisoned');
      await n.changeRequests.rename(poisoned.id, 'Poisoned, renamed');
      await n.catalog.renameSpace({ spaceId, title: 'Renamed after the poison' });
      const healthy = await n.changeRequests.create(spaceId, 'Healthy');
      // Recording the server id of this one change request fails, whatever the server says.
      await poison(n, poisoned.id);

      await n.session.setWorkOffline(false);
      await eventually(
        async () => (await n.session.status()).failed === 1 && (await n.session.status()).pendingMutations === 1,
        'the queue to go past it',
        30_000,
      );
      const entries = await n.queue.entries();
      expect(entries.map((e) => [e.kind, e.state])).toEqual([
        ['changeRequest.create', 'failed'],
        // The rename is about the change request that failed: it waits instead of failing too.
        ['changeRequest.update', 'pending'],
      ]);
      expect(entries[0]?.error).toMatch(/disk says no/);
      expect(entries[1]?.waitingFor).toBe(entries[0]?.seq);
      expect(notices.some((x) => x.level === 'error' && x.message.includes('Open change request'))).toBe(true);
      // Everything after it that does not depend on it reached the server.
      expect((await s.live.t.get(`/v1/spaces/${spaceId}`, s.token)).body.title).toBe('Renamed after the poison');
      expect((await n.changeRequests.list(spaceId)).find((cr) => cr.id === healthy.id)?.syncState).toBe('remote');
      // The node is alive and answers.
      expect(['online', 'connecting']).toContain((await n.session.status()).connection);

      // Once the cause is gone, a retry sends it again with the same key: one change request on the server, renamed.
      await n.db.query('DROP TRIGGER refuse_remote_id ON change_requests');
      await n.queue.retry(entries[0]!.seq);
      await eventually(async () => (await n.session.status()).pendingMutations === 0, 'the retry', 30_000);
      expect((await n.session.status()).failed).toBe(0);
      const onServer = await s.live.t.get(`/v1/spaces/${spaceId}/change-requests`, s.token);
      expect(onServer.body.items.map((x: { subject: string }) => x.subject).sort()).toEqual(['Healthy', 'Poisoned, renamed']);

      // A failed entry can also be given up: it goes, and so does its count.
      await n.session.setWorkOffline(true);
      const again = await n.changeRequests.create(spaceId, 'Given up');
      await poison(n, again.id);
      await n.session.setWorkOffline(false);
      await eventually(async () => (await n.session.status()).failed === 1, 'the second poison', 30_000);
      const [failed] = (await n.queue.entries()).filter((e) => e.state === 'failed');
      await n.queue.discard(failed!.seq);
      expect((await n.session.status()).failed).toBe(0);
      expect(await n.queue.entries()).toEqual([]);
    } finally {
      await n.close();
    }
  }, 90_000);
});
