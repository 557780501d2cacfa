import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spaceRoom } from '@quire/shared/sync';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { WebsocketProvider } from 'y-websocket';
import { freshPostgresUrl } from '../../sync-server/src/testing/databases';
import { processEntry } from '../../sync-server/src/testing/processes';
import { synced, waitFor } from '../../sync-server/src/testing/syncClients';
import { type Bus, REDIS_URL, ServerProcess, availableBuses, bearerClient, busEnv } from './serverProcess';
import { shardOf, streamKey } from '../../sync-server/src/sync/RedisBus';
import { busMessages, storedSeqs } from './busMessages';

const TOKEN = `qt_scale_${Math.random().toString(36).slice(2)}`;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

function client(server: ServerProcess, room: string): WebsocketProvider {
  return bearerClient(server, room, TOKEN, cleanups);
}

async function instance(databaseUrl: string, bus: Bus, env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-instance-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = await ServerProcess.create({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_TOKEN: TOKEN,
    ...busEnv(bus),
    ...env,
  });
  cleanups.push(() => server.kill('SIGTERM'));
  await server.start();
  return server;
}

const text = (p: WebsocketProvider) => p.doc.getText('t').toString();

/**
 * Two instances, four rooms each open on both, typed in at once on A: every row stored is
 * announced exactly once (nothing left for the sweep, nothing sent twice). Answers what
 * was typed, stored and sent.
 */
async function typeInRooms(bus: Bus, shards: number) {
  const pg = await freshPostgresUrl();
  cleanups.push(pg.drop);
  const env = { SYNC_BUS_SHARDS: String(shards) };
  const [a, b] = [await instance(pg.url, bus, env), await instance(pg.url, bus, env)] as [ServerProcess, ServerProcess];
  const rooms = await Promise.all([0, 1, 2, 3].map(() => a.createSpace(TOKEN)));
  const docIds = rooms.map((id) => `space:${id}`);
  const pairs = rooms.map((id) => [client(a, spaceRoom(id)), client(b, spaceRoom(id))] as const);
  await Promise.all(pairs.flat().map((p) => synced(p)));
  const before = await storedSeqs(pg.url, docIds);
  const heard = await busMessages(bus, pg.url, docIds, shards);

  const EDITS = 25;
  for (let i = 0; i < EDITS; i++) {
    for (const [onA] of pairs) onA.doc.getText('t').insert(0, 'x');
    await new Promise((r) => setImmediate(r));
  }
  const typed = 'x'.repeat(EDITS);
  await waitFor(() => pairs.every(([, onB]) => text(onB) === typed), 'every edit to reach the clients of B', 20_000);

  const after = await storedSeqs(pg.url, docIds);
  const messages = await heard.stop();
  const rowsStored = docIds.reduce((n, id) => n + (after.get(id)! - before.get(id)!), 0);
  const announced = messages.flatMap((m) => m.rows).filter((r) => docIds.includes(r.docId));
  expect(announced).toHaveLength(rowsStored);
  expect(new Set(announced.map((r) => `${r.docId}@${r.seq}`)).size).toBe(rowsStored);
  return { updates: EDITS * rooms.length, rowsStored, messages, docIds };
}
/** Shorter than the rooms' periodic look at the log (5 s): what arrives in time came through the bus. */
const NOTIFIED_MS = 3000;
const buses = await availableBuses();
/** Loaded first by an instance whose stored groups never reach Redis (it died, or the XADD failed, after its commit). */
const preload = (file: string) => pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), file)).href;
const DROP_ANNOUNCEMENTS = `--import tsx --import ${preload('dropAnnouncements.mjs')}`;
/** Loaded first by an instance whose rooms never look at the log by themselves: what reaches them came through the bus. */
const HOLD_SWEEP = `--import tsx --import ${preload('holdSweep.mjs')}`;

describe.each(buses)('two server processes on one PostgreSQL, fanning out on the %s bus', (bus) => {
  // On PostgreSQL in both runs: the embedded database serves one process.
  it('relays edits and cursors between clients connected to different instances', { timeout: 120_000 }, async () => {
    const pg = await freshPostgresUrl();
    cleanups.push(pg.drop);
    const [a, b] = [await instance(pg.url, bus), await instance(pg.url, bus)] as [ServerProcess, ServerProcess];
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

  it('announces each stored group once, in one message per group, not one per row', { timeout: 120_000 }, async () => {
    const { updates, rowsStored, messages, docIds } = await typeInRooms(bus, 1);
    // At most one row per update; fewer messages than rows once groups hold several rooms' rows.
    expect(rowsStored).toBeLessThanOrEqual(updates);
    expect(messages.length).toBeLessThanOrEqual(rowsStored);
    expect(messages.some((m) => m.rows.filter((r) => docIds.includes(r.docId)).length > 1)).toBe(true);
    if (process.env.BUS_FIGURES) console.info(`${bus}: ${updates} updates, ${rowsStored} rows stored, ${messages.length} messages`);
  });

  it.runIf(bus === 'redis')(
    'with rooms spread over 16 streams, sends one entry per stream a group touches',
    { timeout: 120_000 },
    async () => {
      const { updates, rowsStored, messages } = await typeInRooms(bus, 16);
      expect(messages.length).toBeLessThanOrEqual(rowsStored);
      // Each entry lists rows of one shard's rooms only: an instance reads the streams of the rooms it holds.
      for (const m of messages) expect(new Set(m.rows.map((r) => shardOf(r.docId, 16))).size).toBe(1);
      if (process.env.BUS_FIGURES) console.info(`${bus}/16: ${updates} updates, ${rowsStored} rows stored, ${messages.length} messages`);
    },
  );
  it.runIf(bus === 'redis')(
    'delivers an edit whose announcement never reached Redis: the other instance reads it from the database',
    { timeout: 120_000 },
    async () => {
      const pg = await freshPostgresUrl();
      cleanups.push(pg.drop);
      const a = await instance(pg.url, bus, { NODE_OPTIONS: DROP_ANNOUNCEMENTS });
      const b = await instance(pg.url, bus);
      const room = spaceRoom(await a.createSpace(TOKEN));
      const onA = client(a, room);
      const onB = client(b, room);
      await Promise.all([synced(onA), synced(onB)]);
      onA.doc.getText('t').insert(0, 'stored on A, never announced');
      // Committed on A, with no entry on the stream: B's room finds it in the log at its periodic look.
      await waitFor(() => text(onB) === 'stored on A, never announced', 'the edit to reach a client of B', 30_000);
    },
  );
  it.runIf(bus === 'redis')(
    'has a room catch up from the database when its stream was trimmed past what its instance had read',
    { timeout: 120_000 },
    async () => {
      const pg = await freshPostgresUrl();
      cleanups.push(pg.drop);
      // A Redis database of this test's own: the burst below trims the stream it writes to.
      const redisUrl = `${REDIS_URL}/${1 + (process.pid % 15)}`;
      const probe = new Redis(redisUrl);
      cleanups.push(async () => {
        await probe.del(streamKey(0));
        probe.disconnect();
      });
      const a = await instance(pg.url, bus, { REDIS_URL: redisUrl, NODE_OPTIONS: DROP_ANNOUNCEMENTS });
      const b = await instance(pg.url, bus, { REDIS_URL: redisUrl, NODE_OPTIONS: HOLD_SWEEP });
      const spaceId = await a.createSpace(TOKEN);
      const room = spaceRoom(spaceId);
      const docId = `space:${spaceId}`;
      const onA = client(a, room);
      const onB = client(b, room);
      await Promise.all([synced(onA), synced(onB)]);
      const before = (await storedSeqs(pg.url, [docId])).get(docId) ?? 0;
      onA.doc.getText('t').insert(0, 'stored while B was behind');
      await waitFor(async () => ((await storedSeqs(pg.url, [docId])).get(docId) ?? 0) > before, 'the edit to be stored');
      // Its entry was among a burst of groups larger than the stream keeps, all added before B read again.
      const burst = probe.multi();
      for (let seq = 1; seq <= 3000; seq++) {
        burst.xadd(streamKey(0), 'MAXLEN', '~', 1000, '*', 'n', `elsewhere\nspace:elsewhere\t${seq}`);
      }
      await burst.exec();
      await waitFor(() => text(onB) === 'stored while B was behind', 'the edit to reach a client of B', 30_000);
    },
  );
});

describe('the embedded database', () => {
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
