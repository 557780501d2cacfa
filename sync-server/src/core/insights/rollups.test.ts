import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AggregateSiteEventsBody } from '@quire/shared/schemas/insights';
import { forgetOldInsights } from './commands';
import { blankDraft } from './events';
import { planAggregation } from './queries';
import { TestServer } from '../../testing/harness';
import { aggregateEvents, aggregationSource, type InsightsEventRow, insertEvents } from '../../store/insights';
import { rebuildRollups } from '../../store/insightsRollups';

/**
 * The hourly and daily counts beside the events: kept with each batch, used by the
 * aggregations that only count events, and always giving the answer the events give.
 */

let t: TestServer;
let siteId: string;
let otherSite: string;

const T0 = Date.parse('2026-03-02T00:00:00.000Z');
const MIN = 60_000;
const at = (minutes: number) => new Date(T0 + minutes * MIN);

const TYPES = ['page_view', 'page_view', 'page_view', 'search_type_query', 'page_post_feedback'];
const PATHS = ['/a', '/b', '/c', '/guides/d', '/missing'];
const CONTEXTS = ['site', 'site', 'embed'];
const BOTS = ['', '', '', 'Googlebot'];

/** A stored event, varied over the columns the roll-ups hold by a simple walk of `i`. */
function event(site: string, i: number, minutes: number): InsightsEventRow {
  const path = PATHS[(i * 7) % PATHS.length] as string;
  const draft = blankDraft(site, at(minutes), TYPES[i % TYPES.length] as string, `http://quire.test${path}`, {
    address: '192.0.2.1',
    userAgent: 'x',
  });
  const { sender: _sender, ...rest } = draft;
  return {
    ...rest,
    display_context: CONTEXTS[i % CONTEXTS.length] as string,
    space_id: path === '/missing' ? null : path.startsWith('/guides') ? 'space_g' : 'space_a',
    page_id: path === '/missing' ? null : `page${path.replace(/\W/g, '_')}`,
    visitor: `v${i % 13}`,
    session: `s${i % 29}`,
    browser: 'Firefox',
    os: 'Linux',
    device: 'desktop',
    bot: BOTS[i % BOTS.length] as string,
  };
}

/** Events of `site` over four days, at uneven minutes, stored in batches that overlap in hours and keys. */
async function record(site: string, n: number) {
  const rows = Array.from({ length: n }, (_, i) => event(site, i, (i * 37 + ((i * i) % 53)) % (4 * 24 * 60)));
  for (let i = 0; i < rows.length; i += 97) await insertEvents(t.db, rows.slice(i, i + 97));
}

beforeAll(async () => {
  t = await TestServer.start();
  const { orgId, admin } = await t.org();
  siteId = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Docs' })).body.id;
  otherSite = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Other' })).body.id;
  await record(siteId, 900);
  await record(otherSite, 200);
});
afterAll(async () => t?.close());

const plan = (q: Record<string, unknown>) => planAggregation(siteId, AggregateSiteEventsBody.parse(q));
const range = (from: number, to: number) => ({ from: at(from).toISOString(), to: at(to).toISOString() });
const byPath = { groupBy: [{ column: 'urlPath' }], select: [{ column: 'urlPath' }, { column: 'eventsCount' }] };

/** Ranges: whole days, whole hours, partial hours at either or both ends, longer than the events. */
const RANGES = {
  'whole days': range(24 * 60, 3 * 24 * 60),
  'partial hours at both ends': range(24 * 60 + 17, 3 * 24 * 60 + 43),
  'a partial hour at the start': range(90 + 5, 26 * 60),
  'a partial hour at the end': range(5 * 60, 50 * 60 + 59),
  'within a day, partial hours': range(3 * 60 + 1, 9 * 60 + 59),
  'around all the events': range(-3 * 24 * 60 - 11, 8 * 24 * 60 + 3),
};

const QUESTIONS: Record<string, Record<string, unknown>> = {
  'by urlPath, top 3': { ...byPath, order: { by: { column: 'eventsCount' }, direction: 'desc' }, limit: 3 },
  'by eventType': { groupBy: [{ column: 'eventType' }] },
  'by hour': { groupBy: [{ column: 'datetime', interval: 'hour' }] },
  'by day': { groupBy: [{ column: 'datetime', interval: 'day' }, { column: 'displayContext' }] },
  'by week': { groupBy: [{ column: 'datetime', interval: 'week' }] },
  'by day of week and hour of day': { groupBy: [{ column: 'dayOfWeek' }, { column: 'hourOfDay' }] },
  'by page, people only': { groupBy: [{ column: 'page' }], where: [{ column: 'visitorBot', values: [''] }] },
  'page views of pages, not embedded': {
    ...byPath,
    where: [
      { column: 'eventType', values: ['page_view'] },
      { column: 'page', operator: 'notIn', values: [null] },
      { column: 'displayContext', operator: 'notIn', values: ['embed'] },
    ],
  },
  'views of one page or none': {
    groupBy: [{ column: 'eventType' }],
    where: [{ column: 'page', values: [{ space: 'space_g', page: 'page__guides_d' }, null] }],
  },
  'paths after /b, counted more than 5 times': {
    ...byPath,
    where: [
      { column: 'urlPath', operator: 'greaterThan', values: ['/b'] },
      { column: 'eventsCount', operator: 'greaterThan', values: [5] },
    ],
  },
  'all events': { select: [{ column: 'eventsCount' }] },
};

describe('aggregations answered from the roll-ups', () => {
  for (const [rangeName, r] of Object.entries(RANGES))
    it(`give the events' answer over ${rangeName}`, async () => {
      for (const [name, q] of Object.entries(QUESTIONS)) {
        const p = plan({ ...q, range: r });
        expect(aggregationSource(p), name).toBe('rollups');
        const fromEvents = await aggregateEvents(t.db, p, { events: true });
        expect(fromEvents[0]?.length, name).toBeGreaterThan(0);
        expect(await aggregateEvents(t.db, p), name).toEqual(fromEvents);
      }
    });

  it('read the roll-up tables, not every event', async () => {
    const seen: string[] = [];
    const db = Object.create(t.db, {
      query: { value: (sql: string, params?: unknown[]) => (seen.push(sql), t.db.query(sql, params)) },
    }) as typeof t.db;
    await aggregateEvents(db, plan({ ...byPath, range: RANGES['whole days'] }));
    expect(seen.join('\n')).toMatch(/FROM insights_daily/);
    await aggregateEvents(db, plan({ groupBy: [{ column: 'datetime', interval: 'hour' }], range: RANGES['whole days'] }));
    expect(seen.at(-1)).toMatch(/FROM insights_hourly/);
    expect(seen.at(-1)).not.toMatch(/FROM insights_daily/);
  });

  it('count an empty range, and a range within one hour, like the events do', async () => {
    for (const r of [range(-2 * 24 * 60, -24 * 60), range(61, 119), range(120, 180)]) {
      const p = plan({ select: [{ column: 'eventsCount' }], range: r });
      expect(await aggregateEvents(t.db, p)).toEqual(await aggregateEvents(t.db, p, { events: true }));
    }
    expect(aggregationSource(plan({ select: [{ column: 'eventsCount' }], range: range(61, 119) }))).toBe('events');
  });
});

describe('aggregations the roll-ups cannot answer', () => {
  it('count visitors and sessions from the events', async () => {
    const r = RANGES['partial hours at both ends'];
    const p = plan({
      ...byPath,
      select: [{ column: 'urlPath' }, { column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }],
      range: r,
    });
    expect(aggregationSource(p)).toBe('events');
    const expected = await t.db.query<{ url_path: string; e: number; v: number; s: number }>(
      `SELECT url_path, count(*)::int AS e, count(DISTINCT visitor)::int AS v, count(DISTINCT session)::int AS s
         FROM insights_events WHERE site_id = $1 AND at >= $2 AND at < $3 GROUP BY url_path ORDER BY url_path`,
      [siteId, r.from, r.to],
    );
    expect(await aggregateEvents(t.db, p)).toEqual([
      expected.map((x) => x.url_path),
      expected.map((x) => x.e),
      expected.map((x) => x.v),
      expected.map((x) => x.s),
    ]);
  });

  it('group by columns the roll-ups do not hold, or filter on the time, from the events', async () => {
    const r = RANGES['whole days'];
    expect(aggregationSource(plan({ groupBy: [{ column: 'visitorBrowser' }], range: r }))).toBe('events');
    expect(aggregationSource(plan({ ...byPath, where: [{ column: 'datetime', operator: 'lessThan', values: [r.from] }], range: r }))).toBe(
      'events',
    );
  });
});

describe('the roll-up rows', () => {
  const snapshot = async () => ({
    hourly: await t.db.query(
      `SELECT site_id, hour, type, display_context, url_path, space_id, page_id, bot, events::int AS events FROM insights_hourly
        ORDER BY site_id, hour, type, display_context, url_path, space_id NULLS FIRST, page_id NULLS FIRST, bot`,
    ),
    daily: await t.db.query(
      `SELECT site_id, day, type, display_context, url_path, space_id, page_id, bot, events::int AS events FROM insights_daily
        ORDER BY site_id, day, type, display_context, url_path, space_id NULLS FIRST, page_id NULLS FIRST, bot`,
    ),
  });

  it('are one per bucket and key however many batches added to it, as the migration counts them from the events', async () => {
    const kept = await snapshot();
    const [{ n } = { n: 0 }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM insights_events');
    expect(kept.hourly.length).toBeLessThan(n);
    const migration = readFileSync(join(import.meta.dirname, '../../store/migrations/056_insights_rollups.sql'), 'utf8');
    const backfill = migration.split(';').filter((s) => /^\s*INSERT INTO/m.test(s.replace(/^--.*$/gm, '')));
    expect(backfill).toHaveLength(2);
    await t.db.query('DELETE FROM insights_hourly');
    await t.db.query('DELETE FROM insights_daily');
    for (const statement of backfill) await t.db.query(statement);
    expect(await snapshot()).toEqual(kept);
    await rebuildRollups(t.db);
    expect(await snapshot()).toEqual(kept);
  });

  it('are trimmed by the retention job with the events', async () => {
    const now = new Date(T0 + 10 * 24 * 60 * MIN);
    // 8 days kept: the first two days of events (and their buckets) are older than that.
    await forgetOldInsights({ deps: { db: t.db, config: { insightsRetentionDays: 8 } } }, now);
    const [left] = await t.db.query<{ events: number; hourly: number; daily: number; oldest: Date }>(
      `SELECT (SELECT count(*)::int FROM insights_events) AS events,
              (SELECT sum(events)::int FROM insights_hourly) AS hourly,
              (SELECT sum(events)::int FROM insights_daily) AS daily,
              (SELECT min(hour) FROM insights_hourly) AS oldest`,
    );
    expect(left?.events).toBeGreaterThan(0);
    expect(left?.hourly).toBe(left?.events);
    expect(left?.daily).toBe(left?.events);
    expect(new Date(left?.oldest as Date).toISOString()).toBe(at(2 * 24 * 60).toISOString());
    const p = plan({ ...byPath, range: range(0, 4 * 24 * 60) });
    expect(await aggregateEvents(t.db, p)).toEqual(await aggregateEvents(t.db, p, { events: true }));
  });
});
