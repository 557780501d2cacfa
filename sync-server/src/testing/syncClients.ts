import { createServer } from 'node:net';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { type Config, loadConfig } from '../config';
import { createApp } from '../http/app';
import { createLogger } from '../logger';
import { type RunningServer, startServer } from '../server';
import type { Db } from '../store/db';
import type { SyncConfig } from '../sync/config';
import { freshTestDb } from './databases';
import { TEST_ENV, TestServer } from './harness';

/**
 * A real listening server (port 0) on a fresh database, with the REST helpers of
 * `TestServer` bound to the same database, for tests that connect real WebSocket clients.
 */
export class LiveServer {
  private providers = new Set<WebsocketProvider>();

  constructor(
    readonly running: RunningServer,
    /** REST requests and fixtures (users, organizations) on the same database. */
    readonly t: TestServer,
  ) {}

  /** Starts a server; `db` shares a database with another LiveServer (two instances, one database). */
  static async start(overrides: Partial<Omit<Config, 'sync'>> & { sync?: Partial<SyncConfig> } = {}, db?: Db): Promise<LiveServer> {
    const base = loadConfig(TEST_ENV);
    const config: Config = {
      ...base,
      port: 0,
      host: '127.0.0.1',
      publicUrl: 'http://quire.test',
      ...overrides,
      sync: { ...base.sync, ...overrides.sync },
    };
    // A second instance on a shared database must not close it under the first.
    const database = db ? (Object.create(db, { close: { value: async () => {} } }) as Db) : await freshTestDb();
    const log = createLogger(process.env.LOG_LEVEL ?? 'silent');
    const running = await startServer(config, log, { store: { db: database, unlock: () => {} } });
    const t = new TestServer(database, running.deps, createApp(running.deps));
    return new LiveServer(running, t);
  }

  get db(): Db {
    return this.running.deps.db;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.running.port}/v1/sync`;
  }

  /** A new space in `orgId`, created through the REST API by `token`. */
  async space(orgId: string, token: string): Promise<string> {
    const res = await this.t.post(`/v1/orgs/${orgId}/spaces`, token, { title: 'Synced' });
    if (res.status !== 201 && res.status !== 200) throw new Error(`creating a space answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  }

  /** A stock y-websocket provider, authenticated by header (or `params.token` when `viaQuery`). */
  provider(room: string, token: string | undefined, opts: { doc?: Y.Doc; viaQuery?: boolean; connect?: boolean } = {}): WebsocketProvider {
    const doc = opts.doc ?? new Y.Doc();
    const provider = new WebsocketProvider(this.wsUrl, room, doc, {
      WebSocketPolyfill: (opts.viaQuery || !token ? WebSocket : withBearer(token)) as never,
      params: opts.viaQuery && token ? { token } : {},
      // Node has BroadcastChannel: without this, providers in one process would sync around the server.
      disableBc: true,
      connect: opts.connect ?? true,
      maxBackoffTime: 300,
    });
    this.providers.add(provider);
    return provider;
  }

  async close() {
    for (const p of this.providers) p.destroy();
    await this.running.stop();
  }
}

/** A WebSocket class that sends `Authorization: Bearer <token>` on the upgrade (what Node clients do). */
export function withBearer(token: string): typeof WebSocket {
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { authorization: `Bearer ${token}` } });
    }
  } as typeof WebSocket;
}

/** Resolves when `check` holds, polling; rejects with `what` after `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function synced(provider: WebsocketProvider, ms = 5000): Promise<void> {
  return waitFor(() => provider.synced, `${provider.roomname} to sync`, ms);
}

/** The next close of the provider's socket, with its code and reason. */
export function nextClose(provider: WebsocketProvider): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => {
    const on = (event: { code: number; reason: string } | null) => {
      if (!event) return;
      provider.off('connection-close', on as never);
      resolve({ code: event.code, reason: String(event.reason) });
    };
    provider.on('connection-close', on as never);
  });
}

/** Collects the reasons of `permission denied` messages the server sends this provider. */
export function refusals(provider: WebsocketProvider): string[] {
  const seen: string[] = [];
  provider.messageHandlers[2] = (_encoder, decoder) => {
    decoding.readVarUint(decoder); // permission denied
    seen.push(decoding.readVarString(decoder));
  };
  return seen;
}

/**
 * Acknowledgement: sends a sync step 1 and resolves at the server's step 2 reply. The
 * server answers a connection's messages in order, and only after every update it sent
 * before is stored, so everything in the doc when this is called is then durable.
 * Returns the client's state vector at the time of the call.
 */
export function acknowledged(provider: WebsocketProvider, ms = 5000): Promise<Uint8Array> {
  const sv = Y.encodeStateVector(provider.doc);
  return new Promise((resolve, reject) => {
    const original = provider.messageHandlers[0] as (typeof provider.messageHandlers)[0];
    const timer = setTimeout(() => {
      provider.messageHandlers[0] = original;
      reject(new Error('no acknowledgement'));
    }, ms);
    provider.messageHandlers[0] = (encoder, decoder, p, emitSynced, type) => {
      const step = decoding.peekVarUint(decoder);
      original(encoder, decoder, p, emitSynced, type);
      if (step === syncProtocol.messageYjsSyncStep2) {
        provider.messageHandlers[0] = original;
        clearTimeout(timer);
        resolve(sv);
      }
    };
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 0);
    syncProtocol.writeSyncStep1(e, provider.doc);
    const ws = provider.ws;
    if (!ws || ws.readyState !== ws.OPEN) {
      clearTimeout(timer);
      provider.messageHandlers[0] = original;
      reject(new Error('not connected'));
      return;
    }
    ws.send(encoding.toUint8Array(e));
  });
}

/** A raw WebSocket to the endpoint: every message and the close are recorded. */
export async function rawClient(
  url: string,
  token?: string,
): Promise<{ ws: WebSocket; messages: Uint8Array[]; closed: Promise<{ code: number; reason: string }> }> {
  const ws = new WebSocket(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const messages: Uint8Array[] = [];
  ws.on('message', (data: Buffer) => messages.push(new Uint8Array(data)));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  ws.on('error', () => {});
  await new Promise<void>((resolve) => {
    ws.once('open', () => resolve());
    ws.once('close', () => resolve());
  });
  return { ws, messages, closed };
}

/** A free TCP port on the loopback interface (for servers started as child processes). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
