/**
 * The sync clients of the REST benchmark (`bench/api.ts`): 20 clients typing into one
 * document. Run in a worker thread by default (see `syncLatency` there), or inline.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';

export interface SyncFigures {
  p50: number;
  p90: number;
  p99: number;
  samples: number;
}

/** p99 of a keystroke reaching the other clients of one document, over `seconds`. */
export async function measureSyncLatency(port: number, spaceId: string, token: string, seconds: number): Promise<SyncFigures> {
  const Bearer = class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { authorization: `Bearer ${token}` } });
    }
  };
  const count = 20;
  // Each provider listens for the process's exit (to say goodbye to the server): twenty are expected, not a leak.
  process.setMaxListeners(Math.max(process.getMaxListeners(), count + 10));
  const clients = Array.from(
    { length: count },
    () =>
      new WebsocketProvider(`ws://127.0.0.1:${port}/v1/sync`, `spaces/${spaceId}`, new Y.Doc(), {
        WebSocketPolyfill: Bearer as never,
        disableBc: true,
      }),
  );
  try {
    const deadline = Date.now() + 60_000;
    while (!clients.every((c) => c.synced)) {
      if (Date.now() > deadline) throw new Error('sync clients did not connect');
      await new Promise((r) => setTimeout(r, 50));
    }
    const latencies: number[] = [];
    for (const c of clients) {
      c.doc.getMap('stamps').observe((event) => {
        if (event.transaction.local) return;
        const now = performance.now();
        for (const key of event.keysChanged) {
          const at = (event.target as Y.Map<number>).get(key);
          if (typeof at === 'number') latencies.push(now - at);
        }
      });
    }
    const end = performance.now() + seconds * 1000;
    await Promise.all(
      clients.map(async (c, i) => {
        await new Promise((r) => setTimeout(r, i * 25));
        while (performance.now() < end) {
          c.doc.transact(() => {
            c.doc.getText('body').insert(0, 'x');
            c.doc.getMap('stamps').set(String(i), performance.now());
          });
          await new Promise((r) => setTimeout(r, 500));
        }
      }),
    );
    await new Promise((r) => setTimeout(r, 500));
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.floor(latencies.length * q)] ?? NaN;
    return { p50: at(0.5), p90: at(0.9), p99: at(0.99), samples: latencies.length };
  } finally {
    for (const c of clients) c.destroy();
  }
}

if (!isMainThread && parentPort && workerData?.spaceId) {
  const { port, spaceId, token, seconds } = workerData as { port: number; spaceId: string; token: string; seconds: number };
  parentPort.postMessage(await measureSyncLatency(port, spaceId, token, seconds));
}
