import { rmSync } from 'node:fs';
import { spaceRoom } from '@quire/shared/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { freshPostgresUrl, preparedDataDir } from '../../sync-server/src/testing/databases';
import { acknowledged, synced, waitFor, withBearer } from '../../sync-server/src/testing/syncClients';
import { ServerProcess } from './serverProcess';

const TOKEN = `qt_crash_${Math.random().toString(36).slice(2)}`;
const LETTERS = ['a', 'b', 'c'];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const count = (s: string, ch: string) => s.split(ch).length - 1;

/** Where the killed server keeps its data: a temp DATA_DIR (PGlite), or a fresh PostgreSQL database. */
async function storage(): Promise<Record<string, string>> {
  const dataDir = preparedDataDir('quire-crash-');
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  if (!process.env.DATABASE_URL) return { DATA_DIR: dataDir };
  const pg = await freshPostgresUrl();
  cleanups.push(pg.drop);
  return { DATA_DIR: dataDir, DATABASE_URL: pg.url };
}

function client(server: ServerProcess, room: string): WebsocketProvider {
  const p = new WebsocketProvider(server.wsUrl, room, new Y.Doc(), {
    WebSocketPolyfill: withBearer(TOKEN) as never,
    disableBc: true,
    maxBackoffTime: 200,
  });
  cleanups.push(() => p.destroy());
  return p;
}

describe('a server killed with SIGKILL while clients type', () => {
  it('keeps every acknowledged edit, and the clients converge after the restart', { timeout: 180_000 }, async () => {
    const server = await ServerProcess.create({ ...(await storage()), BOOTSTRAP_ADMIN_TOKEN: TOKEN });
    cleanups.push(() => server.kill());
    await server.start();
    const room = spaceRoom(await server.createSpace(TOKEN));

    const clients = LETTERS.map(() => client(server, room));
    await Promise.all(clients.map((c) => synced(c)));
    const typed = LETTERS.map(() => 0);
    const acked = LETTERS.map(() => 0);
    let typing = true;
    const typists = clients.map((c, i) =>
      (async () => {
        while (typing) {
          const t = c.doc.getText('t');
          t.insert(Math.floor(Math.random() * (t.length + 1)), LETTERS[i] as string);
          typed[i] = (typed[i] ?? 0) + 1;
          await new Promise((r) => setTimeout(r, 10));
        }
      })(),
    );
    // An edit is acknowledged once the server answered a sync step 1 sent after it.
    let acking = true;
    const ackers = clients.map((c, i) =>
      (async () => {
        while (acking) {
          const upTo = typed[i] ?? 0;
          try {
            await acknowledged(c, 2000);
            acked[i] = Math.max(acked[i] ?? 0, upTo);
          } catch {
            // not connected, or the server died before answering: not acknowledged
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      })(),
    );

    await waitFor(() => acked.every((n) => n >= 100), 'some acknowledged typing', 60_000);
    await server.kill('SIGKILL');
    acking = false;
    await Promise.all(ackers);
    const ackedAtKill = [...acked];
    // The clients keep typing offline while the server is down; they must not resend before the check below.
    for (const c of clients) c.disconnect();
    await new Promise((r) => setTimeout(r, 100));

    await server.start();
    const fresh = new WebsocketProvider(server.wsUrl, room, new Y.Doc(), {
      WebSocketPolyfill: withBearer(TOKEN) as never,
      disableBc: true,
    });
    cleanups.push(() => fresh.destroy());
    await synced(fresh, 20_000);
    const recovered = fresh.doc.getText('t').toString();
    LETTERS.forEach((ch, i) => expect(count(recovered, ch)).toBeGreaterThanOrEqual(ackedAtKill[i] as number));

    typing = false;
    await Promise.all(typists);
    for (const c of clients) c.connect();
    await Promise.all(clients.map((c) => synced(c, 20_000)));
    await waitFor(
      () => clients.every((c) => c.doc.getText('t').toString() === fresh.doc.getText('t').toString()),
      'every client to converge with the restarted server',
      20_000,
    );
    const final = fresh.doc.getText('t').toString();
    // Everything typed, acknowledged or not (the clients resent the rest on reconnecting), is on the server.
    LETTERS.forEach((ch, i) => expect(count(final, ch)).toBe(typed[i]));
  });
});
