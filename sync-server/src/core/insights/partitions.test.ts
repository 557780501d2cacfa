import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AggregateSiteEventsBody } from '@quire/shared/schemas/insights';
import { forgetOldInsights } from './commands';
import { blankDraft, finishRows } from './events';
import { planAggregation } from './queries';
import { TestServer } from '../../testing/harness';
import { testAdapter } from '../../testing/databases';
import type { Db } from '../../store/db';
import { aggregateEvents, insertEvents } from '../../store/insights';
import { isPartitioned, partitionName, prepareInsightsPartitions } from '../../store/insightsPartitions';

/**
 * Where events are kept: on PostgreSQL a table partitioned by UTC month, made ahead of time
 * and for any older month an event arrives for, and dropped whole by retention; on the
 * embedded database the plain table. Both keep and count the same events.
 */

let t: TestServer;
let siteId: string;
const postgres = testAdapter() === 'postgres';
const DAY = 86400_000;
const sender = { address: '192.0.2.9', userAgent: 'x' };

beforeAll(async () => {
  t = await TestServer.start();
  const { orgId, admin } = await t.org();
  siteId = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Docs' })).body.id;
});
afterAll(async () => t?.close());

const monthsAgo = (n: number, now = new Date()) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 10));
const store = async (db: Db, ats: Date[], path = '/p') =>
  insertEvents(
    db,
    await finishRows(
      db,
      ats.map((at) => blankDraft(siteId, at, 'page_view', `http://quire.test${path}`, sender)),
    ),
  );
const partitions = async (db: Db) =>
  (
    await db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'insights_events'::regclass ORDER BY 1`,
    )
  ).map((r) => r.name);

describe(`insights events by month on ${testAdapter()}`, () => {
  it('is a partitioned table on PostgreSQL with this and next month ready, the plain table on PGlite', async () => {
    expect(await isPartitioned(t.db)).toBe(postgres);
    if (!postgres) return;
    const now = new Date();
    const names = await partitions(t.db);
    expect(names).toContain(partitionName(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))));
    expect(names).toContain(partitionName(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))));
  });

  it('stores and counts an event of next month and one two months old', async () => {
    const now = new Date();
    const endOfMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - 60_000);
    const nextMonth = new Date(endOfMonth.getTime() + 2 * 60_000);
    const old = monthsAgo(2);
    await store(t.db, [old, nextMonth, now], '/span');
    if (postgres) expect(await partitions(t.db)).toContain(partitionName(new Date(Date.UTC(old.getUTCFullYear(), old.getUTCMonth(), 1))));
    const plan = planAggregation(
      siteId,
      AggregateSiteEventsBody.parse({
        select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }],
        where: [{ column: 'urlPath', values: ['/span'] }],
        range: { from: monthsAgo(3).toISOString(), to: new Date(nextMonth.getTime() + DAY).toISOString() },
      }),
    );
    const [events] = await aggregateEvents(t.db, plan, { events: true });
    expect(events).toEqual([3]);
  });

  it('retention drops a month past the retention whole and deletes the expired days of the month it cuts', async () => {
    await t.db.query('DELETE FROM insights_events');
    const now = new Date();
    const cut = new Date(Math.floor((now.getTime() - 40 * DAY) / DAY) * DAY);
    const oldMonth = monthsAgo(4);
    await store(t.db, [oldMonth, new Date(cut.getTime() - DAY), new Date(cut.getTime() + DAY), now], '/ret');
    const oldName = partitionName(new Date(Date.UTC(oldMonth.getUTCFullYear(), oldMonth.getUTCMonth(), 1)));
    if (postgres) expect(await partitions(t.db)).toContain(oldName);
    expect(await forgetOldInsights({ deps: { db: t.db, config: { insightsRetentionDays: 40 } } }, now)).toEqual({ deleted: 2 });
    const kept = await t.db.query<{ at: Date }>('SELECT at FROM insights_events ORDER BY at');
    expect(kept.map((r) => new Date(r.at).getTime())).toEqual([cut.getTime() + DAY, now.getTime()]);
    if (!postgres) return;
    const names = await partitions(t.db);
    expect(names).not.toContain(oldName);
    const cutName = partitionName(new Date(Date.UTC(cut.getUTCFullYear(), cut.getUTCMonth(), 1)));
    expect(names).toContain(cutName);
    // A month dropped by retention comes back for an event that arrives for it later.
    await store(t.db, [oldMonth], '/late');
    expect(await partitions(t.db)).toContain(oldName);
  });

  // Last: it puts the table back as migration 051 made it.
  it.skipIf(!postgres)('converts the plain table of migration 051 at start, keeping its rows, ids and foreign key', async () => {
    await t.db.query('DROP TABLE insights_events');
    const sql = readFileSync(join(__dirname, '../../store/migrations/051_site_insights.sql'), 'utf8');
    await t.db.exec(sql.slice(sql.indexOf('CREATE TABLE insights_events')));
    expect(await isPartitioned(t.db)).toBe(false);
    const old = monthsAgo(5);
    await t.db.query(
      `INSERT INTO insights_events (site_id, at, type, url, url_path, visitor, session)
       SELECT $1, $2::timestamptz + make_interval(days => i % 3), 'page_view', 'http://quire.test/x', '/x', 'v' || i, 's' || i
         FROM generate_series(1, 50) AS i`,
      [siteId, old.toISOString()],
    );
    const before = await t.db.query('SELECT * FROM insights_events ORDER BY id');
    await t.db.transaction((tx) => prepareInsightsPartitions(tx));
    // Twice, as a second instance starting finds it done.
    await t.db.transaction((tx) => prepareInsightsPartitions(tx));
    expect(await isPartitioned(t.db)).toBe(true);
    expect(await t.db.query('SELECT * FROM insights_events ORDER BY id')).toEqual(before);
    expect(await partitions(t.db)).toContain(partitionName(new Date(Date.UTC(old.getUTCFullYear(), old.getUTCMonth(), 1))));
    const indexes = await t.db.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE tablename = 'insights_events' ORDER BY 1",
    );
    expect(indexes.map((r) => r.indexname)).toEqual(
      expect.arrayContaining(['insights_events_at', 'insights_events_site_at', 'insights_events_visitor']),
    );
    // New events continue the ids, and the whole thing still counts.
    await store(t.db, [new Date()], '/after');
    const [last] = await t.db.query<{ id: string }>("SELECT id FROM insights_events WHERE url_path = '/after'");
    expect(Number(last?.id)).toBeGreaterThan(Math.max(...before.map((r) => Number(r.id))));
    // Deleting the site still deletes its events.
    await t.db.query('DELETE FROM sites WHERE id = $1', [siteId]);
    expect(await t.db.query('SELECT 1 FROM insights_events')).toEqual([]);
  });
});
