import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spaceRoom } from '@quire/shared/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { freshPostgresUrl } from '../../sync-server/src/testing/databases';
import { acknowledged, freePort, synced, waitFor, withBearer } from '../../sync-server/src/testing/syncClients';
import { type Bus, ServerProcess, availableBuses, busEnv } from './serverProcess';

const HAPROXY = '/usr/sbin/haproxy';
const TOKEN = `qt_affinity_${Math.random().toString(36).slice(2)}`;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

if (!existsSync(HAPROXY)) console.warn(`Skipping the load balancer test: ${HAPROXY} is missing (apt-get install -y haproxy).`);

async function instance(databaseUrl: string, bus: Bus): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-affined-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = await ServerProcess.create({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_TOKEN: TOKEN,
    METRICS: 'on',
    ...busEnv(bus),
  });
  cleanups.push(() => server.kill('SIGTERM'));
  await server.start();
  return server;
}

/**
 * HAProxy as README's "Several instances" configures it: the path is hashed onto the
 * instances (consistently, so an instance leaving moves only its own rooms), and a health
 * check takes a dead instance out within a second.
 */
async function haproxy(servers: ServerProcess[]): Promise<{ port: number; proc: ChildProcess }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'quire-haproxy-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    [
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  timeout tunnel 1h',
      'frontend quire',
      `  bind 127.0.0.1:${port}`,
      '  default_backend instances',
      'backend instances',
      '  balance uri',
      '  hash-type consistent',
      '  option httpchk GET /healthz',
      '  default-server inter 250ms fall 2 rise 2',
      ...servers.map((s, i) => `  server i${i} 127.0.0.1:${s.port} check`),
      '',
    ].join('\n'),
  );
  const proc = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  cleanups.push(() => {
    proc.kill('SIGKILL');
  });
  await waitFor(
    async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
      } catch {
        return false;
      }
    },
    'HAProxy to answer',
    20_000,
  );
  return { port, proc };
}

async function metric(server: ServerProcess, name: string): Promise<number> {
  const text = await (await fetch(`${server.http}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : Number.NaN;
}

const text = (p: WebsocketProvider) => p.doc.getText('t').toString();

const buses = await availableBuses();

describe.skipIf(!existsSync(HAPROXY)).each(buses)('two instances behind HAProxy hashing the path (%s bus)', (bus) => {
  // On PostgreSQL in both runs: the embedded database serves one process.
  it(
    'keeps a room on one instance, which sends the other nothing; when it dies its clients move and lose nothing',
    { timeout: 180_000 },
    async () => {
      const pg = await freshPostgresUrl();
      cleanups.push(pg.drop);
      const servers = [await instance(pg.url, bus), await instance(pg.url, bus)];
      const room = spaceRoom(await (servers[0] as ServerProcess).createSpace(TOKEN));
      const proxy = await haproxy(servers);
      const clients = [0, 1, 2].map(() => {
        const p = new WebsocketProvider(`ws://127.0.0.1:${proxy.port}/v1/sync`, room, new Y.Doc(), {
          WebSocketPolyfill: withBearer(TOKEN) as never,
          disableBc: true,
          maxBackoffTime: 300,
        });
        cleanups.push(() => p.destroy());
        return p;
      });
      const [first, second, third] = clients as [WebsocketProvider, WebsocketProvider, WebsocketProvider];
      await Promise.all(clients.map((c) => synced(c, 20_000)));

      first.doc.getText('t').insert(0, 'one;');
      await acknowledged(first, 20_000);
      second.doc.getText('t').insert(0, 'two;');
      await acknowledged(second, 20_000);
      await waitFor(() => clients.every((c) => text(c).length === 8), 'every client to have both edits', 10_000);

      const connections = await Promise.all(servers.map((s) => metric(s, 'quire_sync_connections')));
      expect([...connections].sort()).toEqual([0, 3]);
      const home = servers[connections.indexOf(3)] as ServerProcess;
      const other = servers[connections.indexOf(0)] as ServerProcess;
      // The other instance never loaded the room, so nothing of it reached its clients.
      expect(await metric(other, 'quire_sync_rooms_loaded')).toBe(0);
      expect(await metric(other, 'quire_sync_updates_relayed_total')).toBe(0);

      await home.kill('SIGKILL');
      await waitFor(
        async () => (await metric(other, 'quire_sync_connections')) === 3,
        'the clients to reconnect to the other instance',
        30_000,
      );
      await Promise.all(clients.map((c) => synced(c, 20_000)));
      third.doc.getText('t').insert(0, 'three;');
      await acknowledged(third, 20_000);
      await waitFor(() => clients.every((c) => text(c).length === 14), 'every client to have all three edits', 10_000);
      for (const c of clients) {
        for (const word of ['one;', 'two;', 'three;']) expect(text(c)).toContain(word);
      }

      // A reader arriving later, on whichever instance, reads all of it from the database.
      const late = new WebsocketProvider(other.wsUrl, room, new Y.Doc(), {
        WebSocketPolyfill: withBearer(TOKEN) as never,
        disableBc: true,
      });
      cleanups.push(() => late.destroy());
      await synced(late, 20_000);
      expect(text(late)).toBe(text(first));
    },
  );
});
