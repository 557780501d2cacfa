/**
 * Capacity of one instance (`npm run bench -- capacity`), on PGlite and, when `DATABASE_URL`
 * names a server, on PostgreSQL:
 *
 * - idle sync connections over many rooms: the server's live heap (after a full collection)
 *   per idle connection and per loaded small document; rooms unloaded after `SYNC_IDLE_MS`
 *   once everyone left, and the heap back near where it started;
 * - the server's CPU while all of them sit idle, then while some of them type: updates stored
 *   and relayed a second, CPU per update and, on PostgreSQL, write-ahead log per update;
 * - a 4 MB document (a page of 40,000 paragraphs): storing it, loading it into a room and
 *   compacting its log, each with the longest event-loop block seen meanwhile (the server's
 *   own `nodejs_eventloop_lag_max_seconds`, reset at each scrape of `/metrics`).
 *
 * Goals are absolute (the Yjs community's figures), printed beside each figure: at most 20 kB
 * per idle connection, 100 kB per small loaded document, 100 ms of event-loop block.
 * `CAPACITY_CONNECTIONS` (10000) and `CAPACITY_ROOMS` (1000) size the first part.
 */
import { createPage } from '@quire/shared/content/index';
import * as encoding from 'lib0/encoding';
import pg from 'pg';
import WebSocket from 'ws';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { join } from 'node:path';
import { POSTGRES_URL, ServerUnderTest, TOKEN, cpuSeconds, sleep, until } from './sync/servers';

const CONNECTIONS = Number(process.env.CAPACITY_CONNECTIONS ?? 10_000);
const ROOMS = Number(process.env.CAPACITY_ROOMS ?? 1000);
const IDLE_MS = 3000;
const COMPACT_EVERY = 100;
const LARGE_PARAGRAPHS = 40_000;
/** Sockets opened at once: enough to be quick, few enough not to be the upgrade limiter's flood. */
const OPENING_AT_ONCE = 100;
const IDLE_WINDOW_MS = 10_000;
const TYPISTS = Number(process.env.CAPACITY_TYPISTS ?? 200);
const TYPING_RATE = 2;
const TYPING_MS = 10_000;
/** `CAPACITY_PROFILE=<dir>` writes the server's CPU profile of the idle window there. */
const PROFILE_DIR = process.env.CAPACITY_PROFILE;

const EMPTY_STEP1 = (() => {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  syncProtocol.writeSyncStep1(e, new Y.Doc());
  return encoding.toUint8Array(e);
})();

function updateMessage(update: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  syncProtocol.writeUpdate(e, update);
  return encoding.toUint8Array(e);
}

/** A bare y-websocket client: it asks for the document (sync step 1) and keeps the socket open. */
class IdleClient {
  readonly ws: WebSocket;
  /** Resolves with the first sync step 2 (the document as the server has it). */
  readonly synced: Promise<number>;

  constructor(server: ServerUnderTest, room: string) {
    this.ws = new WebSocket(`ws://127.0.0.1:${server.port}/v1/sync/${room}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    this.synced = new Promise((resolve, reject) => {
      this.ws.on('message', (data: Buffer) => {
        // y-websocket sync message (0), step 2 (1): its length is the document's.
        if (data[0] === 0 && data[1] === 1) resolve(data.length);
      });
      this.ws.once('error', reject);
      this.ws.once('close', (code) => reject(new Error(`closed with ${code}`)));
    });
    this.ws.once('open', () => this.ws.send(EMPTY_STEP1));
  }

  close() {
    this.ws.removeAllListeners('close');
    this.ws.close();
  }
}

async function openAll(server: ServerUnderTest, rooms: string[]): Promise<IdleClient[]> {
  const clients: IdleClient[] = [];
  for (let i = 0; i < rooms.length; i += OPENING_AT_ONCE) {
    const batch = rooms.slice(i, i + OPENING_AT_ONCE).map((r) => new IdleClient(server, r));
    await Promise.all(batch.map((c) => c.synced));
    clients.push(...batch);
  }
  return clients;
}

async function metric(server: ServerUnderTest, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : Number.NaN;
}

/** The longest event-loop block since the last call, in ms (each scrape resets the server's maximum). */
const longestBlockMs = async (server: ServerUnderTest) => (await metric(server, 'nodejs_eventloop_lag_max_seconds')) * 1000;

interface Figures {
  adapter: string;
  baseKib: number;
  kibPerConnection: number;
  kibPerRoom: number;
  /** CPU of the server process, threads included, while every connection sits idle. */
  idleCpuPercent: number;
  typing: Typing;
  roomsAfterIdle: number;
  kibAfterAllLeft: number;
  large: {
    bytes: number;
    storeMs: number;
    storeBlockMs: number;
    loadMs: number;
    loadBlockMs: number;
    compactMs: number;
    compactBlockMs: number;
  };
}

interface Typing {
  storedPerSecond: number;
  relayedPerSecond: number;
  cpuMicrosPerStored: number;
  /** PostgreSQL only: write-ahead log per stored update, the same window's idle WAL taken out. */
  walBytesPerStored?: number;
}

/** WAL position of the whole PostgreSQL cluster, in bytes. */
async function walPosition(): Promise<bigint> {
  const c = new pg.Client({ connectionString: POSTGRES_URL });
  await c.connect();
  try {
    const { rows } = await c.query<{ lsn: string }>("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS lsn");
    return BigInt((rows[0] as { lsn: string }).lsn.split('.')[0] as string);
  } finally {
    await c.end();
  }
}

/**
 * `TYPISTS` clients, one per room, each sending `TYPING_RATE` keystrokes a second for
 * `TYPING_MS` while every other connection stays open: what one instance stores and relays,
 * and at what cost in CPU and (on PostgreSQL) write-ahead log.
 */
async function typeFor(server: ServerUnderTest, kind: 'quire' | 'quire-pg', typists: IdleClient[]): Promise<Typing> {
  const wal = kind === 'quire-pg';
  const idleWalStart = wal ? await walPosition() : 0n;
  if (wal) await sleep(TYPING_MS);
  const idleWal = wal ? (await walPosition()) - idleWalStart : 0n;
  const stored0 = await metric(server, 'quire_sync_updates_stored_total');
  const relayed0 = await metric(server, 'quire_sync_updates_relayed_total');
  const cpu0 = cpuSeconds(server.pid);
  const wal0 = wal ? await walPosition() : 0n;
  const started = performance.now();
  let sent = 0;
  await Promise.all(
    typists.map(async (c, i) => {
      const doc = new Y.Doc();
      doc.on('update', (u: Uint8Array) => {
        sent++;
        c.ws.send(updateMessage(u));
      });
      await sleep((i / typists.length) * (1000 / TYPING_RATE));
      while (performance.now() - started < TYPING_MS) {
        doc.getText('typed').insert(0, 'k');
        await sleep(1000 / TYPING_RATE);
      }
    }),
  );
  await until(
    async () => (await metric(server, 'quire_sync_updates_stored_total')) - stored0 >= sent,
    'the keystrokes to be stored',
    60_000,
  );
  const seconds = (performance.now() - started) / 1000;
  const stored = (await metric(server, 'quire_sync_updates_stored_total')) - stored0;
  const relayed = (await metric(server, 'quire_sync_updates_relayed_total')) - relayed0;
  const cpu = cpuSeconds(server.pid) - cpu0;
  const walBytes = wal ? (await walPosition()) - wal0 - idleWal : undefined;
  return {
    storedPerSecond: stored / seconds,
    relayedPerSecond: relayed / seconds,
    cpuMicrosPerStored: (cpu / stored) * 1e6,
    walBytesPerStored: walBytes === undefined ? undefined : Number(walBytes) / stored,
  };
}

function largeUpdate(): Uint8Array {
  const doc = new Y.Doc();
  const line = (i: number) => `Paragraph ${i}: a sentence of ordinary documentation prose.`;
  createPage(doc, { title: 'Large', markdown: Array.from({ length: LARGE_PARAGRAPHS }, (_, i) => line(i)).join('\n\n') });
  return Y.encodeStateAsUpdate(doc);
}

async function measure(kind: 'quire' | 'quire-pg', large: Uint8Array): Promise<Figures> {
  const server = new ServerUnderTest(kind, {
    METRICS: 'on',
    SYNC_IDLE_MS: String(IDLE_MS),
    SYNC_COMPACT_EVERY: String(COMPACT_EVERY),
    SYNC_UPGRADES_PER_MINUTE: String(CONNECTIONS * 10),
    SYNC_MESSAGES_PER_SECOND: '100000',
    SYNC_MESSAGE_BURST: '100000',
  });
  try {
    await server.start(ROOMS);
    const rooms = server.rooms;
    await sleep(1000);
    const base = await server.liveHeapKib();

    // One connection per room loads every room; the rest add connections only.
    const first = await openAll(server, rooms);
    const withRooms = await server.liveHeapKib();
    const rest = await openAll(
      server,
      Array.from({ length: CONNECTIONS - first.length }, (_, i) => rooms[i % rooms.length] as string),
    );
    const withAll = await server.liveHeapKib();
    // Nobody types: what the server spends on connections and rooms that only sit there.
    const cpuBefore = cpuSeconds(server.pid);
    if (PROFILE_DIR) await server.cpuProfile(IDLE_WINDOW_MS, join(PROFILE_DIR, `capacity-idle-${kind}.cpuprofile`));
    else await sleep(IDLE_WINDOW_MS);
    const idleCpuPercent = ((cpuSeconds(server.pid) - cpuBefore) / (IDLE_WINDOW_MS / 1000)) * 100;
    const kibPerConnection = (withAll - withRooms) / rest.length;
    const kibPerRoom = (withRooms - base - kibPerConnection * first.length) / rooms.length;
    const typing = await typeFor(server, kind, first.slice(0, TYPISTS));

    for (const c of [...first, ...rest]) c.close();
    await until(async () => (await metric(server, 'quire_sync_connections')) === 0, 'every connection to close', 60_000);
    await sleep(IDLE_MS + 2000);
    const roomsAfterIdle = await metric(server, 'quire_sync_rooms_loaded');
    const kibAfterAllLeft = await server.liveHeapKib();

    // The large document: stored through sync, then loaded into a fresh room, then compacted.
    const room = rooms[0] as string;
    await longestBlockMs(server);
    const writer = new IdleClient(server, room);
    await writer.synced;
    let started = performance.now();
    writer.ws.send(updateMessage(large));
    await until(async () => (await metric(server, 'quire_sync_updates_stored_total')) >= 1, 'the large update to be stored', 120_000);
    const storeMs = performance.now() - started;
    // The quiet-period revision of the large page runs meanwhile.
    await sleep(4000);
    const storeBlockMs = await longestBlockMs(server);
    writer.close();
    await until(async () => (await metric(server, 'quire_sync_rooms_loaded')) === 0, 'the room to unload', 60_000);

    await longestBlockMs(server);
    started = performance.now();
    const reader = new IdleClient(server, room);
    const bytes = await reader.synced;
    const loadMs = performance.now() - started;
    const loadBlockMs = await longestBlockMs(server);

    // Small edits until the log is folded into a snapshot of the large document.
    const editor = new Y.Doc();
    const edits: Uint8Array[] = [];
    editor.on('update', (u: Uint8Array) => edits.push(u));
    for (let i = 0; i <= COMPACT_EVERY; i++) editor.getText('edits').insert(0, 'x');
    started = performance.now();
    for (const u of edits) reader.ws.send(updateMessage(u));
    const stored = await metric(server, 'quire_sync_updates_stored_total');
    await until(
      async () => (await metric(server, 'quire_sync_updates_stored_total')) >= stored + edits.length - 1,
      'the edits to be stored',
      120_000,
    );
    await sleep(2000);
    const compactMs = performance.now() - started;
    const compactBlockMs = await longestBlockMs(server);
    reader.close();

    return {
      adapter: kind === 'quire' ? 'PGlite' : 'PostgreSQL',
      baseKib: base,
      kibPerConnection,
      kibPerRoom,
      idleCpuPercent,
      typing,
      roomsAfterIdle,
      kibAfterAllLeft,
      large: { bytes, storeMs, storeBlockMs, loadMs, loadBlockMs, compactMs, compactBlockMs },
    };
  } finally {
    await server.stop();
  }
}

function print(all: Figures[]) {
  const kb = (kib: number) => `${((kib * 1024) / 1000).toFixed(1)} kB`;
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  const goal = (ok: boolean) => (ok ? 'ok' : 'over');
  console.log(`\n${CONNECTIONS} idle connections over ${ROOMS} rooms; a ${LARGE_PARAGRAPHS}-paragraph page`);
  const rows: [string, ...string[]][] = [
    ['', ...all.map((f) => f.adapter)],
    ['live heap, idle server', ...all.map((f) => kb(f.baseKib))],
    ['per idle connection (goal ≤ 20 kB)', ...all.map((f) => `${kb(f.kibPerConnection)} ${goal(f.kibPerConnection * 1.024 <= 20)}`)],
    ['per loaded small document (goal ≤ 100 kB)', ...all.map((f) => `${kb(f.kibPerRoom)} ${goal(f.kibPerRoom * 1.024 <= 100)}`)],
    [`CPU while all sit idle (${IDLE_WINDOW_MS / 1000} s), % of a core`, ...all.map((f) => f.idleCpuPercent.toFixed(1))],
    [`${TYPISTS} typists, ${TYPING_RATE}/s each, among them: updates stored/s`, ...all.map((f) => f.typing.storedPerSecond.toFixed(0))],
    ['  updates relayed/s (to the room’s other members)', ...all.map((f) => f.typing.relayedPerSecond.toFixed(0))],
    ['  server CPU per stored update', ...all.map((f) => `${f.typing.cpuMicrosPerStored.toFixed(0)} us`)],
    [
      '  write-ahead log per stored update (cluster, idle WAL taken out)',
      ...all.map((f) => (f.typing.walBytesPerStored === undefined ? '-' : `${f.typing.walBytesPerStored.toFixed(0)} B`)),
    ],
    [`rooms loaded ${IDLE_MS / 1000 + 2} s after all left`, ...all.map((f) => String(f.roomsAfterIdle))],
    ['live heap after all left', ...all.map((f) => `${kb(f.kibAfterAllLeft)} (+${kb(f.kibAfterAllLeft - f.baseKib)})`)],
    ['large document, as sent to a client', ...all.map((f) => `${(f.large.bytes / 1e6).toFixed(2)} MB`)],
    ['stored (sent to on disk)', ...all.map((f) => ms(f.large.storeMs))],
    [
      '  longest block, storing and its revision (goal ≤ 100 ms)',
      ...all.map((f) => `${ms(f.large.storeBlockMs)} ${goal(f.large.storeBlockMs <= 100)}`),
    ],
    ['loaded into a room (connect to step 2)', ...all.map((f) => ms(f.large.loadMs))],
    ['  longest block, loading (goal ≤ 100 ms)', ...all.map((f) => `${ms(f.large.loadBlockMs)} ${goal(f.large.loadBlockMs <= 100)}`)],
    [`${COMPACT_EVERY + 1} edits stored and the log compacted`, ...all.map((f) => ms(f.large.compactMs))],
    [
      '  longest block, compacting (goal ≤ 100 ms)',
      ...all.map((f) => `${ms(f.large.compactBlockMs)} ${goal(f.large.compactBlockMs <= 100)}`),
    ],
  ];
  const widths = (rows[0] as string[]).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  for (const r of rows)
    console.log(r.map((cell, i) => (i === 0 ? cell.padEnd(widths[0] as number) : cell.padStart(widths[i] as number))).join('  '));
}

export async function runCapacityBench() {
  const large = largeUpdate();
  const all: Figures[] = [];
  for (const kind of ['quire', ...(POSTGRES_URL ? ['quire-pg' as const] : [])] as const) all.push(await measure(kind, large));
  print(all);
}
