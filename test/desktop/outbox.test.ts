import { listPages } from '@quire/shared/content/pages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalNode, type Notice } from '../../desktop/src/local/LocalNode';
import { MemoryCredentialStore } from '../../desktop/src/local/credentials';
import { KillingProxy } from './helpers/killingProxy';
import { type QuireTestServer, eventually, startQuireServer } from './helpers/server';

let s: QuireTestServer;
beforeAll(async () => {
  s = await startQuireServer();
});
afterAll(async () => s?.close());

async function node(token: string): Promise<LocalNode> {
  const n = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
  await n.session.connect(s.url, token);
  return n;
}

describe('outbox', () => {
  it('applies offline mutations at once, queues each with its own idempotency key, and replays them in order with that key', async () => {
    const created = await s.live.t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title: 'Before' });
    const spaceId = created.body.id as string;
    const proxy = await KillingProxy.start(s.url);
    const n = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
    try {
      await n.session.connect(proxy.url, s.token);
      await n.session.setWorkOffline(true);
      await n.catalog.renameSpace({ spaceId, title: 'Renamed offline' });
      const cr = await n.changeRequests.create(spaceId, 'Offline');
      await n.changeRequests.rename(cr.id, 'Offline, renamed');
      // Applied here at once, before any server heard of them.
      expect((await n.catalog.get()).organizations.flatMap((o) => o.spaces).find((x) => x.id === spaceId)?.title).toBe('Renamed offline');
      expect(await n.changeRequests.list(spaceId)).toMatchObject([{ id: cr.id, subject: 'Offline, renamed', syncState: 'pending' }]);
      const queued = await n.db.query<{ key: string; kind: string }>('SELECT key, kind FROM outbox ORDER BY seq');
      expect(queued.map((e) => e.kind)).toEqual(['space.update', 'changeRequest.create', 'changeRequest.update']);
      expect(new Set(queued.map((e) => e.key)).size).toBe(3);

      // The server opens the change request, but its answer is lost: the request goes again, with the same key.
      let dropped = false;
      proxy.onAnswered = (req, status) => {
        if (dropped || req.method !== 'POST' || !req.url?.endsWith('/change-requests') || status >= 300) return false;
        dropped = true;
        return true;
      };
      await n.session.setWorkOffline(false);
      await eventually(async () => (await n.session.status()).pendingMutations === 0, 'the replay', 30_000);
      expect((await n.session.status()).failed).toBe(0);

      const writes = proxy.seen.filter((r) => r.method !== 'GET');
      const keys = queued.map((e) => e.key);
      const remoteCr = (await n.db.query<{ remote_id: string }>('SELECT remote_id FROM change_requests WHERE id = $1', [cr.id]))[0]
        ?.remote_id;
      expect(writes.map((r) => [r.method, r.path, r.key])).toEqual([
        ['PATCH', `/v1/spaces/${spaceId}`, keys[0]],
        ['POST', `/v1/spaces/${spaceId}/change-requests`, keys[1]],
        ['POST', `/v1/spaces/${spaceId}/change-requests`, keys[1]],
        ['PATCH', `/v1/spaces/${spaceId}/change-requests/${remoteCr}`, keys[2]],
      ]);
      expect((await s.live.t.get(`/v1/spaces/${spaceId}`, s.token)).body.title).toBe('Renamed offline');
      const onServer = await s.live.t.get(`/v1/spaces/${spaceId}/change-requests`, s.token);
      expect(onServer.body.items.map((x: { id: string; subject: string }) => [x.id, x.subject])).toEqual([[remoteCr, 'Offline, renamed']]);
    } finally {
      await n.close();
      await proxy.close();
    }
  });

  it('keeps a replay the server refuses, with its error, and tells the user', async () => {
    const reader = await s.live.t.member(s.orgId, 'read');
    const n = await node(reader.token);
    const notices: Notice[] = [];
    n.on('notice', (notice) => notices.push(notice));
    const space = await n.catalog.createSpace({ title: 'Not allowed', organizationId: s.orgId });
    await eventually(async () => (await n.session.status()).failed === 1, 'the refusal');
    const [entry] = await n.queue.entries();
    expect(entry?.state).toBe('failed');
    expect(entry?.kind).toBe('space.publish');
    expect(entry?.error).toMatch(/403/);
    expect(notices.some((x) => x.level === 'error' && x.message.includes('Publish space'))).toBe(true);
    // The space is back to local: nothing written is lost, it can be published elsewhere.
    const catalog = await n.catalog.get();
    expect(catalog.localSpaces.map((x) => x.id)).toContain(space.id);
    expect((await n.session.status()).pendingMutations).toBe(0);

    // Retrying sends the same request again (same key); discarding drops it.
    await n.queue.retry(entry!.seq);
    await eventually(async () => (await n.session.status()).failed === 1, 'the second refusal');
    await n.queue.discard(entry!.seq);
    expect((await n.session.status()).failed).toBe(0);
    await n.close();
  });

  it('a local space written offline is published later with its whole content', async () => {
    const n = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
    await n.session.useLocal();
    const space = await n.catalog.createSpace({ title: 'Written on a plane' });
    await n.branches.with({ spaceId: space.id }, async (branch) => {
      const { createPage } = await import('@quire/shared/content/pages');
      createPage(branch.doc, { title: 'Chapter one', markdown: 'It was a **dark** night.' });
      await branch.saved();
    });
    expect((await n.session.status()).connection).toBe('local');

    await n.session.connect(s.url, s.token);
    await n.catalog.publishSpace(space.id, s.orgId);
    await eventually(
      async () => (await n.catalog.get()).organizations.some((o) => o.spaces.some((x) => x.id === space.id && x.syncState === 'remote')),
      'published',
    );
    const remoteId = (await n.db.query<{ remote_id: string }>('SELECT remote_id FROM spaces WHERE id = $1', [space.id]))[0]?.remote_id;
    expect(remoteId).toBeTruthy();

    // Someone else opens it from the server: the pages written offline are there.
    const other = await node(s.otherToken);
    await other.catalog.refresh();
    const branch = await other.branches.acquire({ spaceId: remoteId! });
    await eventually(() => listPages(branch.doc).some((p) => p.title === 'Chapter one'), 'content on the server');
    await other.close();
    await n.close();
  });

  it('edits made offline in a closed branch reach the server even when the first push fails', async () => {
    const created = await s.live.t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title: 'Pushed later' });
    const spaceId = created.body.id as string;
    const proxy = await KillingProxy.start(s.url);
    const n = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100, branchPushTimeoutMs: 500 });
    try {
      await n.session.connect(proxy.url, s.token);
      await n.catalog.refresh();
      await n.session.setWorkOffline(true);
      await n.branches.with({ spaceId }, async (branch) => {
        const { createPage } = await import('@quire/shared/content/pages');
        createPage(branch.doc, { title: 'Written offline', markdown: 'Kept until the server has it.' });
        await branch.saved();
      });
      expect((await n.session.status()).unsentEdits).toBeGreaterThan(0);

      // Back online, but the sync connection is cut until the first push has given up.
      proxy.cutSync = true;
      await n.session.setWorkOffline(false);
      await new Promise((r) => setTimeout(r, 1500));
      expect((await n.session.status()).unsentEdits).toBeGreaterThan(0);
      proxy.cutSync = false;

      // Nothing else happens on this machine: the push is tried again on its own.
      await eventually(async () => (await n.session.status()).unsentEdits === 0, 'the edits on the server', 20_000);
      await eventually(
        async () => JSON.stringify((await s.live.t.get(`/v1/spaces/${spaceId}/content`, s.token)).body).includes('Written offline'),
        'the page in the space’s content',
      );
    } finally {
      await n.close();
      await proxy.close();
    }
  });

  it('comments, replies, reactions and resolutions made offline reach the server once, in order', async () => {
    const n = await node(s.token);
    const space = await n.catalog.createSpace({ title: 'Discussed', organizationId: s.orgId });
    await eventually(
      async () => (await n.catalog.get()).organizations.some((o) => o.spaces.some((x) => x.id === space.id && x.syncState === 'remote')),
      'published',
    );
    const [page] = await n.branches.with({ spaceId: space.id }, (b) => listPages(b.doc));
    await n.session.setWorkOffline(true);
    const ref = { spaceId: space.id };
    const comment = await n.comments.post(ref, page!.id, 'Is this **accurate**?');
    await n.comments.reply(comment.id, 'Checking now.');
    await n.comments.react({ commentId: comment.id, emoji: '👍', on: true });
    await n.comments.resolve(comment.id, true);
    expect((await n.session.status()).pendingMutations).toBe(4);
    expect((await n.comments.list(ref, page!.id))[0]?.syncState).toBe('pending');

    await n.session.setWorkOffline(false);
    await eventually(async () => (await n.session.status()).pendingMutations === 0, 'replayed', 60_000);
    expect((await n.session.status()).failed).toBe(0);
    const remoteId = (await n.db.query<{ remote_id: string }>('SELECT remote_id FROM spaces WHERE id = $1', [space.id]))[0]!.remote_id;
    const list = await s.live.t.get(`/v1/spaces/${remoteId}/comments`, s.token);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    const [onServer] = list.body.items;
    expect(onServer.body.markdown).toContain('accurate');
    expect(onServer.status).toBe('resolved');
    expect(onServer.replies).toBe(1);
    expect(onServer.reactions.map((r: { emoji: string }) => r.emoji)).toEqual(['👍']);

    // Another user sees the thread as the server has it.
    const other = await node(s.otherToken);
    await other.catalog.refresh();
    const threads = await other.comments.refresh({ spaceId: remoteId });
    expect(threads).toHaveLength(1);
    expect(threads[0]?.replies.map((r) => r.body)).toEqual(['Checking now.']);
    expect(threads[0]?.resolved).toBe(true);
    await other.close();
    await n.close();
  }, 90_000);
});
