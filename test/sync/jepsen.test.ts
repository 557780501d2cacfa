import { rmSync } from 'node:fs';
import { spaceRoom } from '@quire/shared/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { WebsocketProvider } from 'y-websocket';
import * as decoding from 'lib0/decoding';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { freshPostgresUrl, preparedDataDir } from '../../sync-server/src/testing/databases';
import { acknowledged, synced, waitFor, withBearer } from '../../sync-server/src/testing/syncClients';
import { ServerProcess } from './serverProcess';

/**
 * Jepsen-style: the server is killed with SIGKILL every ~2 s while 20 clients type. Each
 * typed edit is a key of its own, so what the server holds after a restart can be compared
 * as a set with what clients saw: every edit a client saw acknowledged, and every edit any
 * client received from the server, must be in the document the restarted server serves,
 * checked before any client reconnects (a client would otherwise send back what was lost).
 * `JEPSEN_KILLS` sets how many kills (3 by default, kept short for CI, about 16 s of typing between kills; 30
 * is the full minute). A restart is not counted: it takes what the machine gives it.
 */
const TOKEN = `qt_jepsen_${Math.random().toString(36).slice(2)}`;
const CLIENTS = 20;
const KILL_EVERY_MS = 2000;
const KILLS = Number(process.env.JEPSEN_KILLS ?? 3);
/** A start on a busy machine (migrations, recovery of a killed database) can take long; it is not what is tested. */
const START_MS = 180_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function storage(): Promise<Record<string, string>> {
  const dataDir = preparedDataDir('quire-jepsen-');
  // JEPSEN_KEEP keeps the data for a look after a failure.
  if (process.env.JEPSEN_KEEP) console.info(`jepsen data: ${dataDir}`);
  else cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  if (!process.env.DATABASE_URL) return { DATA_DIR: dataDir };
  const pg = await freshPostgresUrl();
  cleanups.push(pg.drop);
  return { DATA_DIR: dataDir, DATABASE_URL: pg.url };
}

function provider(server: ServerProcess, room: string): WebsocketProvider {
  const p = new WebsocketProvider(server.wsUrl, room, new Y.Doc(), {
    WebSocketPolyfill: withBearer(TOKEN) as never,
    disableBc: true,
    maxBackoffTime: 200,
  });
  cleanups.push(() => p.destroy());
  return p;
}

/**
 * Whether everything the client typed has been sent on its current connection. Edits typed
 * offline travel in the client's answer to the server's sync step 1, so until that step 1
 * arrived an acknowledgement would not cover them.
 */
function trackSent(p: WebsocketProvider): () => boolean {
  let sent = false;
  p.on('status', ({ status }: { status: string }) => {
    if (status !== 'connected') sent = false;
  });
  const original = p.messageHandlers[0] as (typeof p.messageHandlers)[0];
  p.messageHandlers[0] = (encoder, decoder, provider, emitSynced, type) => {
    const step = decoding.peekVarUint(decoder);
    original(encoder, decoder, provider, emitSynced, type);
    // The provider answers a step 1 with its step 2 as this handler returns.
    if (step === syncProtocol.messageYjsSyncStep1) setImmediate(() => (sent = true));
  };
  return () => sent;
}

const keysOf = (doc: Y.Doc) => new Set(doc.getMap('ops').keys());

describe('SIGKILL every two seconds while 20 clients type', () => {
  it('loses no acknowledged or relayed edit', { timeout: KILLS * START_MS + 300_000 }, async () => {
    const server = await ServerProcess.create({ ...(await storage()), BOOTSTRAP_ADMIN_TOKEN: TOKEN, SYNC_UPGRADES_PER_MINUTE: '100000' });
    cleanups.push(() => server.kill());
    await server.start(START_MS);
    const room = spaceRoom(await server.createSpace(TOKEN));
    const clients = Array.from({ length: CLIENTS }, () => provider(server, room));
    const allSent = clients.map(trackSent);
    await Promise.all(clients.map((c) => synced(c, 120_000)));

    const typed = clients.map(() => 0);
    /** Edits that must survive: acknowledged to their writer, or received from the server by anyone. */
    const mustHold = new Set<string>();
    let typing = true;
    const typists = clients.map((c, i) =>
      (async () => {
        while (typing) {
          c.doc.getMap('ops').set(`${i}-${typed[i]}`, true);
          typed[i] = (typed[i] ?? 0) + 1;
          await new Promise((r) => setTimeout(r, 20 + Math.random() * 30));
        }
      })(),
    );

    let kills = 0;
    let lost = 0;
    while (kills < KILLS) {
      let acking = true;
      const acked = clients.map(() => 0);
      const ackers = clients.map((c, i) =>
        (async () => {
          while (acking) {
            const upTo = typed[i] ?? 0;
            // Until the answer to the provider's own step 1 arrived (`synced`), a step 2 could be that answer, not ours.
            if (!c.synced || !allSent[i]?.()) {
              await new Promise((r) => setTimeout(r, 25));
              continue;
            }
            try {
              await acknowledged(c, 1500);
              if (acking) acked[i] = Math.max(acked[i] ?? 0, upTo);
            } catch {
              // not connected, or killed before answering: not acknowledged
            }
            await new Promise((r) => setTimeout(r, 25));
          }
        })(),
      );
      await new Promise((r) => setTimeout(r, KILL_EVERY_MS * (0.5 + Math.random())));
      await server.kill('SIGKILL');
      kills++;
      // Nothing a client learns after this point came from the killed process.
      const ackedAtKill = [...acked];
      const received = clients.map((c, i) => [...keysOf(c.doc)].filter((k) => !k.startsWith(`${i}-`)));
      acking = false;
      for (const c of clients) c.disconnect();
      await Promise.all(ackers);
      ackedAtKill.forEach((n, i) => {
        for (let k = 0; k < n; k++) mustHold.add(`${i}-${k}`);
      });
      for (const keys of received) for (const k of keys) mustHold.add(k);

      const t0 = Date.now();
      await server.start(START_MS);
      const t1 = Date.now();
      const reader = provider(server, room);
      await synced(reader, 120_000);
      const held = keysOf(reader.doc);
      reader.destroy();
      if (process.env.JEPSEN_DEBUG) console.info(`restart ${t1 - t0} ms, reader synced after ${Date.now() - t1} ms`);
      const missing = [...mustHold].filter((k) => !held.has(k));
      lost += missing.length;
      if (missing.length > 0) {
        const firstPerWriter = new Map<string, number>();
        for (const k of missing) {
          const [w, n] = k.split('-');
          firstPerWriter.set(w as string, Math.min(firstPerWriter.get(w as string) ?? Number.POSITIVE_INFINITY, Number(n)));
        }
        console.error(
          `after kill ${kills}: lost ${missing.length}; first lost per writer: ${JSON.stringify(Object.fromEntries(firstPerWriter))}`,
        );
      }
      for (const c of clients) c.connect();
    }
    typing = false;
    await Promise.all(typists);
    await Promise.all(clients.map((c) => synced(c, 120_000)));
    const reader = provider(server, room);
    await synced(reader, 120_000);
    await waitFor(() => keysOf(reader.doc).size === typed.reduce((a, b) => a + b, 0), 'every typed edit to reach the server', 120_000);
    console.info(`jepsen: ${kills} kills, ${mustHold.size} edits acknowledged or relayed before a kill, lost ${lost}`);
    expect(mustHold.size).toBeGreaterThan(0);
    expect(lost).toBe(0);
  });
});
