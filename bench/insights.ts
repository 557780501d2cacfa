/**
 * Site insights benchmark: a published page served with recording on and off, events sent
 * through the events operation, and the question a team asks most ("top pages of the last 30 days")
 * over 1,000,000 recorded events of one site, on the embedded database and on PostgreSQL,
 * timed through the same plan and query the aggregate operation runs. Beside it, in the
 * same run, the floor: a bare `count(*)` over the same 30 days of the same table. Counting
 * events alone is answered from the roll-ups (migration 056); it is also timed reading the
 * events, for comparison. Each line says where its answer came from.
 *
 * `npm run bench -- insights` (INSIGHTS_BENCH_EVENTS to change the count; POSTGRES_URL or
 * the local server for the PostgreSQL half; INSIGHTS_BENCH_SECONDS for each serving load,
 * INSIGHTS_BENCH_ROUNDS for how many rounds of off then on;
 * INSIGHTS_BENCH_ONLY=serving to stop after serving and ingest, =embedded or =postgres for
 * the million events on one database alone).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { AggregateSiteEventsBody } from '@quire/shared/schemas/insights';
import autocannon from 'autocannon';
import { loadConfig } from '../sync-server/src/config';
import { createApp } from '../sync-server/src/http/app';
import { createLogger } from '../sync-server/src/logger';
import { writePages } from '../sync-server/src/testing/testContent';
import { createOrg } from '../sync-server/src/store/organizations';
import { createToken } from '../sync-server/src/store/tokens';
import { ensureUser } from '../sync-server/src/store/users';
import { planAggregation } from '../sync-server/src/core/insights/queries';
import type { Db } from '../sync-server/src/store/db';
import { aggregateEvents, aggregationSource } from '../sync-server/src/store/insights';
import { ensureMonthPartitions } from '../sync-server/src/store/insightsPartitions';
import { rebuildRollups } from '../sync-server/src/store/insightsRollups';
import { openStore } from '../sync-server/src/store/open';
import { createSite } from '../sync-server/src/store/sites';
import { scratchDatabase } from './scratchDatabase';

const EVENTS = Number(process.env.INSIGHTS_BENCH_EVENTS ?? 1_000_000);
const POSTGRES = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let SITE = '';
const ROUNDS = 5;

/** An organization, a site and a million events over the last 30 days: 2,000 paths read unevenly, as docs are. */
async function fill(db: Db): Promise<number> {
  const started = performance.now();
  await db.query(`INSERT INTO organizations (id, title) VALUES ('org_bench', 'Bench') ON CONFLICT DO NOTHING`);
  // The events go straight into the table: the months they fall in need their partitions.
  await ensureMonthPartitions(db, [new Date(Date.now() - 31 * 24 * 60 * 60 * 1000)]);
  SITE = (await createSite(db, 'org_bench', { title: 'Bench docs', type: 'basic', visibility: 'public', basename: 'bench' })).id;
  const batch = 100_000;
  for (let from = 0; from < EVENTS; from += batch) {
    await db.query(
      `INSERT INTO insights_events (site_id, at, type, url, url_path, page_id, visitor, session, browser, os, device)
       SELECT $1, now() - (random() * interval '30 days'), CASE WHEN i % 10 = 0 THEN 'search_type_query' ELSE 'page_view' END,
              'https://docs.bench/p/' || p, '/p/' || p, CASE WHEN p % 50 = 0 THEN NULL ELSE 'page' || p END,
              'v' || (i % 40000), 's' || (i % 90000), 'Chrome', 'Linux', 'desktop'
         FROM (SELECT i, floor(power(random(), 3) * 2000)::int AS p FROM generate_series($2::int, $3::int - 1) AS i) t`,
      [SITE, from, Math.min(from + batch, EVENTS)],
    );
  }
  await db.query('ANALYZE insights_events');
  // Written around the recorder, so the roll-ups are counted afterwards, as migration 056 does.
  await rebuildRollups(db);
  return performance.now() - started;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

async function measure(name: string, db: Db) {
  const fillMs = await fill(db);
  const plan = planAggregation(
    SITE,
    AggregateSiteEventsBody.parse({
      range: 'last30Days',
      groupBy: [{ column: 'urlPath' }],
      select: [{ column: 'urlPath' }, { column: 'eventsCount' }, { column: 'visitorsCount' }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      limit: 100,
    }),
  );
  const counted = planAggregation(
    SITE,
    AggregateSiteEventsBody.parse({
      range: 'last30Days',
      groupBy: [{ column: 'urlPath' }],
      select: [{ column: 'urlPath' }, { column: 'eventsCount' }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      limit: 100,
    }),
  );
  const question = (q: Record<string, unknown>) => planAggregation(SITE, AggregateSiteEventsBody.parse({ range: 'last30Days', ...q }));
  const total = question({ select: [{ column: 'visitorsCount' }] });
  const byDay = question({
    select: [{ column: 'datetime', interval: 'day' }, { column: 'eventsCount' }, { column: 'visitorsCount' }],
    order: { by: { column: 'datetime', interval: 'day' }, direction: 'asc' },
  });
  // How far the estimates are from the events' exact counts: the total, and the top paths'.
  const estimate = (await aggregateEvents(db, total))[0]?.[0] as number;
  const exact = (await aggregateEvents(db, total, { events: true }))[0]?.[0] as number;
  const topEstimated = ((await aggregateEvents(db, plan))[2] ?? []) as number[];
  const topExact = ((await aggregateEvents(db, plan, { events: true }))[2] ?? []) as number[];
  const worst = Math.max(...topExact.map((n, i) => Math.abs((topEstimated[i] ?? 0) - n) / n));
  const rows = (await aggregateEvents(db, plan))[0]?.length ?? 0;
  const same = JSON.stringify(await aggregateEvents(db, counted)) === JSON.stringify(await aggregateEvents(db, counted, { events: true }));
  const top = await timed(() => aggregateEvents(db, plan));
  const eventsOnly = await timed(() => aggregateEvents(db, counted));
  const eventsOnlyRaw = await timed(() => aggregateEvents(db, counted, { events: true }));
  const totalMs = await timed(() => aggregateEvents(db, total));
  const totalRaw = await timed(() => aggregateEvents(db, total, { events: true }));
  const byDayMs = await timed(() => aggregateEvents(db, byDay));
  const topRaw = await timed(() => aggregateEvents(db, plan, { events: true }));
  const floor = await timed(() =>
    db.query(`SELECT count(*) FROM insights_events WHERE site_id = $1 AND at >= now() - interval '30 days'`, [SITE]),
  );
  console.log(
    `${name.padEnd(20)} top ${rows} paths of 30 days with events and visitors (from ${aggregationSource(plan)}): ${top.toFixed(0).padStart(5)} ms (median of ${ROUNDS}), ` +
      `events only (from ${aggregationSource(counted)}): ${eventsOnly.toFixed(0).padStart(5)} ms, read from the events instead: ${eventsOnlyRaw.toFixed(0).padStart(5)} ms;  ` +
      `bare count(*): ${floor.toFixed(0).padStart(5)} ms  ${(top / floor).toFixed(1)}× the count  (filled in ${(fillMs / 1000).toFixed(0)} s)` +
      (same ? '' : '  THE ROLL-UPS ANSWERED DIFFERENTLY FROM THE EVENTS'),
  );
  console.log(
    `${''.padEnd(20)} visitors of 30 days (from ${aggregationSource(total)}): ${totalMs.toFixed(0).padStart(5)} ms, ` +
      `${estimate} estimated for ${exact} (${((100 * (estimate - exact)) / exact).toFixed(2)}%), read from the events instead: ${totalRaw.toFixed(0)} ms; ` +
      `views and visitors by day: ${byDayMs.toFixed(0)} ms; top paths read from the events: ${topRaw.toFixed(0)} ms, ` +
      `their visitors estimated within ${(100 * worst).toFixed(2)}%`,
  );
}

const SECONDS = Number(process.env.INSIGHTS_BENCH_SECONDS ?? 5);
const SERVING_ROUNDS = Number(process.env.INSIGHTS_BENCH_ROUNDS ?? 7);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function load(url: string, opts: { headers?: Record<string, string>; method?: 'POST'; body?: string } = {}) {
  const r = await autocannon({ url, connections: 10, duration: SECONDS, ...opts });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/**
 * Serving with recording on and off, in the same process: a published page answered from
 * its cached bytes to readers counted as they come, and to readers who ask not to be
 * (`DNT: 1`, honoured by recording nothing); then events sent through the events operation
 * in batches of 100, as an integration would.
 */
async function serving() {
  // As the server opens it: the embedded database on a thread of its own.
  const dir = mkdtempSync(join(tmpdir(), 'quire-insights-serving-'));
  const { db, unlock } = await openStore({ dataDir: dir, syncJournal: false, pgliteThread: true });
  const config = { ...loadConfig({}), rateLimitPerAddress: 0, rateLimitPerToken: 0, rateLimitSitesPerAddress: 0 };
  const app = createApp({ db, config, log: createLogger('silent') });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((r) => server.once('listening', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const user = await ensureUser(db, 'bench@example.com', 'Bench');
    const token = await createToken(db, user.id);
    const org = await createOrg(db, 'Bench', user.id);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const api = async (method: string, path: string, body?: unknown) =>
      (await (await fetch(`${origin}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined })).json()) as {
        id: string;
        basename: string;
      };
    const space = await api('POST', `/v1/orgs/${org.id}/spaces`, { title: 'Guides' });
    await writePages(db, space.id, [{ title: 'Quickstart', markdown: 'Install the CLI, then log in.\n\n## Next\n\nRead on.' }]);
    const site = await api('POST', `/v1/orgs/${org.id}/sites`, { title: 'Bench Docs', spaces: [space.id] });
    await api('POST', `/v1/orgs/${org.id}/sites/${site.id}/publish`);
    const page = `${origin}/s/${org.id}/${site.basename}/quickstart`;
    if ((await fetch(page)).status !== 200) throw new Error('the published page did not answer');
    // A warm-up first (the JIT, the render cache), then off and on taking turns, round
    // after round: each round's ratio is its own, and the median of them is reported.
    await load(page);
    const row = (name: string, f: Awaited<ReturnType<typeof load>>) =>
      `${name.padEnd(38)} ${f.rps.toFixed(0).padStart(7)} req/s   p99 ${String(f.p99).padStart(4)} ms${f.errors ? `   (${f.errors} errors)` : ''}`;
    console.log(`published page, ${SECONDS} s each, 10 connections, after a warm-up, ${SERVING_ROUNDS} rounds of off then on:`);
    const ratios: number[] = [];
    for (let round = 1; round <= SERVING_ROUNDS; round++) {
      const off = await load(page, { headers: { dnt: '1' } });
      const on = await load(page);
      ratios.push(on.rps / off.rps);
      console.log(row(`round ${round}: recording off (DNT: 1)`, off));
      console.log(`${row(`round ${round}: recording on`, on)}   ${(on.rps / off.rps).toFixed(2)}×`);
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(
      `recording on / off: median ${median(ratios).toFixed(2)}× of ${SERVING_ROUNDS} rounds (lowest ${sorted[0]?.toFixed(2)}×, highest ${sorted.at(-1)?.toFixed(2)}×; goal ≥ 0.8×)`,
    );

    const event = (i: number) => ({
      type: 'page_view',
      session: {
        visitorId: `v${i}`,
        sessionId: `s${i}`,
        cookies: {},
        ip: `198.51.100.${i % 250}`,
        userAgent: 'Mozilla/5.0',
        language: 'en',
        referrer: null,
      },
      location: {
        url: `https://docs.bench/p/${i % 40}`,
        siteSection: null,
        siteSpace: null,
        siteShareKey: null,
        space: null,
        revision: null,
        page: null,
      },
    });
    const body = JSON.stringify({ events: Array.from({ length: 100 }, (_, i) => event(i)) });
    const ingest = await load(`${origin}/v1/orgs/${org.id}/sites/${site.id}/insights/events`, { method: 'POST', headers, body });
    console.log(
      `events operation, batches of 100: ${ingest.rps.toFixed(0)} requests/s = ${(ingest.rps * 100).toFixed(0)} events/s, p99 ${ingest.p99} ms${ingest.errors ? ` (${ingest.errors} errors)` : ''}`,
    );
  } finally {
    await new Promise((r) => server.close(r));
    await db.close();
    unlock();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runInsightsBench() {
  // INSIGHTS_BENCH_ONLY=serving measures serving and ingest alone, without the million-event
  // fill; =embedded or =postgres the million events on that database alone.
  const only = process.env.INSIGHTS_BENCH_ONLY;
  if (!only || only === 'serving') await serving();
  if (only === 'serving') return;
  if (!only || only === 'embedded') await embedded();
  if (!only || only === 'postgres') await postgres();
}

async function embedded() {
  console.log(
    `${EVENTS.toLocaleString('en')} events of one site over 30 days; goal: top 100 paths with visitors ≤ 500 ms on both databases`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'quire-insights-bench-'));
  try {
    const { db, unlock } = await openStore({ dataDir: dir, syncJournal: false, pgliteThread: true });
    try {
      await measure('embedded (PGlite)', db);
    } finally {
      await db.close();
      unlock();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres() {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
  try {
    scratch = await scratchDatabase(POSTGRES, 'quire_insights_bench');
  } catch (err) {
    console.log(`PostgreSQL at ${POSTGRES} not reachable (${(err as Error).message}): skipped`);
    return;
  }
  const pgDir = mkdtempSync(join(tmpdir(), 'quire-insights-bench-'));
  try {
    const { db } = await openStore({ dataDir: pgDir, databaseUrl: scratch.url });
    try {
      await measure('PostgreSQL', db);
    } finally {
      await db.close();
    }
  } finally {
    await scratch.drop();
    rmSync(pgDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runInsightsBench();
