/**
 * REST API benchmark: the real server (`startServer`, the whole middleware chain, the
 * configured database) next to a bare `node:http` server answering the very same bytes,
 * measured in the same run at 50 concurrent connections.
 *
 * 1. `GET /v1/spaces/{id}`.
 * 2. Listing 10,000 organization members page by page: the 10 pages at `limit=1000`
 *    reached by following `next.page`, requested in rotation.
 * 3. A mixed run over 20 spaces: 90% `GET /v1/spaces/{id}`, 10% `PATCH` of a title; req/s,
 *    p99 and the hit rate of the cached responses.
 * 4. Sync latency of 20 clients typing into one document (p99 of an update reaching the
 *    others), alone and while scenario 1 runs: reads must not stall sync. The clients run in a
 *    worker thread, as the load generator does, so the figure is the server's delay and not
 *    the clients' own work queued behind REST requests (`API_BENCH_SYNC_CLIENTS=inline` runs
 *    them on the server's event loop, as this benchmark did at first). A control runs them once
 *    more while the same load hits the bare server instead: on a machine whose cores the load
 *    generator and the clients already fill, that is the floor no REST path can go below.
 *
 * Rate limits are off for the run (they would measure the limiter) and logs are at `warn`.
 * The load generator runs in a worker thread, so it does not share the server's event loop.
 * With `DATABASE_URL` set it runs on a database of its own, created on that server and
 * dropped afterwards; otherwise on PGlite in a temporary `DATA_DIR`.
 *
 * `npm run bench -- api`, or `node --import tsx bench/api.ts`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { Worker } from 'node:worker_threads';
import { type SyncFigures, measureSyncLatency } from './apiSyncClients';
import { readModelOf } from '../sync-server/src/core/readModel/readModel';
import { loadConfig } from '../sync-server/src/config';
import { runBackgroundJobs } from '../sync-server/src/core/platform/jobs';
import { createLogger } from '../sync-server/src/logger';
import { type RunningServer, startServer } from '../sync-server/src/server';
import type { Db } from '../sync-server/src/store/db';
import { createOrg } from '../sync-server/src/store/organizations';
import { createToken } from '../sync-server/src/store/tokens';
import { ensureUser } from '../sync-server/src/store/users';
import { scratchDatabase } from './scratchDatabase';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.API_BENCH_SECONDS ?? 5);
/** `API_BENCH_ONLY=mixed` or `API_BENCH_ONLY=sync` runs one part (while working on it). */
const ONLY = process.env.API_BENCH_ONLY;
/**
 * `API_BENCH_PROFILE=<dir>` writes the CPU profile of this process (server and sync
 * clients) over the sync run under REST load to `<dir>/sync-under-load.cpuprofile`.
 */
const PROFILE_DIR = process.env.API_BENCH_PROFILE;
const MEMBERS = 10_000;
const PAGE_SIZE = 1000;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  failed: number;
}

interface Scenario {
  name: string;
  /** Paths requested in rotation, each with the exact bytes the server answered for it. */
  paths: string[];
  bodies: Map<string, Buffer>;
}

/** 10,000 members in one transaction, straight through SQL: the bench measures reads. */
async function seedMembers(db: Db, orgId: string, n: number) {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO users (id, email, display_name)
       SELECT 'bench_member_' || lpad(i::text, 8, '0'), 'member' || i || '@bench.test', 'Member ' || i FROM generate_series(1, $1::int) i`,
      [n],
    );
    await tx.query(
      `INSERT INTO org_members (org_id, user_id, role) SELECT $1, id, 'read' FROM users WHERE id LIKE 'bench\\_member\\_%' ORDER BY id`,
      [orgId],
    );
  });
}

async function getBytes(base: string, path: string, token: string): Promise<Buffer> {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

/** The member list's pages, found the way a client finds them: by following `next.page`. */
async function memberPages(base: string, orgId: string, token: string): Promise<Scenario> {
  const first = `/v1/orgs/${orgId}/members?limit=${PAGE_SIZE}`;
  const paths: string[] = [];
  const bodies = new Map<string, Buffer>();
  let path: string | undefined = first;
  let total = 0;
  while (path) {
    const bytes = await getBytes(base, path, token);
    const page = JSON.parse(bytes.toString('utf8')) as { items: unknown[]; next?: { page: string } };
    paths.push(path);
    bodies.set(path, bytes);
    total += page.items.length;
    path = page.next ? `${first}&page=${encodeURIComponent(page.next.page)}` : undefined;
  }
  if (total !== MEMBERS + 1) throw new Error(`walked ${total} members, expected ${MEMBERS + 1}`);
  return { name: `list ${MEMBERS.toLocaleString('en')} members, ${paths.length} pages of ${PAGE_SIZE}`, paths, bodies };
}

/** A server that answers each known path with its bytes and does nothing else: the ceiling. */
async function startBaseline(bodies: Map<string, Buffer>): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function load(base: string, paths: string[], token: string): Promise<Figures> {
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    workers: 1,
    headers: { authorization: `Bearer ${token}` },
    requests: paths.map((path) => ({ method: 'GET' as const, path })),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

function report(name: string, quire: Figures, bare: Figures) {
  const row = (label: string, f: Figures) =>
    `  ${label.padEnd(10)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${String(f.p50).padStart(5)} ms   p99 ${String(f.p99).padStart(5)} ms   (${f.requests} requests${f.failed ? `, ${f.failed} failed` : ''})`;
  console.log(`\n${name} — ${CONNECTIONS} connections, ${SECONDS} s`);
  console.log(row('quire', quire));
  console.log(row('node:http', bare));
  console.log(`  ratio      ${(quire.rps / bare.rps).toFixed(3)} of the bare server's requests/s`);
}

/**
 * 90% reads, 10% title changes, over `spaceIds`, in one rotation every connection walks:
 * every space is written once per rotation (the writes go round them all), so the cached
 * answers of the spaces read are the ones the writes drop.
 */
async function mixed(base: string, spaceIds: string[], token: string, db: Db) {
  const requests = Array.from({ length: spaceIds.length * 10 }, (_, i) => {
    const write = i % 10 === 9;
    const path = `/v1/spaces/${spaceIds[write ? (i - 9) / 10 : i % spaceIds.length]}`;
    return write
      ? { method: 'PATCH' as const, path, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: `Title ${i}` }) }
      : { method: 'GET' as const, path };
  });
  // Every space read once first: the figure is the steady state, not the first answers of
  // spaces made a moment ago (50 connections asking for one at once all miss until one is kept).
  for (const id of spaceIds) await getBytes(base, `/v1/spaces/${id}`, token);
  const stats = readModelOf(db).stats;
  const [hits, misses, discarded, invalidations] = [stats.responseHits, stats.responseMisses, stats.discarded, stats.invalidations];
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    workers: 1,
    headers: { authorization: `Bearer ${token}` },
    requests,
  });
  const h = stats.responseHits - hits;
  const m = stats.responseMisses - misses;
  console.log(`\nmixed: 90% GET /v1/spaces/{id}, 10% PATCH, over ${spaceIds.length} spaces — ${CONNECTIONS} connections, ${SECONDS} s`);
  console.log(
    `  quire      ${result.requests.average.toFixed(0).padStart(8)} req/s   p50 ${String(result.latency.p50).padStart(5)} ms   p99 ${String(result.latency.p99).padStart(5)} ms   (${result.requests.total} requests${result.non2xx + result.errors ? `, ${result.non2xx + result.errors} failed` : ''})`,
  );
  console.log(
    `  cached responses: ${h} of ${h + m} reads (${((h / Math.max(1, h + m)) * 100).toFixed(1)}% hit rate); ${stats.invalidations - invalidations} invalidations, ${stats.discarded - discarded} answers not kept (raced a write)`,
  );
}

/**
 * Sync latency measured by clients in a worker thread of their own (`API_BENCH_SYNC_CLIENTS=inline`
 * runs them on the server's event loop instead): real clients are elsewhere, so what is
 * measured is the server's delay, not the clients' work queued behind REST requests.
 */
function syncLatency(port: number, spaceId: string, token: string, seconds: number): Promise<SyncFigures> {
  if (process.env.API_BENCH_SYNC_CLIENTS === 'inline') return measureSyncLatency(port, spaceId, token, seconds);
  // Loaded through tsx's API: a worker does not inherit this process's TypeScript loader.
  const entry = new URL('./apiSyncClients.ts', import.meta.url).href;
  const worker = new Worker(`import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`, {
    eval: true,
    workerData: { port, spaceId, token, seconds },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (figures: SyncFigures) => {
      resolve(figures);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

export async function runApiBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-api-bench-'));
  const scratch = process.env.DATABASE_URL ? await scratchDatabase(process.env.DATABASE_URL, 'quire_api_bench') : undefined;
  const config = {
    // The embedded database's thread can be turned off to compare (`PGLITE_THREAD=off`).
    ...loadConfig({ PGLITE_THREAD: process.env.PGLITE_THREAD }),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: scratch?.url,
    rateLimitPerToken: 0,
    rateLimitPerAddress: 0,
    logLevel: 'warn',
  };
  let real: RunningServer | undefined;
  let baseline: Server | undefined;
  try {
    real = await startServer(config, createLogger('warn'));
    const { db } = real.deps;
    const base = `http://127.0.0.1:${real.port}`;
    const owner = await ensureUser(db, `owner-${Date.now()}@bench.test`, 'Bench owner');
    const org = await createOrg(db, 'API bench', owner.id);
    const token = await createToken(db, owner.id, undefined, 'api bench');
    const created = await fetch(`${base}/v1/orgs/${org.id}/spaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Benchmark space', emoji: '📏' }),
    });
    const spaceId = ((await created.json()) as { id: string }).id;
    await seedMembers(db, org.id, MEMBERS);
    // The server's maintenance round (run on start and hourly) refreshes the embedded
    // database's statistics; the rows seeded just now would otherwise be planned as none.
    await runBackgroundJobs(db, createLogger('warn'));
    console.log(`database: ${db.kind}; ${MEMBERS.toLocaleString('en')} members seeded`);

    const spacePath = `/v1/spaces/${spaceId}`;
    const scenarios: Scenario[] = [
      { name: `GET /v1/spaces/{id}`, paths: [spacePath], bodies: new Map([[spacePath, await getBytes(base, spacePath, token)]]) },
      await memberPages(base, org.id, token),
    ];
    const allBodies = new Map(scenarios.flatMap((s) => [...s.bodies]));
    const bare = await startBaseline(allBodies);
    baseline = bare.server;

    for (const s of ONLY ? [] : scenarios) {
      // The baseline shares this process: it runs first, so the server's backlog (requests
      // still queued when the load stops) cannot slow it down.
      const ceiling = await load(bare.base, s.paths, token);
      // A short warm-up, so the server is not measured while compiling.
      await autocannon({
        url: base,
        connections: 10,
        amount: 100,
        headers: { authorization: `Bearer ${token}` },
        requests: s.paths.map((path) => ({ method: 'GET' as const, path })),
      });
      const quire = await load(base, s.paths, token);
      // Let the backlog drain: this answer queues behind whatever is still in flight.
      await getBytes(base, s.paths[0] as string, token);
      report(s.name, quire, ceiling);
    }

    const spaceIds: string[] = [];
    for (let i = 0; i < (ONLY === 'sync' ? 0 : 20); i++) {
      const res = await fetch(`${base}/v1/orgs/${org.id}/spaces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Mixed ${i}` }),
      });
      spaceIds.push(((await res.json()) as { id: string }).id);
    }
    if (ONLY !== 'sync') await mixed(base, spaceIds, token, db);
    // Let the backlog drain before the next part (or the server stops under it).
    await getBytes(base, spacePath, token);

    if (ONLY === 'mixed') return;
    const quietLag = monitorEventLoopDelay({ resolution: 1 });
    quietLag.enable();
    const quiet = await syncLatency(real.port, spaceId, token, SECONDS);
    quietLag.disable();
    const session = PROFILE_DIR ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    const stats = readModelOf(db).stats;
    const [hits, misses] = [stats.responseHits, stats.responseMisses];
    const loadedLag = monitorEventLoopDelay({ resolution: 1 });
    loadedLag.enable();
    const [loaded, rest] = await Promise.all([syncLatency(real.port, spaceId, token, SECONDS), load(base, [spacePath], token)]);
    loadedLag.disable();
    if (session && PROFILE_DIR) {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(PROFILE_DIR, { recursive: true });
      writeFileSync(join(PROFILE_DIR, 'sync-under-load.cpuprofile'), JSON.stringify(profile));
      session.disconnect();
    }
    await getBytes(base, spacePath, token);
    // The same load aimed at the bare server in this process: what the machine's other
    // threads (the load generator, the clients) cost sync when Quire serves no REST at all.
    const [contended, bareRest] = await Promise.all([syncLatency(real.port, spaceId, token, SECONDS), load(bare.base, [spacePath], token)]);
    console.log(`\nsync: 20 clients on one document, p99 of an update reaching the others`);
    const row = (f: typeof quiet) =>
      `p99 ${f.p99.toFixed(1).padStart(7)} ms   (p50 ${f.p50.toFixed(1)} ms, p90 ${f.p90.toFixed(1)} ms; ${f.samples} deliveries)`;
    console.log(`  alone              ${row(quiet)}`);
    console.log(`  under REST load    ${row(loaded)}`);
    console.log(`  load on node:http  ${row(contended)}   (${bareRest.rps.toFixed(0)} req/s on the bare server)`);
    console.log(`  ratio      ${(loaded.p99 / quiet.p99).toFixed(2)}× the p99 without REST load`);
    console.log(`  control    ${(contended.p99 / quiet.p99).toFixed(2)}× with the same load on the bare server instead`);
    const [h, m] = [stats.responseHits - hits, stats.responseMisses - misses];
    console.log(`  the REST load meanwhile: ${rest.rps.toFixed(0)} req/s, p99 ${rest.p99} ms; ${h} of ${h + m} answered from cached bytes`);
    const lag = (h: ReturnType<typeof monitorEventLoopDelay>) =>
      `p50 ${(h.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(h.percentile(99) / 1e6).toFixed(1)} ms, max ${(h.max / 1e6).toFixed(1)} ms`;
    console.log(`  event loop delay alone: ${lag(quietLag)}; under REST load: ${lag(loadedLag)}`);
  } finally {
    if (baseline) await new Promise<void>((resolve) => baseline?.close(() => resolve()));
    await real?.stop();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runApiBench();
}
