import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { processEntry } from '../../sync-server/src/testing/processes';
import { freePort, waitFor, withBearer } from '../../sync-server/src/testing/syncClients';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** A server started as its own process (`node --import tsx sync-server/src/main.ts`), so it can be killed for real. */
export class ServerProcess {
  private child?: ChildProcess;
  private output = '';

  constructor(
    readonly port: number,
    private env: Record<string, string>,
  ) {}

  static async create(env: Record<string, string>): Promise<ServerProcess> {
    return new ServerProcess(await freePort(), env);
  }

  get http(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}/v1/sync`;
  }

  /** Starts the process and resolves once `/healthz` answers. */
  async start(timeoutMs = 60_000) {
    this.output = '';
    // Node itself runs the server (no wrapper process), so a signal reaches it. A test that
    // loads its own code first (NODE_OPTIONS) patches the sources, so it runs them through tsx.
    const entry = this.env.NODE_OPTIONS
      ? ['--import', 'tsx', 'sync-server/src/main.ts']
      : processEntry('server', 'sync-server/src/main.ts');
    const child = spawn(process.execPath, entry, {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...this.env, PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (d) => (this.output += d));
    child.stderr?.on('data', (d) => (this.output += d));
    let exited = false;
    child.once('exit', () => (exited = true));
    await waitFor(
      async () => {
        if (exited) throw new Error(`the server exited while starting:\n${this.output}`);
        try {
          return (await fetch(`${this.http}/healthz`)).ok;
        } catch {
          return false;
        }
      },
      'the server to answer /healthz',
      timeoutMs,
    );
  }

  /** Kills the process at once (no shutdown, no flush) and waits for it to be gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL') {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await gone;
  }

  async request(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.http}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** The bootstrap organization's first space, created through the REST API. */
  async createSpace(token: string): Promise<string> {
    const orgs = await this.request('GET', '/v1/orgs', token);
    const orgId = orgs.body.items[0].id;
    const space = await this.request('POST', `/v1/orgs/${orgId}/spaces`, token, { title: 'Synced' });
    if (space.status >= 300) throw new Error(`creating a space answered ${space.status}`);
    return space.body.id;
  }

  get log(): string {
    return this.output;
  }
}

/** A y-websocket client of `room` on `server` with `token` in its upgrade; `cleanups` destroys it after the file. */
export function bearerClient(
  server: ServerProcess,
  room: string,
  token: string,
  cleanups: (() => Promise<void> | void)[],
): WebsocketProvider {
  const p = new WebsocketProvider(server.wsUrl, room, new Y.Doc(), { WebSocketPolyfill: withBearer(token) as never, disableBc: true });
  cleanups.push(() => p.destroy());
  return p;
}

/** The buses between instances (`SYNC_BUS`) the scale-out tests run on. */
export const BUSES = ['postgres', 'redis'] as const;
export type Bus = (typeof BUSES)[number];
export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** The settings of an instance on `bus`. */
export function busEnv(bus: Bus): Record<string, string> {
  return bus === 'redis' ? { SYNC_BUS: 'redis', REDIS_URL } : { SYNC_BUS: 'postgres' };
}

/** Whether a Redis server answers at `REDIS_URL` (the machine starts one; a run without it skips the Redis cases, saying so). */
export async function redisAnswers(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  const answered = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) }, () => socket.write('PING\r\n'));
    socket.setTimeout(2000, () => (socket.destroy(), resolve(false)));
    socket.on('data', (d) => (socket.destroy(), resolve(d.toString().startsWith('+PONG'))));
    socket.on('error', () => resolve(false));
  });
  if (!answered) console.warn(`Skipping the Redis bus cases: no Redis answers at ${REDIS_URL}.`);
  return answered;
}

/** The buses this machine can run: PostgreSQL always, Redis when it answers. */
export async function availableBuses(): Promise<Bus[]> {
  return (await redisAnswers()) ? [...BUSES] : ['postgres'];
}
