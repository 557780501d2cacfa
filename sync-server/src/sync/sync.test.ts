import { SyncClose, SyncCloseReason, SyncRefusal, changeRequestRoom, spaceRoom } from '@quire/shared/sync';
import * as encoding from 'lib0/encoding';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { appendUpdate, loadDocUpdate } from '../store/ydocs';
import { encodeUpdate } from './protocol';
import { issueTicket } from '../core/sync/tickets';
import { LiveServer, acknowledged, nextClose, rawClient, refusals, synced, waitFor } from '../testing/syncClients';

let s: LiveServer;
beforeAll(async () => {
  s = await LiveServer.start({ sync: { recheckMs: 200, idleMs: 200 } });
});
afterAll(async () => s?.close());

const text = (doc: Y.Doc) => doc.getText('t').toString();

/** The stored document's text, read from the database as a restarted server would. */
async function storedText(spaceId: string): Promise<string> {
  const { update } = await loadDocUpdate(s.db, `space:${spaceId}`);
  const doc = new Y.Doc();
  Y.applyUpdate(doc, update);
  return text(doc);
}

async function fixture(roles: ('read' | 'comment' | 'edit')[] = []) {
  const { orgId, admin, members } = await s.t.org(roles);
  const spaceId = await s.space(orgId, admin.token);
  return { orgId, admin, members, spaceId, room: spaceRoom(spaceId) };
}

describe('sync endpoint', () => {
  it('two clients converge, and what they typed is stored', async () => {
    const { admin, members, room, spaceId } = await fixture(['edit']);
    const a = s.provider(room, admin.token);
    const b = s.provider(room, members[0]?.token);
    await Promise.all([synced(a), synced(b)]);
    a.doc.getText('t').insert(0, 'hello ');
    b.doc.getText('t').insert(0, 'world ');
    await waitFor(() => text(a.doc) === text(b.doc) && text(a.doc).length === 12, 'convergence');
    await acknowledged(a);
    await acknowledged(b);
    expect(await storedText(spaceId)).toBe(text(a.doc));
    a.destroy();
    b.destroy();
  });

  it('accepts a sync ticket in the query string, for browsers', async () => {
    const { admin, room } = await fixture();
    const res = await s.t.post('/v1/sync/tickets', admin.token, { room });
    expect(res.status).toBe(201);
    const p = s.provider(room, res.body.ticket, { viaQuery: true });
    await synced(p);
    p.doc.getText('t').insert(0, 'via ticket');
    await acknowledged(p);
    // A second connection with a ticket of its own reads what the first one wrote.
    const again = await s.t.post('/v1/sync/tickets', admin.token, { room });
    const q = s.provider(room, again.body.ticket, { viaQuery: true });
    await synced(q);
    expect(text(q.doc)).toBe('via ticket');
    p.destroy();
    q.destroy();
  });

  it('refuses a ticket issued for another room, or one that expired', async () => {
    const { admin, room } = await fixture();
    const other = await fixture();
    const res = await s.t.post('/v1/sync/tickets', other.admin.token, { room: other.room });
    const wrongRoom = await rawClient(`${s.wsUrl}/${room}?token=${res.body.ticket}`);
    expect(await wrongRoom.closed).toEqual({ code: SyncClose.unauthenticated, reason: SyncCloseReason.badTicket });
    const user = await s.db.query<{ id: string }>('SELECT id FROM api_tokens LIMIT 1');
    const expired = await issueTicket(s.db, { userId: admin.id, tokenId: user[0]?.id as string, room }, -10);
    const late = await rawClient(`${s.wsUrl}/${room}?token=${expired.ticket}`);
    expect(await late.closed).toEqual({ code: SyncClose.unauthenticated, reason: SyncCloseReason.badTicket });
    expect(wrongRoom.messages.length + late.messages.length).toBe(0);
  });

  it('refuses the edits of a reader, tells it why, and still sends it the document', async () => {
    const { admin, members, room, spaceId } = await fixture(['read']);
    const writer = s.provider(room, admin.token);
    const reader = s.provider(room, members[0]?.token);
    const notices = refusals(reader);
    await Promise.all([synced(writer), synced(reader)]);
    writer.doc.getText('t').insert(0, 'from the writer');
    await waitFor(() => text(reader.doc) === 'from the writer', 'the reader to receive the edit');
    reader.doc.getText('t').insert(0, 'NOPE ');
    await waitFor(() => notices.length > 0, 'a refusal notice');
    expect(notices[0]).toBe(SyncRefusal.readOnly);
    await acknowledged(reader);
    expect(reader.wsconnected).toBe(true);
    expect(text(writer.doc)).toBe('from the writer');
    expect(await storedText(spaceId)).toBe('from the writer');
    writer.destroy();
    reader.destroy();
  });

  it("refuses every edit on the main branch of a locked space, an admin's included, from the next second on", async () => {
    const { admin, room, spaceId } = await fixture();
    const live = s.provider(room, admin.token);
    const liveNotices = refusals(live);
    await synced(live);
    live.doc.getText('t').insert(0, 'before');
    await acknowledged(live);
    const locked = await s.t.patch(`/v1/spaces/${spaceId}`, admin.token, { editMode: 'locked' });
    expect(locked.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1200));
    live.doc.getText('t').insert(6, ' during');
    await waitFor(() => liveNotices.length > 0, 'a refusal notice on the live connection');
    expect(liveNotices[0]).toBe(SyncRefusal.locked);

    const late = s.provider(room, admin.token);
    const notices = refusals(late);
    await synced(late);
    expect(text(late.doc)).toBe('before');
    late.doc.getText('t').insert(6, ' after');
    await waitFor(() => notices.length > 0, 'a refusal notice');
    expect(notices[0]).toBe(SyncRefusal.locked);
    await acknowledged(late);
    await acknowledged(live);
    expect(await storedText(spaceId)).toBe('before');
    live.destroy();
    late.destroy();
  });

  it('refuses a caller without access before sending any document data, as it refuses an unknown space', async () => {
    const { admin, room } = await fixture();
    const seed = s.provider(room, admin.token);
    await synced(seed);
    seed.doc.getText('t').insert(0, 'secret');
    await acknowledged(seed);
    const stranger = await s.t.user();
    const foreign = await rawClient(`${s.wsUrl}/${room}`, stranger.token);
    const unknown = await rawClient(`${s.wsUrl}/spaces/AAAAAAAAAAAAAAAAAAAAAA`, stranger.token);
    expect(await foreign.closed).toEqual({ code: SyncClose.notFound, reason: SyncCloseReason.noAccess });
    expect(await unknown.closed).toEqual({ code: SyncClose.notFound, reason: SyncCloseReason.noAccess });
    expect(foreign.messages).toEqual([]);
    const noToken = await rawClient(`${s.wsUrl}/${room}`);
    expect(await noToken.closed).toEqual({ code: SyncClose.unauthenticated, reason: SyncCloseReason.noToken });
    const badToken = await rawClient(`${s.wsUrl}/${room}`, 'qt_not-a-token');
    expect(await badToken.closed).toEqual({ code: SyncClose.unauthenticated, reason: SyncCloseReason.badToken });
    const badRoom = await rawClient(`${s.wsUrl}/spaces/x/y`, admin.token);
    expect(await badRoom.closed).toEqual({ code: SyncClose.notFound, reason: SyncCloseReason.unknownRoom });
    expect(noToken.messages.length + badToken.messages.length + badRoom.messages.length).toBe(0);
    seed.destroy();
  });

  it('edits a change request on its own branch, and refuses its room under another space', async () => {
    const { admin, members, orgId, spaceId } = await fixture(['edit']);
    const editor = members[0] as (typeof members)[number];
    const otherSpaceId = await s.space(orgId, admin.token);
    const cr = await s.t.post(`/v1/spaces/${spaceId}/change-requests`, admin.token, { subject: 'Live' });
    expect(cr.status).toBe(200);
    const p = s.provider(changeRequestRoom(spaceId, cr.body.id), editor.token);
    await synced(p);
    p.doc.getText('t').insert(0, 'on the branch');
    await acknowledged(p);
    const branch = new Y.Doc();
    Y.applyUpdate(branch, (await loadDocUpdate(s.db, `cr:${cr.body.id}`)).update);
    expect(text(branch)).toBe('on the branch');
    expect(await storedText(spaceId)).toBe('');
    // Editing live makes the editor a contributor, as an edit through the API would. The
    // row follows the acknowledgement (which waits for nothing but the edit's own storage).
    const contributedTo = async () =>
      (await s.t.get(`/v1/orgs/${orgId}/change-requests?contributor=${editor.id}`, admin.token)).body.items.map(
        (c: { id: string }) => c.id,
      );
    await waitFor(async () => (await contributedTo()).length > 0, 'the editor listed as a contributor');
    expect(await contributedTo()).toEqual([cr.body.id]);

    // The same admin may open both spaces: the change request itself belongs to one only.
    const wrong = await rawClient(`${s.wsUrl}/${changeRequestRoom(otherSpaceId, cr.body.id)}`, admin.token);
    expect(await wrong.closed).toEqual({ code: SyncClose.notFound, reason: SyncCloseReason.noAccess });
    expect(wrong.messages).toEqual([]);
    p.destroy();
  });

  it("refuses a change request of another space or organization named under one's own space, sending none of it", async () => {
    const { orgId, admin, spaceId } = await fixture();
    const sibling = await s.space(orgId, admin.token);
    const other = await s.t.org();
    const foreign = await s.space(other.orgId, other.admin.token);
    /** A change request whose branch holds text, written live by someone who may. */
    const branchWithText = async (space: string, token: string) => {
      const cr = await s.t.post(`/v1/spaces/${space}/change-requests`, token, { subject: 'Private draft' });
      expect(cr.status).toBe(200);
      const p = s.provider(changeRequestRoom(space, cr.body.id), token);
      await synced(p);
      p.doc.getText('t').insert(0, 'unreleased plans');
      await acknowledged(p);
      p.destroy();
      return cr.body.id as string;
    };
    const ofSibling = await branchWithText(sibling, admin.token);
    const ofForeign = await branchWithText(foreign, other.admin.token);

    for (const crId of [ofSibling, ofForeign]) {
      const client = await rawClient(`${s.wsUrl}/${changeRequestRoom(spaceId, crId)}`, admin.token);
      // Asks for the whole document, as a fresh client would: a server that let it in would answer with it.
      const step1 = encoding.createEncoder();
      encoding.writeVarUint(step1, 0);
      encoding.writeVarUint(step1, 0);
      encoding.writeVarUint8Array(step1, Y.encodeStateVector(new Y.Doc()));
      if (client.ws.readyState === client.ws.OPEN) client.ws.send(encoding.toUint8Array(step1));
      // Whichever comes first: the refusal, or anything of the document.
      const firstMessage = new Promise<void>((resolve) =>
        client.messages.length ? resolve() : client.ws.once('message', () => resolve()),
      );
      await Promise.race([client.closed, firstMessage]);
      expect(client.messages).toEqual([]);
      expect(await client.closed).toEqual({ code: SyncClose.notFound, reason: SyncCloseReason.noAccess });
    }
  });

  it('refuses edits on the branch of a merged change request, and still sends it the document', async () => {
    const { admin, spaceId } = await fixture();
    const cr = await s.t.post(`/v1/spaces/${spaceId}/change-requests`, admin.token, { subject: 'Done soon' });
    const room = changeRequestRoom(spaceId, cr.body.id);
    const live = s.provider(room, admin.token);
    const notices = refusals(live);
    await synced(live);
    live.doc.getText('t').insert(0, 'before the merge');
    await acknowledged(live);
    expect((await s.t.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`, admin.token)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1200));
    live.doc.getText('t').insert(0, 'after ');
    await waitFor(() => notices.length > 0, 'a refusal notice');
    expect(notices[0]).toBe(SyncRefusal.closed);
    await acknowledged(live);
    expect(live.wsconnected).toBe(true);

    const late = s.provider(room, admin.token);
    await synced(late);
    expect(text(late.doc)).toBe('before the merge');
    const branch = new Y.Doc();
    Y.applyUpdate(branch, (await loadDocUpdate(s.db, `cr:${cr.body.id}`)).update);
    expect(text(branch)).toBe('before the merge');
    live.destroy();
    late.destroy();
  });

  it('closes the connections of a deleted space for good: the stock provider stops reconnecting', async () => {
    const { admin, room, spaceId } = await fixture();
    const p = s.provider(room, admin.token);
    await synced(p);
    const final = new Promise<{ code: number; reason: string }>((resolve) => p.once('closed', (event) => resolve(event)));
    expect((await s.t.delete(`/v1/spaces/${spaceId}`, admin.token)).status).toBe(204);
    const { code, reason } = await final;
    expect(code).toBe(SyncClose.notFound);
    // The room's policy check or the connection's access check, whichever runs first.
    expect([SyncCloseReason.spaceDeleted, SyncCloseReason.noAccess]).toContain(reason);
    expect(p.shouldConnect).toBe(false);
    p.destroy();
  });

  it('merges a client that was offline while both sides edited', async () => {
    const { admin, members, room, spaceId } = await fixture(['edit']);
    const a = s.provider(room, admin.token);
    const b = s.provider(room, members[0]?.token);
    await Promise.all([synced(a), synced(b)]);
    a.doc.getText('t').insert(0, 'shared ');
    await waitFor(() => text(b.doc) === 'shared ', 'the first edit');
    b.disconnect();
    a.doc.getText('t').insert(7, 'online');
    b.doc.getText('t').insert(0, 'offline ');
    b.doc.getText('t').delete(8, 7);
    await acknowledged(a);
    b.connect();
    await synced(b);
    await waitFor(() => text(a.doc) === text(b.doc), 'convergence');
    expect(text(a.doc)).toBe('offline online');
    await acknowledged(b);
    expect(await storedText(spaceId)).toBe('offline online');
    a.destroy();
    b.destroy();
  });

  it('closes only the connection that sends a malformed or crafted message, and stores none of it', async () => {
    const { admin, room, spaceId } = await fixture();
    const good = s.provider(room, admin.token);
    await synced(good);
    good.doc.getText('t').insert(0, 'intact');
    await acknowledged(good);

    const garbage = await rawClient(`${s.wsUrl}/${room}`, admin.token);
    garbage.ws.send(new Uint8Array([0, 7, 1, 2, 3]));
    expect(await garbage.closed).toEqual({ code: SyncClose.badMessage, reason: SyncCloseReason.badMessage });

    const truncated = await rawClient(`${s.wsUrl}/${room}`, admin.token);
    truncated.ws.send(new Uint8Array([0, 2, 40, 1, 2]));
    expect((await truncated.closed).code).toBe(SyncClose.badMessage);

    // Well-framed, but its update holds a shared type of a kind that does not exist.
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 1); // clients
    encoding.writeVarUint(e, 1); // structs
    encoding.writeVarUint(e, 4242); // client
    encoding.writeVarUint(e, 0); // clock
    encoding.writeUint8(e, 7); // ContentType, no origins
    encoding.writeVarUint(e, 1); // parent is a root type, by name
    encoding.writeVarString(e, 't');
    encoding.writeVarUint(e, 99); // unknown type ref
    encoding.writeVarUint(e, 0); // empty delete set
    const crafted = encoding.toUint8Array(e);
    const msg = encoding.createEncoder();
    encoding.writeVarUint(msg, 0);
    encoding.writeVarUint(msg, 2);
    encoding.writeVarUint8Array(msg, crafted);
    const attacker = await rawClient(`${s.wsUrl}/${room}`, admin.token);
    attacker.ws.send(encoding.toUint8Array(msg));
    expect(await attacker.closed).toEqual({ code: SyncClose.badMessage, reason: SyncCloseReason.badUpdate });

    // Found by fuzzing: a skip struct with an item's flag bits. Yjs applies it (as a skip)
    // but cannot merge it; stored, it would break compaction and every REST read.
    const unmergeable = encoding.createEncoder();
    encoding.writeVarUint(unmergeable, 0);
    encoding.writeVarUint(unmergeable, 2);
    encoding.writeVarUint8Array(unmergeable, new Uint8Array(Buffer.from('010186b7918108036a01016d01620177e27a7a00', 'hex')));
    const sly = await rawClient(`${s.wsUrl}/${room}`, admin.token);
    sly.ws.send(encoding.toUint8Array(unmergeable));
    expect(await sly.closed).toEqual({ code: SyncClose.badMessage, reason: SyncCloseReason.badUpdate });
    good.doc.getText('t').insert(6, ' still');
    await acknowledged(good);
    expect(good.wsconnected).toBe(true);
    expect(await storedText(spaceId)).toBe('intact still');
    const fresh = s.provider(room, admin.token);
    await synced(fresh);
    expect(text(fresh.doc)).toBe('intact still');
    good.destroy();
    fresh.destroy();
  });

  it('relays what other writers append to the log (a REST merge, another instance)', async () => {
    const { admin, room, spaceId } = await fixture();
    const p = s.provider(room, admin.token);
    await synced(p);
    const elsewhere = new Y.Doc();
    elsewhere.getText('t').insert(0, 'merged over REST');
    await s.db.transaction((tx) => appendUpdate(tx, `space:${spaceId}`, Y.encodeStateAsUpdate(elsewhere), null));
    await waitFor(() => text(p.doc) === 'merged over REST', 'the appended update to reach the client');
    p.destroy();
  });

  it('relays a burst of edits stored together as one message, not one per edit', async () => {
    const { admin, room, spaceId } = await fixture();
    const receiver = await rawClient(`${s.wsUrl}/${room}`, admin.token);
    const sender = await rawClient(`${s.wsUrl}/${room}`, admin.token);
    const typed = new Y.Doc();
    const updates: Uint8Array[] = [];
    typed.on('update', (u: Uint8Array) => updates.push(u));
    for (const ch of 'burst of keys') typed.getText('t').insert(typed.getText('t').length, ch);
    await waitFor(() => receiver.messages.length > 0 && sender.messages.length > 0, 'both joined');
    const before = receiver.messages.length;
    for (const u of updates) sender.ws.send(encodeUpdate(u));
    const relayed = () => receiver.messages.slice(before).filter((m) => m[0] === 0 && m[1] === 2);
    const receivedText = () => {
      const received = new Y.Doc();
      for (const m of relayed()) Y.applyUpdate(received, decoding.readVarUint8Array(decoding.createDecoder(m.subarray(2))));
      return text(received);
    };
    await waitFor(() => receivedText() === 'burst of keys', 'the burst to be relayed');
    expect(await storedText(spaceId)).toBe('burst of keys');
    // The first edit may go out on its own; the rest arrived while it was being stored.
    expect(relayed().length).toBeLessThanOrEqual(3);
    sender.ws.close();
    receiver.ws.close();
  });

  it('fans out between two instances on one database', async () => {
    // The embedded database serves one process: no other instance to hear of its rows.
    if (s.db.kind === 'pglite') return;
    const { admin, members, room } = await fixture(['edit']);
    const other = await LiveServer.start({}, s.db);
    try {
      const a = s.provider(room, admin.token);
      const b = other.provider(room, members[0]?.token);
      await Promise.all([synced(a), synced(b)]);
      b.doc.getText('t').insert(0, 'typed on B');
      await waitFor(() => text(a.doc) === 'typed on B', 'the edit made on B to reach A', 2000);
      a.doc.getText('t').insert(0, 'and on A, ');
      await waitFor(() => text(b.doc) === 'and on A, typed on B', 'the edit made on A to reach B', 2000);
      if (s.db.kind === 'postgres') {
        // Cursors and presence cross instances too (a relay only separate processes need).
        b.awareness.setLocalStateField('user', { name: 'bea' });
        await waitFor(() => [...a.awareness.getStates().values()].some((st) => st.user?.name === 'bea'), 'awareness from B on A', 2000);
      }
      a.destroy();
      b.destroy();
    } finally {
      await other.close();
    }
  });

  // With the journal a failed write stops the process instead (`store/journal/journal.test.ts`).
  it.skipIf(!process.env.DATABASE_URL && process.env.SYNC_JOURNAL !== 'off')(
    'relays nothing it could not store: the sender is closed (1011), and its edit arrives once it is stored',
    async () => {
      const { admin, members, room, spaceId } = await fixture(['edit']);
      let failing = false;
      // Log appends run in a transaction on PostgreSQL, as one statement on the embedded database.
      const flaky = Object.create(s.db, {
        transaction: {
          value: (fn: Parameters<typeof s.db.transaction>[0]) => (failing ? Promise.reject(new Error('disk full')) : s.db.transaction(fn)),
        },
        query: {
          value: (sql: string, params?: unknown[]) =>
            failing && /INSERT INTO ydoc_updates/.test(sql) ? Promise.reject(new Error('disk full')) : s.db.query(sql, params),
        },
      }) as typeof s.db;
      const other = await LiveServer.start({}, flaky);
      try {
        const a = other.provider(room, admin.token);
        const b = other.provider(room, members[0]?.token);
        await Promise.all([synced(a), synced(b)]);
        const closed = nextClose(a);
        failing = true;
        a.doc.getText('t').insert(0, 'unstored');
        expect(await closed).toEqual({ code: SyncClose.storageFailed, reason: SyncCloseReason.storageFailed });
        expect(text(b.doc)).toBe('');
        expect(await storedText(spaceId)).toBe('');
        failing = false;
        // The provider reconnects by itself and sends what the server lacks.
        await waitFor(() => text(b.doc) === 'unstored', 'the edit to arrive once it could be stored');
        expect(await storedText(spaceId)).toBe('unstored');
        a.destroy();
        b.destroy();
      } finally {
        failing = false;
        await other.close();
      }
    },
  );

  it('closes with 1011 when a document cannot be loaded, and loads it again when the client retries', async () => {
    const { admin, room } = await fixture();
    const seed = s.provider(room, admin.token);
    await synced(seed);
    seed.doc.getText('t').insert(0, 'kept');
    await acknowledged(seed);
    seed.destroy();
    let failing = true;
    const flaky = Object.create(s.db, {
      query: {
        value: (sql: string, params?: unknown[]) =>
          failing && sql.includes('FROM ydocs d WHERE d.id = $1') ? Promise.reject(new Error('disk gone')) : s.db.query(sql, params),
      },
    }) as typeof s.db;
    const other = await LiveServer.start({}, flaky);
    try {
      const p = other.provider(room, admin.token);
      expect(await nextClose(p)).toEqual({ code: SyncClose.storageFailed, reason: SyncCloseReason.loadFailed });
      failing = false;
      // The retry (a few hundred ms of backoff) loads the document again, without waiting for a background sweep.
      await synced(p, 2500);
      expect(text(p.doc)).toBe('kept');
      p.destroy();
    } finally {
      failing = false;
      await other.close();
    }
  });

  it('unloads an idle room, compacts its log, and serves it again intact', async () => {
    const { admin, room, spaceId } = await fixture();
    const p = s.provider(room, admin.token);
    await synced(p);
    for (const word of ['one ', 'two ', 'three ']) {
      p.doc.getText('t').insert(text(p.doc).length, word);
      await acknowledged(p);
    }
    p.destroy();
    const docId = `space:${spaceId}`;
    await waitFor(() => !s.running.sync.loadedRoom(docId), 'the room to unload');
    await waitFor(async () => {
      const rows = await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ydoc_updates WHERE doc_id = $1', [docId]);
      return rows[0]?.n === 0;
    }, 'the log to be compacted');
    const again = s.provider(room, admin.token);
    await synced(again);
    expect(text(again.doc)).toBe('one two three ');
    again.destroy();
  });

  it("keeps each writer's cursor their own: another user cannot overwrite or remove it", async () => {
    const { admin, members, room } = await fixture(['edit', 'edit']);
    const ada = s.provider(room, admin.token);
    const bob = s.provider(room, members[0]?.token);
    await Promise.all([synced(ada), synced(bob)]);
    ada.awareness.setLocalStateField('user', { name: 'Ada' });
    const adaId = ada.doc.clientID;
    const seenByBob = () => bob.awareness.getStates().get(adaId) as { user?: { name: string } } | undefined;
    await waitFor(() => seenByBob()?.user?.name === 'Ada', "Ada's cursor");

    // One message: a forged state for Ada's client id, then the sender's own.
    const clock = ada.awareness.meta.get(adaId)?.clock ?? 0;
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 2);
    encoding.writeVarUint(e, adaId);
    encoding.writeVarUint(e, clock + 5);
    encoding.writeVarString(e, JSON.stringify({ user: { name: 'Mallory' } }));
    encoding.writeVarUint(e, 4242);
    encoding.writeVarUint(e, 1);
    encoding.writeVarString(e, JSON.stringify({ user: { name: 'Mallory' } }));
    const msg = encoding.createEncoder();
    encoding.writeVarUint(msg, 1);
    encoding.writeVarUint8Array(msg, encoding.toUint8Array(e));
    const mallory = await rawClient(`${s.wsUrl}/${room}`, members[1]?.token);
    mallory.ws.send(encoding.toUint8Array(msg));

    await waitFor(() => bob.awareness.getStates().has(4242), "the sender's own state");
    expect(seenByBob()?.user?.name).toBe('Ada');
    mallory.ws.close();
    await waitFor(() => !bob.awareness.getStates().has(4242), "the sender's state leaving with it");
    expect(seenByBob()?.user?.name).toBe('Ada');
    ada.destroy();
    bob.destroy();
  });

  it('ends the connections of a revoked token', async () => {
    const { admin, members, room } = await fixture(['edit']);
    const p = s.provider(room, members[0]?.token);
    await synced(p);
    const closed = nextClose(p);
    await s.db.query('DELETE FROM api_tokens WHERE user_id = $1', [members[0]?.id]);
    expect(await closed).toEqual({ code: SyncClose.unauthenticated, reason: SyncCloseReason.badToken });
    p.destroy();
    expect(admin.token).toBeTruthy();
  });
});
