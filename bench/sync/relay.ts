/**
 * The ceiling of the sync benchmark: a bare y-protocols relay. One Y.Doc per room in
 * memory, no authentication, no persistence, no limits: what relaying alone costs.
 * Run as a process: `PORT=1234 node --import tsx bench/sync/relay.ts`.
 */
import { createServer } from 'node:http';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { type WebSocket, WebSocketServer } from 'ws';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';

interface RelayRoom {
  doc: Y.Doc;
  awareness: awarenessProtocol.Awareness;
  conns: Set<WebSocket>;
}

const rooms = new Map<string, RelayRoom>();

function room(name: string): RelayRoom {
  let r = rooms.get(name);
  if (r) return r;
  const doc = new Y.Doc();
  const awareness = new awarenessProtocol.Awareness(doc);
  awareness.setLocalState(null);
  const created: RelayRoom = { doc, awareness, conns: new Set() };
  doc.on('update', (update: Uint8Array, origin: unknown) => {
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 0);
    syncProtocol.writeUpdate(e, update);
    const msg = encoding.toUint8Array(e);
    for (const c of created.conns) if (c !== origin) c.send(msg);
  });
  awareness.on('update', ({ added, updated, removed }: Record<string, number[]>, origin: unknown) => {
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 1);
    encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(awareness, [...added!, ...updated!, ...removed!]));
    const msg = encoding.toUint8Array(e);
    for (const c of created.conns) if (c !== origin) c.send(msg);
  });
  rooms.set(name, created);
  return created;
}

export function startRelay(port: number): Promise<() => void> {
  const http = createServer((_req, res) => res.end('ok'));
  const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
  wss.on('connection', (ws, req) => {
    const r = room(new URL(req.url ?? '/', 'http://x').pathname);
    r.conns.add(ws);
    ws.on('close', () => r.conns.delete(ws));
    ws.on('message', (data: Buffer) => {
      try {
        const decoder = decoding.createDecoder(new Uint8Array(data));
        const e = encoding.createEncoder();
        const type = decoding.readVarUint(decoder);
        if (type === 0) {
          encoding.writeVarUint(e, 0);
          syncProtocol.readSyncMessage(decoder, e, r.doc, ws);
          if (encoding.length(e) > 1) ws.send(encoding.toUint8Array(e));
        } else if (type === 1) {
          awarenessProtocol.applyAwarenessUpdate(r.awareness, decoding.readVarUint8Array(decoder), ws);
        }
      } catch {
        ws.close();
      }
    });
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 0);
    syncProtocol.writeSyncStep1(e, r.doc);
    ws.send(encoding.toUint8Array(e));
  });
  return new Promise((resolve) => http.listen(port, '127.0.0.1', () => resolve(() => http.close())));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  await startRelay(Number(process.env.PORT ?? 1234));
}
