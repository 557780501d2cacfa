import type { InsightsColumnName } from '@quire/shared/schemas/insights';
import type { Queryable } from './db';

/**
 * Counts of events per UTC hour (insights_hourly) and UTC day (insights_daily), by the
 * columns the usual questions group by and filter on (migration 056), with a sketch of their
 * visitors (migration 060, see insightsSketch.ts). They are written in
 * the statement that stores a batch of events, so they always add up to the events.
 */

/** The columns of an event a roll-up row is keyed by, besides the site and its bucket. */
const KEY = ['type', 'display_context', 'url_path', 'space_id', 'page_id', 'bot'] as const;
const KEYS = KEY.join(', ');

/** Insights columns a roll-up can answer: it holds them, or they follow from a bucket's start. */
const HELD = new Set<InsightsColumnName>([
  'urlPath',
  'eventType',
  'displayContext',
  'page',
  'visitorBot',
  'datetime',
  'dayOfWeek',
  'hourOfDay',
]);

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const floorTo = (d: Date, unit: number) => new Date(Math.floor(d.getTime() / unit) * unit);
const ceilTo = (d: Date, unit: number) => new Date(Math.ceil(d.getTime() / unit) * unit);

/** The upsert of a batch's counts, reading the rows the batch's insert returned (`stored`). */
export function rollupUpsertSql(stored: string): string {
  const upsert = (table: string, bucket: string, unit: string) =>
    `INSERT INTO ${table} (site_id, ${bucket}, ${KEYS}, events, visitors)
     SELECT site_id, date_trunc('${unit}', at, 'UTC'), ${KEYS}, count(*), insights_hll_pack(array_agg(insights_hll_entry(visitor)))
       FROM ${stored}
      GROUP BY site_id, 2, ${KEYS} ORDER BY site_id, 2, ${KEYS}
     ON CONFLICT (site_id, ${bucket}, ${KEYS}) DO UPDATE
       SET events = ${table}.events + EXCLUDED.events, visitors = insights_hll_union(${table}.visitors, EXCLUDED.visitors)`;
  // Ordered by key, so two batches upserting the same rows wait for each other rather than deadlock.
  return `hourly AS (${upsert('insights_hourly', 'hour', 'hour')}), daily AS (${upsert('insights_daily', 'day', 'day')})`;
}

/** Counts the events again from scratch, for events written around the recorder (imports, benchmarks). */
export async function rebuildRollups(db: Queryable): Promise<void> {
  await db.query('DELETE FROM insights_hourly');
  await db.query('DELETE FROM insights_daily');
  await db.query(
    `INSERT INTO insights_hourly (site_id, hour, ${KEYS}, events, visitors)
     SELECT site_id, date_trunc('hour', at, 'UTC'), ${KEYS}, count(*), insights_hll_pack(array_agg(insights_hll_entry(visitor)))
       FROM insights_events GROUP BY site_id, 2, ${KEYS}`,
  );
  await db.query(
    `INSERT INTO insights_daily (site_id, day, ${KEYS}, events, visitors)
     SELECT site_id, date_trunc('day', hour, 'UTC'), ${KEYS}, sum(events), insights_hll_union(string_agg(visitors, ''::bytea), NULL)
       FROM insights_hourly GROUP BY site_id, 2, ${KEYS}`,
  );
  await db.query('ANALYZE insights_hourly');
  await db.query('ANALYZE insights_daily');
}

/** Deletes roll-up rows of buckets before `before` (the start of a UTC day). */
export async function deleteRollupsBefore(db: Queryable, before: Date): Promise<void> {
  await db.query('DELETE FROM insights_hourly WHERE hour < $1', [before.toISOString()]);
  await db.query('DELETE FROM insights_daily WHERE day < $1', [before.toISOString()]);
}

/** What an aggregation reads from roll-ups: columns used, and whether it needs time finer than a day. */
export interface RollupQuestion {
  columns: { column: InsightsColumnName; interval?: string }[];
  /** Columns filtered on (a filter on the time itself compares instants inside a bucket). */
  filtered: InsightsColumnName[];
  /** The column rows are ordered by, if any. */
  ordered?: InsightsColumnName;
}

/**
 * Whether roll-ups answer a question: only held columns, the count of events, and the count
 * of visitors as a value (estimated from sketches after the query, so not to filter or
 * order on).
 */
export function rollupsAnswer(q: RollupQuestion): boolean {
  return (
    q.columns.every((c) => c.column === 'eventsCount' || c.column === 'visitorsCount' || HELD.has(c.column)) &&
    q.filtered.every((c) => c === 'eventsCount' || (c !== 'datetime' && HELD.has(c))) &&
    q.ordered !== 'visitorsCount'
  );
}

/** Whether a range holds a whole UTC hour: shorter ranges gain nothing from the roll-ups. */
export function holdsWholeHour(range: { from: Date; to: Date }): boolean {
  return ceilTo(range.from, HOUR) < floorTo(range.to, HOUR);
}

/**
 * The rows an aggregation over roll-ups reads, as a subquery shaped like insights_events
 * (`at`, the key columns, `n`, the events a row stands for, and `visitors`, the sketch of its visitors): whole days from the daily
 * counts, whole hours at their edges from the hourly counts, and the partial hours at both
 * ends of the range from the events themselves. Null when the range holds no whole hour.
 */
export function rollupSource(
  q: RollupQuestion,
  range: { siteId: string; from: Date; to: Date },
  add: (v: unknown) => string,
): string | null {
  if (!holdsWholeHour(range)) return null;
  const h0 = ceilTo(range.from, HOUR);
  const h1 = floorTo(range.to, HOUR);
  const hourly = q.columns.some((c) => c.column === 'hourOfDay' || (c.column === 'datetime' && c.interval === 'hour'));
  const d0 = ceilTo(h0, DAY);
  const d1 = floorTo(h1, DAY);
  const days = !hourly && d0 < d1;
  const site = `${add(range.siteId)}::text`;
  const at = (d: Date) => `${add(d.toISOString())}::timestamptz`;
  const span = (col: string, spans: [Date, Date][]) =>
    spans
      .filter(([a, b]) => a < b)
      .map(([a, b]) => `(${col} >= ${at(a)} AND ${col} < ${at(b)})`)
      .join(' OR ') || 'false';
  const parts = [
    `SELECT at, ${KEYS}, 1::bigint AS n, insights_hll_one(visitor) AS visitors FROM insights_events WHERE site_id = ${site} AND (${span(
      'at',
      [
        [range.from, h0],
        [h1, range.to],
      ],
    )})`,
    `SELECT hour AS at, ${KEYS}, events AS n, visitors FROM insights_hourly WHERE site_id = ${site} AND (${span(
      'hour',
      days
        ? [
            [h0, d0],
            [d1, h1],
          ]
        : [[h0, h1]],
    )})`,
  ];
  if (days)
    parts.push(
      `SELECT day AS at, ${KEYS}, events AS n, visitors FROM insights_daily WHERE site_id = ${site} AND day >= ${at(d0)} AND day < ${at(d1)}`,
    );
  return `(${parts.join('\nUNION ALL\n')}) AS e`;
}
