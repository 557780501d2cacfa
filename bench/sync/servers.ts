/**
 * The servers the sync and capacity benchmarks run, each as its own process (so its CPU time
 * and memory are its own): Quire on PGlite or PostgreSQL, Hocuspocus 4 and a bare relay.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HocuspocusProvider } from '@hocuspocus/provider';
import pg from 'pg';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const TOKEN = `qt_bench_${Math.random().toString(36).slice(2)}`;

export type ServerKind = 'quire' | 'quire-pg' | 'hocuspocus' | 'relay';
/** PostgreSQL runs only when a server is given (`DATABASE_URL`); each run gets a database of its own. */
export const POSTGRES_URL = process.env.SYNC_BENCH_DATABASE_URL ?? process.env.DATABASE_URL;

/** A client of any of the three servers: a doc, and a way to close it. */
export interface BenchClient {
  doc: Y.Doc;
  synced: () => boolean;
  destroy: () => void;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(check: () => boolean | Promise<boolean>, what: string, ms: number) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await sleep(20);
  }
}

/** CPU seconds (user + system) a process has used, from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export class ServerUnderTest {
  private child?: ChildProcess;
  private dir?: string;
  port = 0;
  rooms: string[] = [];

  constructor(
    readonly kind: ServerKind,
    /** Settings of this run on top of the bench's own (Quire's environment variables). */
    private env: Record<string, string> = {},
  ) {}

  get pid(): number {
    return this.child?.pid as number;
  }

  private inspector?: Promise<string>;

  /**
   * The server's live JavaScript heap in KiB, after a full garbage collection, read over its
   * inspector. Resident memory moves with when V8 hands pages back and with the embedded
   * database's WebAssembly memory; the live heap is what the connections and rooms hold.
   */
  async liveHeapKib(): Promise<number> {
    const heap = (await this.inspect(async (call) => {
      await call('HeapProfiler.collectGarbage');
      return call('Runtime.getHeapUsage');
    })) as { usedSize: number } | undefined;
    return heap ? heap.usedSize / 1024 : Number.NaN;
  }

  /** Records the server's CPU profile for `ms` and writes it to `file` (open it in Chrome's DevTools). */
  async cpuProfile(ms: number, file: string): Promise<void> {
    const profile = await this.inspect(async (call) => {
      await call('Profiler.enable');
      await call('Profiler.start');
      await sleep(ms);
      return ((await call('Profiler.stop')) as { profile: unknown }).profile;
    });
    if (profile) writeFileSync(file, JSON.stringify(profile));
  }

  /** Runs `use` with a session on the server's inspector. */
  private async inspect<T>(use: (call: (method: string) => Promise<any>) => Promise<T>): Promise<T | undefined> {
    const url = await this.inspector;
    if (!url) return undefined;
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const replies = new Map<number, (result: any) => void>();
    ws.on('message', (data: Buffer) => {
      const msg = JSON.parse(data.toString()) as { id?: number; result?: unknown };
      if (msg.id !== undefined) replies.get(msg.id)?.(msg.result);
    });
    let nextId = 0;
    const call = (method: string) =>
      new Promise<any>((resolve) => {
        const id = ++nextId;
        replies.set(id, resolve);
        ws.send(JSON.stringify({ id, method }));
      });
    try {
      return await use(call);
    } finally {
      ws.close();
    }
  }

  private databaseUrl = '';

  async start(docs: number) {
    this.port = await freePort();
    this.dir = await mkdtemp(join(tmpdir(), `quire-bench-${this.kind}-`));
    if (this.kind === 'quire-pg' && POSTGRES_URL) {
      const name = `quire_bench_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const u = new URL(POSTGRES_URL);
      u.pathname = `/${name}`;
      this.databaseUrl = u.toString();
    }
    await this.spawn();
    this.rooms = this.isQuire ? await this.createSpaces(docs) : Array.from({ length: docs }, (_, i) => `bench-${i}`);
  }

  get isQuire(): boolean {
    return this.kind === 'quire' || this.kind === 'quire-pg';
  }

  /** Starts the process again on the same storage (after a SIGKILL). */
  async restart() {
    await this.spawn();
  }

  private async spawn() {
    const entry = {
      quire: 'sync-server/src/main.ts',
      'quire-pg': 'sync-server/src/main.ts',
      hocuspocus: 'bench/sync/hocuspocus.ts',
      relay: 'bench/sync/relay.ts',
    }[this.kind];
    // The inspector lets the bench read the server's live heap after a full collection.
    const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', '--import', 'tsx', entry], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dir as string,
        DATABASE_URL: this.databaseUrl,
        BOOTSTRAP_ADMIN_TOKEN: TOKEN,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_TOKEN: '0',
        RATE_LIMIT_PER_ADDRESS: '0',
        ...this.env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child = child;
    this.inspector = new Promise((resolve) => {
      let seen = '';
      child.stderr?.on('data', (d: Buffer) => {
        const text = d.toString();
        seen += text;
        const url = /Debugger listening on (ws:\/\/\S+)/.exec(seen)?.[1];
        if (url) resolve(url);
        // The inspector's own notices are noise here; anything else the server says is not.
        const rest = text
          .split('\n')
          .filter((l) => l.trim() && !/Debugger (listening|ending|attached)|For help, see|Waiting for the debugger/.test(l));
        if (rest.length) process.stderr.write(`${rest.join('\n')}\n`);
      });
    });
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`${this.kind} exited while starting`);
        try {
          await fetch(`http://127.0.0.1:${this.port}/healthz`);
          return true;
        } catch {
          return false;
        }
      },
      `${this.kind} to start`,
      180_000,
    );
  }

  private async createSpaces(docs: number): Promise<string[]> {
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`http://127.0.0.1:${this.port}${path}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.json() as Promise<any>;
    };
    const org = (await call('GET', '/v1/orgs')).items[0].id;
    const rooms: string[] = [];
    for (let i = 0; i < docs; i++) rooms.push(`spaces/${(await call('POST', `/v1/orgs/${org}/spaces`, { title: `Bench ${i}` })).id}`);
    return rooms;
  }

  connect(room: string): BenchClient {
    const doc = new Y.Doc();
    const url = `ws://127.0.0.1:${this.port}`;
    if (this.kind === 'hocuspocus') {
      // A socket still connecting when its provider is destroyed (after the SIGKILL) reports
      // an error nobody listens to; unheard, it would end the benchmark.
      const Quiet = class extends WebSocket {
        constructor(u: string, protocols?: string | string[]) {
          super(u, protocols);
          this.on('error', () => {});
        }
      };
      const p = new HocuspocusProvider({ url, name: room, document: doc, WebSocketPolyfill: Quiet } as never);
      return { doc, synced: () => p.isSynced, destroy: () => p.destroy() };
    }
    const serverUrl = this.isQuire ? `${url}/v1/sync` : url;
    const WS = this.isQuire
      ? class extends WebSocket {
          constructor(u: string, protocols?: string | string[]) {
            super(u, protocols, { headers: { authorization: `Bearer ${TOKEN}` } });
          }
        }
      : WebSocket;
    const p = new WebsocketProvider(serverUrl, room, doc, { WebSocketPolyfill: WS as never, disableBc: true });
    return { doc, synced: () => p.synced, destroy: () => p.destroy() };
  }

  /** Kills the process at once: no shutdown, no flush. */
  async kill() {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    }
  }

  async stop() {
    await this.kill();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
    if (this.databaseUrl && POSTGRES_URL) {
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${new URL(this.databaseUrl).pathname.slice(1)} WITH (FORCE)`).catch(() => {});
      await admin.end();
    }
  }
}
