import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../store/db';
import { TestServer } from '../../testing/harness';
import { waitFor } from '../../testing/syncClients';
import { runBackgroundJobs } from '../platform/jobs';
import { forgetOldInsights, recordSiteVisit, type SiteVisit } from './commands';
import { blankDraft, finishRows } from './events';
import { InsightsRecorder, stopInsightsRecorder } from './recorder';
import { insertEvents } from '../../store/insights';
import { todaysSalt, visitorHash } from './visitors';

/** How site visits reach storage, and how long they and the salts stay there. */

let t: TestServer;
let siteId: string;

beforeAll(async () => {
  t = await TestServer.start();
  const { orgId, admin } = await t.org();
  siteId = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Docs' })).body.id;
});
afterAll(async () => t?.close());
beforeEach(async () => {
  await t.db.query('DELETE FROM insights_events');
});

const count = async () => ((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM insights_events'))[0] as { n: number }).n;

/** The database, with the statements and transactions run through it noted. */
function watched(db: Db) {
  const seen = { inserts: 0, transactions: 0 };
  const proxy = Object.create(db, {
    query: {
      value: (sql: string, params?: unknown[]) => {
        if (/INSERT INTO insights_events/.test(sql)) seen.inserts++;
        return db.query(sql, params);
      },
    },
    transaction: {
      value: <T>(fn: (tx: Queryable) => Promise<T>) => {
        seen.transactions++;
        return db.transaction(fn);
      },
    },
  }) as Db;
  return { db: proxy, seen };
}

const visit = (n: number): SiteVisit => ({
  site: { id: siteId, adaptive_schema: null },
  type: 'page_view',
  url: `http://quire.test/s/o/docs/page-${n}`,
  sender: { address: `192.0.2.${n % 250}`, userAgent: 'Mozilla/5.0 Firefox/128.0' },
  signals: {},
});

describe('the recorder', () => {
  it('stores a burst of page views as one statement, with no transaction per view', async () => {
    const { db, seen } = watched(t.db);
    for (let i = 0; i < 120; i++) recordSiteVisit({ deps: { db } }, visit(i));
    expect(await count()).toBe(0);
    await stopInsightsRecorder(db);
    expect(await count()).toBe(120);
    expect(seen).toEqual({ inserts: 1, transactions: 0 });
  });

  it('writes what it holds on its own, every interval', async () => {
    const recorder = new InsightsRecorder(t.db, undefined, { everyMs: 20, batch: 500, maxPending: 1000 });
    const drafts = [0, 1, 2].map((i) =>
      blankDraft(siteId, new Date(), 'page_view', `http://quire.test/p${i}`, { address: '192.0.2.9', userAgent: 'x' }),
    );
    for (const d of drafts) recorder.add(d);
    await waitFor(async () => (await count()) === 3, 'the interval flush');
    await recorder.stop();
  });

  it('holds at most its bound while the database cannot keep up, dropping the rest', async () => {
    const recorder = new InsightsRecorder(t.db, undefined, { everyMs: 60_000, batch: 500, maxPending: 5 });
    for (let i = 0; i < 8; i++)
      recorder.add(blankDraft(siteId, new Date(), 'page_view', 'http://quire.test/', { address: 'a', userAgent: 'b' }));
    expect(recorder.dropped).toBe(3);
    await recorder.stop();
    expect(await count()).toBe(5);
  });

  it('leaves out the events of a site deleted before they were written, and keeps the rest of the batch', async () => {
    const { db } = watched(t.db);
    recordSiteVisit({ deps: { db } }, { ...visit(1), site: { id: 'deleted-site-0000000000', adaptive_schema: null } });
    recordSiteVisit({ deps: { db } }, visit(2));
    await stopInsightsRecorder(db);
    expect(await t.db.query('SELECT site_id FROM insights_events')).toEqual([{ site_id: siteId }]);
  });

  it('records nothing for a visitor who sent GPC or DNT', async () => {
    const { db } = watched(t.db);
    expect(recordSiteVisit({ deps: { db } }, { ...visit(1), signals: { gpc: '1' } })).toBe(false);
    expect(recordSiteVisit({ deps: { db } }, { ...visit(1), signals: { dnt: '1' } })).toBe(false);
    expect(recordSiteVisit({ deps: { db } }, { ...visit(1), signals: { gpc: '0', dnt: '0' } })).toBe(true);
    await stopInsightsRecorder(db);
    expect(await count()).toBe(1);
  });
});

describe('visitors and sessions', () => {
  it('a visitor is a different hash every day, and yesterday’s salt is gone once today’s is made', async () => {
    await t.db.query('DELETE FROM insights_salts');
    const yesterday = new Date(Date.now() - 86400_000);
    const before = await todaysSalt(t.db, yesterday);
    expect(await t.db.query('SELECT day::text FROM insights_salts')).toEqual([{ day: yesterday.toISOString().slice(0, 10) }]);
    const now = await todaysSalt(t.db, new Date());
    expect(await t.db.query('SELECT day::text FROM insights_salts')).toEqual([{ day: new Date().toISOString().slice(0, 10) }]);
    expect(visitorHash(before, siteId, '192.0.2.1', 'ua')).not.toBe(visitorHash(now, siteId, '192.0.2.1', 'ua'));
    expect(visitorHash(now, siteId, '192.0.2.1', 'ua')).toBe(visitorHash(now, siteId, '192.0.2.1', 'ua'));
    expect(visitorHash(now, siteId, '192.0.2.1', 'ua')).not.toBe(visitorHash(now, siteId, '192.0.2.2', 'ua'));
  });

  it('starts a new session after 30 minutes without an event from the visitor', async () => {
    const at = (min: number) => new Date(Date.now() - min * 60_000);
    const sender = { address: '192.0.2.77', userAgent: 'Mozilla/5.0 Firefox/128.0' };
    const rows = await finishRows(t.db, [
      blankDraft(siteId, at(100), 'page_view', 'http://quire.test/a', sender),
      blankDraft(siteId, at(75), 'page_view', 'http://quire.test/b', sender),
      blankDraft(siteId, at(40), 'page_view', 'http://quire.test/c', sender),
    ]);
    await insertEvents(t.db, rows);
    expect(rows[0]?.session).toBe(rows[1]?.session);
    expect(rows[2]?.session).not.toBe(rows[1]?.session);
    // A later batch continues the session stored less than 30 minutes before.
    const [later] = await finishRows(t.db, [blankDraft(siteId, at(20), 'page_view', 'http://quire.test/d', sender)]);
    expect(later?.session).toBe(rows[2]?.session);
  });
});

describe('retention', () => {
  it('deletes events older than INSIGHTS_RETENTION_DAYS, and keeps the rest', async () => {
    const sender = { address: '192.0.2.5', userAgent: 'x' };
    const daysAgo = (d: number) => new Date(Date.now() - d * 86400_000);
    await insertEvents(
      t.db,
      await finishRows(t.db, [
        blankDraft(siteId, daysAgo(401), 'page_view', 'http://quire.test/old', sender),
        blankDraft(siteId, daysAgo(399), 'page_view', 'http://quire.test/kept', sender),
        blankDraft(siteId, daysAgo(40), 'page_view', 'http://quire.test/recent', sender),
      ]),
    );
    expect(await forgetOldInsights({ deps: { db: t.db, config: { insightsRetentionDays: 400 } } })).toEqual({ deleted: 1 });
    expect((await t.db.query<{ url_path: string }>('SELECT url_path FROM insights_events ORDER BY at')).map((r) => r.url_path)).toEqual([
      '/kept',
      '/recent',
    ]);
    // The background jobs apply the configured period.
    await runBackgroundJobs(t.db, t.deps.log, { insightsRetentionDays: 30 });
    expect(await count()).toBe(0);
  });
});
