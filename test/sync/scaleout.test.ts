import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spaceRoom } from '@quire/shared/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { WebsocketProvider } from 'y-websocket';
import { freshPostgresUrl } from '../../sync-server/src/testing/databases';
import { processEntry } from '../../sync-server/src/testing/processes';
import { synced, waitFor } from '../../sync-server/src/testing/syncClients';
import { ServerProcess, bearerClient } from './serverProcess';

const TOKEN = `qt_scale_${Math.random().toString(36).slice(2)}`;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

function client(server: ServerProcess, room: string): WebsocketProvider {
  return bearerClient(server, room, TOKEN, cleanups);
}

async function instance(databaseUrl: string): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-instance-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = await ServerProcess.create({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, BOOTSTRAP_ADMIN_TOKEN: TOKEN });
  cleanups.push(() => server.kill('SIGTERM'));
  await server.start();
  return server;
}

const text = (p: WebsocketProvider) => p.doc.getText('t').toString();
/** Shorter than the rooms' periodic look at the log (5 s): what arrives in time came through LISTEN/NOTIFY. */
const NOTIFIED_MS = 3000;

describe('two server processes on one PostgreSQL', () => {
  // On PostgreSQL in both runs: the embedded database serves one process.
  it('relays edits and cursors between clients connected to different instances', { timeout: 120_000 }, async () => {
    const pg = await freshPostgresUrl();
    cleanups.push(pg.drop);
    const [a, b] = [await instance(pg.url), await instance(pg.url)] as [ServerProcess, ServerProcess];
    const room = spaceRoom(await a.createSpace(TOKEN));
    const onA = client(a, room);
    const onB = client(b, room);
    await Promise.all([synced(onA), synced(onB)]);

    onB.doc.getText('t').insert(0, 'typed on B');
    await waitFor(() => text(onA) === 'typed on B', 'the edit made on B to reach a client of A', NOTIFIED_MS);
    onA.doc.getText('t').insert(0, 'then on A, ');
    await waitFor(() => text(onB) === 'then on A, typed on B', 'the edit made on A to reach a client of B', NOTIFIED_MS);

    onB.awareness.setLocalStateField('user', { name: 'bea' });
    await waitFor(
      () => [...onA.awareness.getStates().values()].some((s) => s.user?.name === 'bea'),
      'the cursor state set on B to reach A',
      NOTIFIED_MS,
    );

    // A room opened later on either instance is filled from the stored log.
    const late = client(b, room);
    await synced(late);
    expect(text(late)).toBe('then on A, typed on B');
  });

  it('says clearly that the embedded database runs one process when asked for more', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quire-workers-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const child = spawn(process.execPath, processEntry('server', 'sync-server/src/main.ts'), {
      cwd: join(import.meta.dirname, '../..'),
      env: { ...process.env, WORKERS: '2', DATABASE_URL: '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(1);
    expect(stderr).toContain('the embedded database (PGlite in');
    expect(stderr).toContain('serves one process only');
    expect(stderr).toContain('set DATABASE_URL');
  });
});
