import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import type { Db } from '../store/db';
import { logNotice } from '../store/ydocs';
import { waitFor } from '../testing/syncClients';
import { RedisBus, streamKey } from './RedisBus';
import type { BusHandlers, LogRows } from './SyncBus';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
const redisUp = await probe.connect().then(
  () => true,
  () => false,
);
if (!redisUp) console.warn(`Skipping the Redis bus tests: no Redis answers at ${REDIS_URL}.`);

/** Streams of this file's own, so runs sharing the machine's Redis never meet. */
const PREFIX = `quire:test:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
/** The bus needs the database only for the notices of writes outside the rooms: none here. */
const noDb = { listen: async () => async () => {} } as unknown as Db;
const buses: RedisBus[] = [];
afterAll(async () => {
  for (const b of buses) await b.stop();
  if (redisUp) {
    for (const key of await probe.keys(`${PREFIX}:*`)) await probe.del(key);
    probe.disconnect();
  }
});

async function bus(shards = 1): Promise<{ bus: RedisBus; heard: LogRows[]; missed: (string[] | 'all')[] }> {
  const b = new RedisBus(noDb, REDIS_URL, shards, createLogger('silent'), PREFIX);
  buses.push(b);
  const heard: LogRows[] = [];
  const missed: (string[] | 'all')[] = [];
  const handlers: BusHandlers = { rows: (n) => heard.push(n), awareness: () => {}, missed: (ids) => missed.push(ids ?? 'all') };
  await b.start(handlers);
  return { bus: b, heard, missed };
}

describe.skipIf(!redisUp)('the Redis bus', () => {
  it('hears each group another instance stored, as one entry, and catches a room up as it starts reading it', async () => {
    const a = await bus();
    const b = await bus();
    b.bus.hold('doc:held');
    // Whatever was announced before the bus started reading is in the database: the room reads it there.
    await waitFor(() => b.missed.some((m) => m !== 'all' && m.includes('doc:held')), 'the room to catch up from the database');
    a.bus.announce({
      origin: 'a',
      rows: [
        { docId: 'doc:held', seq: 7 },
        { docId: 'doc:other', seq: 3 },
      ],
    });
    await waitFor(() => b.heard.length === 1, 'the group to reach the other instance');
    expect(b.heard[0]).toEqual({
      origin: 'a',
      rows: [
        { docId: 'doc:held', seq: 7 },
        { docId: 'doc:other', seq: 3 },
      ],
    });
    expect(await probe.xlen(streamKey(0, PREFIX))).toBe(1);
    expect(a.bus.sent.groups).toBe(1);
  });

  it('has every room catch up from the database when its connection to Redis dropped (entries may be gone)', async () => {
    const b = await bus();
    b.bus.hold('doc:dropped');
    await waitFor(() => b.missed.length === 1, 'the room to start reading');
    const clients = String(await probe.client('LIST'));
    const line = clients.split('\n').find((l) => l.includes(`name=${b.bus.name}-reader `));
    const id = /(?:^|\s)id=(\d+)/.exec(line ?? '')?.[1];
    expect(id).toBeDefined();
    await probe.client('KILL', 'ID', id as string);
    await waitFor(() => b.missed.includes('all'), 'every room to catch up once the reader is back');
  });

  it('has a room catch up from the database when its stream was trimmed past where its reader stood', async () => {
    const b = await bus();
    b.bus.hold('doc:behind');
    await waitFor(() => b.missed.length === 1, 'the room to start reading');
    // Other instances store many groups at once while this reader waits: more than the stream
    // keeps, so the oldest entries this reader never saw are trimmed away before it reads again.
    const KEEP = 1000;
    const GROUPS = 3000;
    const burst = probe.multi();
    for (let seq = 1; seq <= GROUPS; seq++) {
      burst.xadd(streamKey(0, PREFIX), 'MAXLEN', '~', KEEP, '*', 'n', logNotice('elsewhere', [{ docId: 'doc:behind', seq }]));
    }
    await burst.exec();
    await waitFor(() => b.missed.length === 2, 'the room to catch up from the database');
    expect(b.missed[1]).toEqual(['doc:behind']);
    // What the stream no longer held never reached this reader: only the database has it.
    const heardSeqs = b.heard.flatMap((n) => n.rows.map((r) => r.seq));
    expect(heardSeqs).not.toContain(1);
    expect(await probe.xlen(streamKey(0, PREFIX))).toBeLessThan(GROUPS);
  });

  it('reads only the streams of the rooms it holds when rooms are spread over several', async () => {
    const a = await bus(16);
    const b = await bus(16);
    // Two rooms in different shards: b holds one of them.
    const ids = Array.from({ length: 40 }, (_, i) => `doc:spread-${i}`);
    const { shardOf } = await import('./RedisBus');
    const held = ids[0] as string;
    const elsewhere = ids.find((id) => shardOf(id, 16) !== shardOf(held, 16)) as string;
    b.bus.hold(held);
    await waitFor(() => b.missed.length === 1, 'the room to start reading');
    a.bus.announce({
      origin: 'a',
      rows: [
        { docId: held, seq: 1 },
        { docId: elsewhere, seq: 1 },
      ],
    });
    await waitFor(() => b.heard.length === 1, 'the held room’s entry');
    expect(a.bus.sent.groups).toBe(2);
    expect(b.heard[0]?.rows).toEqual([{ docId: held, seq: 1 }]);
  });
});
