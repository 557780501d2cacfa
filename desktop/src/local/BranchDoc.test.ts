import { createServer } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { BranchDoc } from './BranchDoc';
import { ServerClient } from './ServerClient';
import { type LocalDb, openLocalDb } from './store/database';

const closers: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

describe('a branch syncing with a server', () => {
  it('survives sync messages it cannot read: the connection drops and is tried again, the process lives on', async () => {
    // A "server" whose sync socket answers with bytes no Yjs client can read: an empty
    // frame, a sync step 2 whose update is garbage, an unknown message type.
    const http = createServer();
    const wss = new WebSocketServer({ server: http });
    let connections = 0;
    wss.on('connection', (socket) => {
      connections++;
      socket.send(new Uint8Array([]));
      socket.send(new Uint8Array([0, 1, 9, 255, 255, 255, 255, 1, 2, 3]));
      socket.send(new Uint8Array([0, 2, 5, 1, 2, 3, 4, 5]));
      socket.send(new Uint8Array([77]));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as { port: number };
    closers.push(
      () => new Promise<void>((resolve) => http.close(() => resolve())),
      () => wss.close(),
    );

    const db: LocalDb = await openLocalDb(undefined);
    closers.push(() => db.close());
    const branch = await BranchDoc.open(db, 'space:garbled');
    closers.push(() => branch.close());
    const errors: Error[] = [];
    branch.on('error', (err) => errors.push(err));
    branch.connect(new ServerClient(`http://127.0.0.1:${port}`, 'token'), 'space:garbled');

    const until = Date.now() + 20_000;
    while (connections < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    // It came back for more after the first connection broke: nothing threw out of the socket.
    expect(connections).toBeGreaterThanOrEqual(2);
    expect(errors.some((e) => /cannot read/.test(e.message))).toBe(true);
    // And the branch still saves edits locally.
    branch.doc.getMap('probe').set('still', 'here');
    await branch.saved();
  }, 60_000);
});
