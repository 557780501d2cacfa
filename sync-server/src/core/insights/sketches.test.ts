import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AggregateSiteEventsBody } from '@quire/shared/schemas/insights';
import { loadConfig } from '../../config';
import { freshPostgresUrl, preparedDataDir, testAdapter } from '../../testing/databases';
import { TestServer } from '../../testing/harness';
import type { Db } from '../../store/db';
import { aggregateEvents, aggregationSource, type InsightsEventRow, insertEvents } from '../../store/insights';
import { rebuildRollups } from '../../store/insightsRollups';
import { estimateVisitors, sketchEntry, sketchOf } from '../../store/insightsSketch';
import { openStore } from '../../store/open';
import { createSite } from '../../store/sites';
import { createOrg } from '../../store/organizations';
import { ensureUser } from '../../store/users';
import { recordSiteVisit } from './commands';
import { blankDraft } from './events';
import { planAggregation } from './queries';
import { stopInsightsRecorder } from './recorder';

/**
 * Visitors counted from the roll-ups' sketches: estimates within their error bound, the
 * same sketch whether SQL or the server makes it, kept across a restart, and nothing in
 * them (or anywhere in insights) that leads back to a reader.
 */

/** Visitor hashes as the recorder makes them (base64url of a SHA-256). */
const visitors = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => createHash('sha256').update(`${tag}-${i}`).digest('base64url').slice(0, 22));

describe('a visitor sketch', () => {
  it('estimates distinct visitors within the bound: exact for a few, within 5% (3 standard errors) for many', () => {
    for (const n of [0, 1, 7, 60]) expect(estimateVisitors(sketchOf(visitors(n, 'few')))).toBe(n);
    const errors: number[] = [];
    for (const n of [2_000, 5_000, 12_000, 30_000, 60_000]) {
      const estimate = estimateVisitors(sketchOf(visitors(n, `many${n}`)));
      errors.push((estimate - n) / n);
      expect(Math.abs(estimate - n) / n).toBeLessThan(0.05);
    }
    // And on average within the ~2% the README states.
    expect(Math.sqrt(errors.reduce((s, e) => s + e * e, 0) / errors.length)).toBeLessThan(0.025);
  }, 120_000);

  it('merges sketches laid end to end into the sketch of the union, counting a visitor in both once', () => {
    const a = visitors(3_000, 'a');
    const b = [...visitors(2_000, 'b'), ...a.slice(0, 1_000)];
    const joined = Uint8Array.from([...sketchOf(a), ...sketchOf(b)]);
    expect(estimateVisitors(joined)).toBe(estimateVisitors(sketchOf(new Set([...a, ...b]))));
  });
});

let t: TestServer;
let siteId: string;
const T0 = Date.parse('2026-03-02T00:00:00.000Z');
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await TestServer.start();
  const { orgId, admin } = await t.org();
  siteId = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Docs' })).body.id;
});
afterAll(async () => t?.close());

function event(site: string, visitor: string, path: string, at: number): InsightsEventRow {
  const { sender: _sender, ...draft } = blankDraft(site, new Date(at), 'page_view', `http://quire.test${path}`, {
    address: '',
    userAgent: '',
  });
  return { ...draft, visitor, session: visitor, browser: 'Firefox', os: 'Linux', device: 'desktop', bot: '' };
}

const plan = (q: Record<string, unknown>) => planAggregation(siteId, AggregateSiteEventsBody.parse(q));

describe('visitors from the roll-ups', () => {
  it("counts a small site's readers exactly, even two that one sketch would take for one", async () => {
    // Two readers whose hashes fall on the same register with the same rank: a sketch sees one.
    const seen = new Map<number, string>();
    let twins: [string, string] | undefined;
    for (const v of visitors(20_000, 'twin')) {
      const other = seen.get(sketchEntry(v));
      if (other) {
        twins = [other, v];
        break;
      }
      seen.set(sketchEntry(v), v);
    }
    const [a, b] = twins as [string, string];
    const { orgId, admin } = await t.org();
    const small = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Small' })).body.id as string;
    await insertEvents(t.db, [
      event(small, a, '/', T0 + 2 * HOUR),
      event(small, b, '/', T0 + 3 * HOUR),
      event(small, a, '/x', T0 + 4 * HOUR),
    ]);
    const range = { from: new Date(T0).toISOString(), to: new Date(T0 + 24 * HOUR).toISOString() };
    const p = planAggregation(small, AggregateSiteEventsBody.parse({ range, select: [{ column: 'visitorsCount' }] }));
    expect(aggregationSource(p)).toBe('rollups');
    expect(await aggregateEvents(t.db, p)).toEqual([[2]]);
    // What the sketches alone would say.
    expect(await aggregateEvents(t.db, p, { sketches: true })).toEqual([[1]]);
  });

  it('are what SQL and the server make of the same visitors', async () => {
    const vs = visitors(5_000, 'sql');
    const [row] = await t.db.query<{ sketch: Uint8Array }>(
      'SELECT insights_hll_pack(array_agg(insights_hll_entry(v))) AS sketch FROM unnest($1::text[]) AS v',
      [vs],
    );
    expect(Buffer.from(row?.sketch as Uint8Array).equals(Buffer.from(sketchOf(vs)))).toBe(true);
  });

  it("answer top pages with visitors within the bound of the events' count, over 3 days stored in many batches (ordered or filtered by visitors, the events answer)", async () => {
    // 3,000 readers over three days; each reads a few of 20 pages, the first pages most.
    const rows: InsightsEventRow[] = [];
    const readers = visitors(3_000, 'readers');
    readers.forEach((v, i) => {
      for (let k = 0; k < 1 + (i % 4); k++)
        rows.push(event(siteId, v, `/p/${(i * (k + 3)) % (1 + (i % 20))}`, T0 + ((i * 7919 + k * 104_729) % (3 * 24 * HOUR))));
    });
    for (let i = 0; i < rows.length; i += 500) await insertEvents(t.db, rows.slice(i, i + 500));
    const q = {
      range: { from: new Date(T0 + 5 * HOUR + 17 * 60_000).toISOString(), to: new Date(T0 + 70 * HOUR + 3 * 60_000).toISOString() },
      select: [{ column: 'urlPath' }, { column: 'eventsCount' }, { column: 'visitorsCount' }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      limit: 20,
    };
    const p = plan(q);
    expect(aggregationSource(p)).toBe('rollups');
    const [paths, events, estimated] = await aggregateEvents(t.db, p, { sketches: true });
    const [exactPaths, exactEvents, exact] = await aggregateEvents(t.db, p, { events: true });
    expect(paths).toEqual(exactPaths);
    expect(events).toEqual(exactEvents);
    (exact as number[]).forEach((n, i) => expect(Math.abs((estimated?.[i] as number) - n)).toBeLessThanOrEqual(Math.max(1, n * 0.05)));
    // The whole range's visitors, as the Insights view's total.
    const totalPlan = plan({ range: q.range, select: [{ column: 'visitorsCount' }] });
    const total = (await aggregateEvents(t.db, totalPlan, { sketches: true }))[0]?.[0] as number;
    const exactTotal = (await aggregateEvents(t.db, totalPlan, { events: true }))[0]?.[0] as number;
    expect(Math.abs(total - exactTotal) / exactTotal).toBeLessThan(0.05);
    // Counted again from scratch, or by the migration from the events stored before it, the sketches are the same.
    const snapshot = () =>
      t.db.query(`SELECT hour, url_path, visitors FROM insights_hourly WHERE site_id = $1 ORDER BY hour, url_path`, [siteId]);
    const kept = await snapshot();
    await rebuildRollups(t.db);
    expect(await snapshot()).toEqual(kept);
    const daily = () =>
      t.db.query(`SELECT day, url_path, visitors FROM insights_daily WHERE site_id = $1 ORDER BY day, url_path`, [siteId]);
    const keptDaily = await daily();
    const migration = readFileSync(join(import.meta.dirname, '../../store/migrations/060_insights_visitor_sketches.sql'), 'utf8');
    const backfill = migration.split(';').filter((st) => /^\s*UPDATE/m.test(st.replace(/^--.*$/gm, '')));
    expect(backfill).toHaveLength(2);
    await t.db.query(`UPDATE insights_hourly SET visitors = ''::bytea`);
    await t.db.query(`UPDATE insights_daily SET visitors = ''::bytea`);
    for (const statement of backfill) await t.db.query(statement);
    expect(await snapshot()).toEqual(kept);
    expect(await daily()).toEqual(keptDaily);
    // Ordered or filtered by visitors, rows are counted exactly from the events.
    const whole = { from: new Date(T0).toISOString(), to: new Date(T0 + 72 * HOUR).toISOString() };
    const ordered = plan({
      range: whole,
      select: [{ column: 'urlPath' }, { column: 'visitorsCount' }],
      order: { by: { column: 'visitorsCount' }, direction: 'desc' },
    });
    expect(aggregationSource(ordered)).toBe('events');
    const filtered = plan({
      range: whole,
      select: [{ column: 'urlPath' }],
      where: [{ column: 'visitorsCount', operator: 'greaterThan', values: [10] }],
    });
    expect(aggregationSource(filtered)).toBe('events');
  }, 120_000);
});

describe('a restart', () => {
  it('keeps the counts, and readers coming back the same day are not counted again', async () => {
    const dir = preparedDataDir('quire-insights-restart-');
    const pg = testAdapter() === 'postgres' ? await freshPostgresUrl() : undefined;
    const env = { DATA_DIR: dir, ...(pg ? { DATABASE_URL: pg.url } : {}) };
    const question = { range: 'last24Hours', select: [{ column: 'urlPath' }, { column: 'eventsCount' }, { column: 'visitorsCount' }] };
    const visit = (db: Db, site: string, n: number) =>
      recordSiteVisit(
        { deps: { db } },
        {
          site: { id: site, adaptive_schema: null },
          type: 'page_view',
          url: `http://quire.test/s/o/docs/page-${n % 3}`,
          sender: { address: `192.0.2.${n}`, userAgent: 'Mozilla/5.0 Firefox/128.0' },
          signals: {},
        },
      );
    const read = async (db: Db, site: string) => {
      const p = planAggregation(site, AggregateSiteEventsBody.parse(question));
      expect(aggregationSource(p)).toBe('rollups');
      return aggregateEvents(db, p, { sketches: true });
    };
    try {
      let store = await openStore(loadConfig(env));
      const user = await ensureUser(store.db, 'restart@example.com', 'R');
      const org = await createOrg(store.db, 'Restart', user.id);
      const site = (await createSite(store.db, org.id, { title: 'Docs', type: 'basic', visibility: 'public', basename: 'docs' })).id;
      for (let n = 0; n < 30; n++) visit(store.db, site, n);
      // As the server shuts down: what the recorder holds is written first.
      await stopInsightsRecorder(store.db);
      const before = await read(store.db, site);
      expect(before.slice(0, 2)).toEqual([
        ['/s/o/docs/page-0', '/s/o/docs/page-1', '/s/o/docs/page-2'],
        [10, 10, 10],
      ]);
      // Ten readers each: an estimate, exact unless two of them share a register (about 1% a page).
      for (const v of before[2] as number[]) expect(Math.abs(v - 10)).toBeLessThanOrEqual(1);
      await store.db.close();
      store.unlock();

      store = await openStore(loadConfig(env));
      expect(await read(store.db, site)).toEqual(before);
      // The same 30 readers again, on each page once more: views add up, visitors do not.
      for (let n = 0; n < 30; n++) visit(store.db, site, n);
      await stopInsightsRecorder(store.db);
      expect(await read(store.db, site)).toEqual([before[0], [20, 20, 20], before[2]]);
      await store.db.close();
      store.unlock();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await pg?.drop();
    }
  }, 120_000);
});

describe('what insights store', () => {
  it('holds no address and no user agent of a reader, in the events, the roll-ups or their sketches', async () => {
    const address = '203.0.113.77';
    const userAgent = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0 QuireReaderMarker';
    const { orgId, admin } = await t.org();
    const site = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Private' })).body.id as string;
    recordSiteVisit(
      { deps: t.deps },
      {
        site: { id: site, adaptive_schema: null },
        type: 'page_view',
        url: 'http://quire.test/s/o/private/intro?utm_source=mail',
        sender: { address, userAgent },
        signals: {},
        referrer: 'https://search.example/?q=quire',
        language: 'fr-CA',
      },
    );
    await t.flushInsights();
    const stored: string[] = [];
    for (const table of ['insights_events', 'insights_hourly', 'insights_daily'])
      for (const row of await t.db.query<{ r: string }>(`SELECT t::text AS r FROM ${table} t WHERE site_id = $1`, [site]))
        stored.push(row.r);
    expect(stored).toHaveLength(3);
    // The roll-ups count the reader in a sketch…
    const [sketch] = await t.db.query<{ visitors: Uint8Array }>('SELECT visitors FROM insights_daily WHERE site_id = $1', [site]);
    expect(estimateVisitors(sketch?.visitors)).toBe(1);
    // …and nothing stored spells the address or the user agent, whole or in part.
    const text = stored.join('\n');
    for (const secret of [address, userAgent, 'QuireReaderMarker', 'X11; Linux', '203.0.113', 'utm_source', 'q=quire'])
      expect(text).not.toContain(secret);
    for (const hex of [Buffer.from(address).toString('hex'), Buffer.from('QuireReaderMarker').toString('hex')])
      expect(text).not.toContain(hex);
  });
});
