/**
 * Sync benchmark: our `/v1/sync` endpoint side by side, in one run, with `@hocuspocus/server`
 * and with a bare y-protocols relay that stores nothing (the ceiling). Each server runs as
 * its own process, so its CPU time and memory are its own; the clients run here.
 *
 * Scenarios: 50 clients typing into one document, and 500 clients over 100 documents.
 * Quire runs on PGlite, and on PostgreSQL beside it when `DATABASE_URL` (or
 * `SYNC_BENCH_DATABASE_URL`) names a server. Each run ends with a SIGKILL mid-typing and a
 * restart: `lost@KILL` counts keystrokes some client had received (relayed) that the
 * restarted server no longer has (0 for Quire by contract; Hocuspocus stores a debounced
 * snapshot, the relay nothing).
 * Every keystroke is one update that also stamps the sender's clock into the document;
 * every other client of the document measures how long it took to arrive. Quire runs as
 * deployed by default (embedded PGlite, every update stored before it is relayed); memory
 * per connection is the growth of the server's live heap (after a full garbage collection)
 * from the idle server to the server with every client connected and every document typed in.
 * Every scenario runs in rounds, the servers taking turns, and prints medians (`ROUNDS`).
 *
 * `npm run bench -- sync`, or `node --import tsx bench/sync.ts`.
 */
import { closeSync, fdatasync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as Y from 'yjs';
import { type BenchClient, POSTGRES_URL, type ServerKind, ServerUnderTest, cpuSeconds, sleep, until } from './sync/servers';

interface Scenario {
  name: string;
  clients: number;
  docs: number;
  /** Keystrokes a second, per client. */
  rate: number;
  seconds: number;
}

/**
 * Rates stay within what one client process can apply: in one document every keystroke
 * reaches the 49 other clients here, so the first scenario is ~4900 deliveries a second.
 */
const SCENARIOS: Scenario[] = [
  { name: '50 clients, 1 document', clients: 50, docs: 1, rate: 2, seconds: 10 },
  { name: '500 clients, 100 documents', clients: 500, docs: 100, rate: 1, seconds: 10 },
];

const KINDS: ServerKind[] = ['quire', ...(POSTGRES_URL ? (['quire-pg'] as const) : []), 'hocuspocus', 'relay'];
/** `SYNC_BENCH_SERVERS=quire,relay` and `SYNC_BENCH_SCENARIOS=1` narrow a run (while working on one of them). */
const ONLY_SERVERS = process.env.SYNC_BENCH_SERVERS?.split(',') as ServerKind[] | undefined;
const ONLY_SCENARIOS = process.env.SYNC_BENCH_SCENARIOS?.split(',').map(Number);
/**
 * Each scenario runs every server this many times, the servers taking turns (Quire,
 * Hocuspocus, relay, Quire, ...), and the table gives each figure's median: on a shared
 * two-core machine one run's p99 can move twofold. `SYNC_BENCH_ROUNDS=1` for a quick look.
 */
const ROUNDS = Math.max(1, Number(process.env.SYNC_BENCH_ROUNDS ?? 3));
/** `SYNC_BENCH_PROFILE=<dir>` writes each server's CPU profile of the measured window there (it slows the server down). */
const PROFILE_DIR = process.env.SYNC_BENCH_PROFILE;
const LABEL: Record<ServerKind, string> = {
  quire: 'quire (durable log)',
  'quire-pg': 'quire on PostgreSQL',
  hocuspocus: 'hocuspocus 4 (debounced)',
  relay: 'bare relay (no storage)',
};

interface Result {
  kind: ServerKind;
  p50: number;
  p99: number;
  sentPerSecond: number;
  deliveredPerSecond: number;
  /** Updates still not delivered two seconds after typing stopped. */
  missing: number;
  cpuPercent: number;
  /** Server CPU time per delivered update, in microseconds: its cost whatever the throughput it reached. */
  cpuMicrosPerDelivery: number;
  kibPerConnection: number;
  /** Keystrokes some client had received from the server (so relayed) that a restart after SIGKILL no longer had. */
  lostAfterKill: number;
}

/**
 * Types for two more seconds, kills the server with SIGKILL mid-typing, restarts it on the
 * same storage and counts the keystrokes some client had received from the server (so the
 * server relayed them) that the restarted server no longer has. Each client counts its
 * keystrokes in the document, and a Yjs client's updates apply only in order, so the count
 * a document holds for a writer is how many of its keystrokes survived.
 */
async function lostAfterSigkill(server: ServerUnderTest, clients: BenchClient[], s: Scenario): Promise<number> {
  let typing = true;
  const typists = clients.map((c, i) =>
    (async () => {
      await sleep((i / s.clients) * (1000 / s.rate));
      while (typing) {
        c.doc.transact(() => {
          const counts = c.doc.getMap<number>('counts');
          c.doc.getText('body').insert(0, 'y');
          counts.set(String(i), (counts.get(String(i)) ?? 0) + 1);
        });
        await sleep(1000 / s.rate);
      }
    })(),
  );
  await sleep(2000);
  await server.kill();
  typing = false;
  await Promise.all(typists);
  // What each writer's keystrokes had reached, as other clients received it from the server.
  const received = new Map<string, number>();
  clients.forEach((c, j) => {
    for (const [writer, n] of c.doc.getMap<number>('counts')) {
      if (writer === String(j)) continue;
      received.set(writer, Math.max(received.get(writer) ?? 0, n));
    }
  });
  const docOf = (i: number) => server.rooms[i % s.docs] as string;
  for (const c of clients) c.destroy();
  await server.restart();
  const recovered = new Map<string, number>();
  for (let d = 0; d < s.docs; d++) {
    const reader = server.connect(server.rooms[d] as string);
    await until(() => reader.synced(), 'a reader to sync after the restart', 60_000);
    for (const [writer, n] of reader.doc.getMap<number>('counts')) recovered.set(writer, n);
    reader.destroy();
  }
  let lost = 0;
  for (const [writer, n] of received) {
    if (docOf(Number(writer)) === undefined) continue;
    lost += Math.max(0, n - (recovered.get(writer) ?? 0));
  }
  return lost;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function runOne(kind: ServerKind, s: Scenario, round: number): Promise<Result> {
  const server = new ServerUnderTest(kind);
  const clients: BenchClient[] = [];
  try {
    await server.start(s.docs);
    const idleHeap = await server.liveHeapKib();
    for (let i = 0; i < s.clients; i++) {
      clients.push(server.connect(server.rooms[i % s.docs] as string));
      if (i % 50 === 49) await sleep(50);
    }
    await until(() => clients.every((c) => c.synced()), `${s.clients} clients to sync with ${kind}`, 60_000);

    const latencies: number[] = [];
    let delivered = 0;
    let sent = 0;
    let sentInWindow = 0;
    let measuring = false;
    const peers = s.clients / s.docs - 1;
    for (const c of clients) {
      c.doc.getMap('stamps').observe((event) => {
        if (event.transaction.local) return;
        const now = performance.now();
        for (const key of event.keysChanged) {
          const at = (event.target as Y.Map<number>).get(key);
          if (typeof at !== 'number' || at < 0) continue;
          delivered++;
          if (measuring) latencies.push(now - at);
        }
      });
    }

    let typing = true;
    const interval = 1000 / s.rate;
    const typists = clients.map((c, i) =>
      (async () => {
        // Spread the clients over one interval, so the load is steady, not in waves.
        await sleep((i / s.clients) * interval);
        const text = c.doc.getText('body');
        const stamps = c.doc.getMap('stamps');
        const counts = c.doc.getMap<number>('counts');
        let next = performance.now();
        while (typing) {
          c.doc.transact(() => {
            text.insert(Math.floor(Math.random() * (text.length + 1)), 'x');
            stamps.set(String(i), performance.now());
            counts.set(String(i), (counts.get(String(i)) ?? 0) + 1);
          });
          sent++;
          if (measuring) sentInWindow++;
          next += interval;
          await sleep(Math.max(0, next - performance.now()));
        }
      })(),
    );

    // A warm-up: rooms load and the first edits of every document are stored before the window.
    await sleep(2000);
    const cpuBefore = cpuSeconds(server.pid);
    measuring = true;
    const deliveredBefore = delivered;
    const started = performance.now();
    const profiling = PROFILE_DIR
      ? server.cpuProfile(s.seconds * 1000, join(PROFILE_DIR, `${kind}-${s.clients}x${s.docs}-${round}.cpuprofile`))
      : undefined;
    await sleep(s.seconds * 1000);
    await profiling;
    measuring = false;
    const elapsed = (performance.now() - started) / 1000;
    const cpuAfter = cpuSeconds(server.pid);
    const deliveredInWindow = delivered - deliveredBefore;
    typing = false;
    await Promise.all(typists);
    await sleep(2000);
    const missing = Math.max(0, sent * peers - delivered);
    // Every client still connected, the documents as typed; collected outside the window, as a collection stalls the server.
    const connectedHeap = await server.liveHeapKib();
    const lostAfterKill = await lostAfterSigkill(server, clients, s);

    latencies.sort((a, b) => a - b);
    return {
      kind,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      sentPerSecond: sentInWindow / elapsed,
      deliveredPerSecond: deliveredInWindow / elapsed,
      missing,
      cpuPercent: ((cpuAfter - cpuBefore) / elapsed) * 100,
      cpuMicrosPerDelivery: ((cpuAfter - cpuBefore) * 1e6) / Math.max(1, deliveredInWindow),
      kibPerConnection: (connectedHeap - idleHeap) / s.clients,
      lostAfterKill,
    };
  } finally {
    for (const c of clients) c.destroy();
    await server.stop();
  }
}

interface DiskSync {
  p50Ms: number;
  p99Ms: number;
  cpuMicros: number;
}

/**
 * What one synced append costs on the disk the servers write to: Quire acknowledges an
 * update only once an fdatasync covers it, and at a few keystrokes a second per client
 * most syncs cover a single update. Hocuspocus and the relay sync nothing, so this is the
 * part of Quire's CPU per update the other two never pay.
 */
async function diskSyncCost(): Promise<DiskSync> {
  const dir = await mkdtemp(join(tmpdir(), 'quire-bench-disk-'));
  const fd = openSync(join(dir, 'probe'), 'w');
  const record = Buffer.alloc(120, 1);
  const times: number[] = [];
  const rounds = 300;
  const cpu0 = process.cpuUsage();
  try {
    for (let i = 0; i < rounds; i++) {
      const t = performance.now();
      writeSync(fd, record, 0, record.length, i * record.length);
      await new Promise<void>((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())));
      times.push(performance.now() - t);
    }
  } finally {
    closeSync(fd);
    await rm(dir, { recursive: true, force: true });
  }
  const cpu = process.cpuUsage(cpu0);
  times.sort((a, b) => a - b);
  return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), cpuMicros: (cpu.user + cpu.system) / rounds };
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a) && Number.isFinite(b) ? `${(a / b).toFixed(2)}x` : 'n/a');

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** One figure per metric from a server's rounds: the median, and for lost@KILL the worst round. */
function combine(rounds: Result[]): Result {
  const first = rounds[0] as Result;
  const of = (f: (r: Result) => number) => median(rounds.map(f));
  return {
    kind: first.kind,
    p50: of((r) => r.p50),
    p99: of((r) => r.p99),
    sentPerSecond: of((r) => r.sentPerSecond),
    deliveredPerSecond: of((r) => r.deliveredPerSecond),
    missing: Math.max(...rounds.map((r) => r.missing)),
    cpuPercent: of((r) => r.cpuPercent),
    cpuMicrosPerDelivery: of((r) => r.cpuMicrosPerDelivery),
    kibPerConnection: of((r) => r.kibPerConnection),
    lostAfterKill: Math.max(...rounds.map((r) => r.lostAfterKill)),
  };
}

function print(s: Scenario, rounds: Result[][], disk: DiskSync) {
  const results = (rounds[0] ?? []).map((_, k) => combine(rounds.map((round) => round[k] as Result)));
  const n = rounds.length;
  console.log(
    `\n${s.name}: ${s.rate} keystrokes/s per client, ${s.seconds} s measured` +
      (n > 1 ? `; medians of ${n} rounds (missing and lost@KILL: the worst round)` : ''),
  );
  console.log(
    ['server'.padEnd(26), 'p50 ms', 'p99 ms', 'sent/s', 'delivered/s', 'missing', 'CPU %', 'CPU us/upd', 'heap KiB/c', 'lost@KILL']
      .map((h, i) => (i ? h.padStart(12) : h))
      .join(''),
  );
  for (const r of results) {
    console.log(
      [
        LABEL[r.kind].padEnd(26),
        fmt(r.p50),
        fmt(r.p99),
        fmt(r.sentPerSecond, 0),
        fmt(r.deliveredPerSecond, 0),
        String(r.missing),
        fmt(r.cpuPercent),
        fmt(r.cpuMicrosPerDelivery, 0),
        fmt(r.kibPerConnection),
        String(r.lostAfterKill),
      ]
        .map((v, i) => (i ? v.padStart(12) : v))
        .join(''),
    );
  }
  const ours = results.find((r) => r.kind === 'quire');
  if (!ours) return;
  const peers = s.clients / s.docs - 1;
  console.log(
    `  one synced append per update: ${fmt(disk.cpuMicros, 0)} us of CPU, ${fmt(disk.p50Ms, 2)} ms; ` +
      `over ${peers} deliveries that is ${fmt(disk.cpuMicros / peers, 0)} us of Quire's CPU/update`,
  );
  const relay = results.find((r) => r.kind === 'relay');
  const hocuspocus = results.find((r) => r.kind === 'hocuspocus');
  if (relay && hocuspocus) {
    // What no server could beat that relays only what is on disk: the bare relay plus one synced append per update.
    console.log(
      `  floor for relaying only what is on disk (the relay plus one synced append): ` +
        `p50 ${fmt(relay.p50 + disk.p50Ms)} ms (hocuspocus ${fmt(hocuspocus.p50)}), ` +
        `CPU/update ${fmt(relay.cpuMicrosPerDelivery + disk.cpuMicros / peers, 0)} us (hocuspocus ${fmt(hocuspocus.cpuMicrosPerDelivery, 0)})`,
    );
  }
  for (const base of results.filter((r) => r.kind === 'hocuspocus' || r.kind === 'relay')) {
    console.log(
      `  quire / ${base.kind}: p50 ${ratio(ours.p50, base.p50)}, p99 ${ratio(ours.p99, base.p99)}, ` +
        `delivered/s ${ratio(ours.deliveredPerSecond, base.deliveredPerSecond)}, CPU ${ratio(ours.cpuPercent, base.cpuPercent)}, ` +
        `CPU/update ${ratio(ours.cpuMicrosPerDelivery, base.cpuMicrosPerDelivery)}, ` +
        `memory/conn ${ratio(ours.kibPerConnection, base.kibPerConnection)}`,
    );
    if (n > 1) {
      // The same ratios within each round, where both ran minutes apart at most.
      const each = (f: (r: Result) => number) =>
        rounds
          .map((round) => {
            const q = round.find((r) => r.kind === 'quire');
            const b = round.find((r) => r.kind === base.kind);
            return q && b ? ratio(f(q), f(b)) : 'n/a';
          })
          .join(' ');
      console.log(
        `    each round: p50 ${each((r) => r.p50)}; p99 ${each((r) => r.p99)}; CPU/update ${each((r) => r.cpuMicrosPerDelivery)}; ` +
          `memory/conn ${each((r) => r.kibPerConnection)}`,
      );
    }
  }
}

export async function runSyncBench() {
  // Every provider adds an exit listener; hundreds of them are expected here.
  process.setMaxListeners(0);
  console.log('Servers run one at a time, each in its own process; the clients run in this process.');
  // The clients and servers share this machine's cores: a busy machine stretches every latency.
  console.log(
    `${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const disk = await diskSyncCost();
  console.log(
    `disk: a 120-byte append and its fdatasync take ${fmt(disk.p50Ms, 2)} ms (p50), ${fmt(disk.p99Ms, 2)} ms (p99) and ${fmt(disk.cpuMicros, 0)} us of CPU; ` +
      'Quire relays an update only after such a sync, the others without one',
  );
  for (const [n, s] of SCENARIOS.entries()) {
    if (ONLY_SCENARIOS && !ONLY_SCENARIOS.includes(n + 1)) continue;
    const rounds: Result[][] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const results: Result[] = [];
      for (const kind of KINDS) if (!ONLY_SERVERS || ONLY_SERVERS.includes(kind)) results.push(await runOne(kind, s, round));
      rounds.push(results);
    }
    print(s, rounds, disk);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runSyncBench();
  process.exit(0);
}
