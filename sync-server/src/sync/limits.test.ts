import { SyncClose, SyncCloseReason, spaceRoom } from '@quire/shared/sync';
import * as encoding from 'lib0/encoding';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { loadDocUpdate } from '../store/ydocs';
import { LiveServer, acknowledged, rawClient, synced, waitFor } from '../testing/syncClients';

const MAX_MESSAGE = 2 * 1024 * 1024;
const RATE = 100;
const BURST = 20;

let s: LiveServer;
beforeAll(async () => {
  s = await LiveServer.start({
    sync: { maxMessageBytes: MAX_MESSAGE, slowClientBytes: 1024 * 1024, messagesPerSecond: RATE, messageBurst: BURST },
  });
});
afterAll(async () => s?.close());

const text = (doc: Y.Doc) => doc.getText('t').toString();

function updateMessage(update: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  encoding.writeVarUint(e, 2);
  encoding.writeVarUint8Array(e, update);
  return encoding.toUint8Array(e);
}

async function storedLength(docId: string): Promise<number> {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, (await loadDocUpdate(s.db, docId)).update);
  return text(doc).length;
}

async function fixture() {
  const { orgId, admin } = await s.t.org();
  const spaceId = await s.space(orgId, admin.token);
  return { admin, spaceId, room: spaceRoom(spaceId), docId: `space:${spaceId}` };
}

describe('sync limits', () => {
  it('closes a connection whose message is over the size limit (1009), and only that one', async () => {
    const { admin, room } = await fixture();
    const bystander = s.provider(room, admin.token);
    await synced(bystander);
    const big = await rawClient(`${s.wsUrl}/${room}`, admin.token);
    big.ws.send(new Uint8Array(MAX_MESSAGE + 1));
    expect(await big.closed).toEqual({ code: SyncClose.messageTooBig, reason: SyncCloseReason.messageTooBig });
    bystander.doc.getText('t').insert(0, 'unaffected');
    await acknowledged(bystander);
    expect(bystander.wsconnected).toBe(true);
    bystander.destroy();
  });

  it('slows a flooding connection down to its rate without losing its updates or holding up others', async () => {
    const { admin, room, docId } = await fixture();
    const writer = s.provider(room, admin.token);
    const watcher = s.provider(room, admin.token);
    await Promise.all([synced(writer), synced(watcher)]);

    const flood = await rawClient(`${s.wsUrl}/${room}`, admin.token);
    const source = new Y.Doc();
    const messages: Uint8Array[] = [];
    source.on('update', (u: Uint8Array) => messages.push(updateMessage(u)));
    for (let i = 0; i < 300; i++) source.getText('f').insert(i, 'x');
    const started = Date.now();
    for (const m of messages) flood.ws.send(m);

    const floodLength = async () => {
      const doc = new Y.Doc();
      Y.applyUpdate(doc, (await loadDocUpdate(s.db, docId)).update);
      return doc.getText('f').length;
    };
    await waitFor(async () => (await floodLength()) > BURST, 'the flood to be past its burst');
    writer.doc.getText('t').insert(0, 'meanwhile');
    await waitFor(() => text(watcher.doc) === 'meanwhile', 'another client to be relayed');
    // Relayed while the flood is still being read at its rate: the writer did not wait behind it.
    expect(await floodLength()).toBeLessThan(300);
    const elapsed = (Date.now() - started) / 1000;
    expect(await floodLength()).toBeLessThanOrEqual(BURST + RATE * elapsed + 25);
    await waitFor(async () => (await floodLength()) === 300, 'every flooded update to be stored', 8000);
    expect(flood.ws.readyState).toBe(flood.ws.OPEN);
    flood.ws.close();
    writer.destroy();
    watcher.destroy();
  });

  it('drops a client that stops reading, and keeps serving the others', async () => {
    const { admin, room, docId } = await fixture();
    const writer = s.provider(room, admin.token);
    const reader = s.provider(room, admin.token);
    await Promise.all([synced(writer), synced(reader)]);
    const slow = await rawClient(`${s.wsUrl}/${room}`, admin.token);
    await waitFor(() => slow.messages.length > 0, 'the slow client to join');
    const before = s.running.sync.stats().connections;
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();

    // Presence is relayed without being stored: a cheap way to push megabytes at every client.
    const blob = 'y'.repeat(1024 * 1024);
    for (let i = 0; i < 40 && s.running.sync.stats().connections === before; i++) {
      writer.awareness.setLocalStateField('blob', `${i}${blob}`);
      await waitFor(
        () => reader.awareness.getStates().get(writer.doc.clientID)?.blob?.startsWith(String(i)),
        'the reading client to keep up',
      );
    }
    await waitFor(() => s.running.sync.stats().connections === before - 1, 'the slow client to be dropped');
    writer.doc.getText('t').insert(0, 'after the drop');
    await waitFor(() => text(reader.doc) === 'after the drop', 'the others to be served');
    await acknowledged(writer);
    expect(await storedLength(docId)).toBe('after the drop'.length);
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const closed = await slow.closed;
    expect([SyncClose.tooSlow, 1006]).toContain(closed.code);
    if (closed.code === SyncClose.tooSlow) expect(closed.reason).toBe(SyncCloseReason.tooSlow);
    writer.destroy();
    reader.destroy();
  });
});
