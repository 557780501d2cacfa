import { type Db, maybeOne, type Queryable } from './db';
import { dropPartitionsBefore, ensureMonthPartitions, forgetKnownPartitions } from './insightsPartitions';
import { deleteRollupsBefore, rollupUpsertSql } from './insightsRollups';
import type { SiteRow } from './sites';

/**
 * The insights tables: events of published sites and the day's salt. Queries are built
 * from the whitelist below; what a caller sends only ever reaches SQL as a parameter.
 */

/** One event as stored. Nothing here identifies a person: see migration 051. */
export interface InsightsEventRow {
  site_id: string;
  at: string;
  type: string;
  display_context: string;
  url: string;
  url_path: string;
  site_section: string | null;
  site_space: string | null;
  site_share_key: string | null;
  space_id: string | null;
  revision_id: string | null;
  page_id: string | null;
  visitor: string;
  session: string;
  browser: string;
  os: string;
  device: string;
  bot: string;
  language: string | null;
  referrer: string | null;
  referrer_domain: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  authenticated: boolean | null;
  claims: Record<string, unknown> | null;
  search_query: string | null;
  search_result_record: string | null;
  search_results: number | null;
  feedback_rating: string | null;
  feedback_comment: string | null;
  link_target: unknown;
  link_kind: string | null;
  link_domain: string | null;
  link_position: string | null;
  api_path: string | null;
  api_method: string | null;
  llms_variant: string | null;
  not_found_type: string | null;
  markdown_source: string | null;
  ask_rating: number | null;
  ad_domain: string | null;
  ad_placement: string | null;
  trademark_placement: string | null;
  data: Record<string, unknown> | null;
}

const COLUMN_TYPES: Record<keyof InsightsEventRow, string> = {
  site_id: 'text',
  at: 'timestamptz',
  type: 'text',
  display_context: 'text',
  url: 'text',
  url_path: 'text',
  site_section: 'text',
  site_space: 'text',
  site_share_key: 'text',
  space_id: 'text',
  revision_id: 'text',
  page_id: 'text',
  visitor: 'text',
  session: 'text',
  browser: 'text',
  os: 'text',
  device: 'text',
  bot: 'text',
  language: 'text',
  referrer: 'text',
  referrer_domain: 'text',
  utm_source: 'text',
  utm_medium: 'text',
  utm_campaign: 'text',
  utm_term: 'text',
  utm_content: 'text',
  authenticated: 'boolean',
  claims: 'jsonb',
  search_query: 'text',
  search_result_record: 'text',
  search_results: 'integer',
  feedback_rating: 'text',
  feedback_comment: 'text',
  link_target: 'jsonb',
  link_kind: 'text',
  link_domain: 'text',
  link_position: 'text',
  api_path: 'text',
  api_method: 'text',
  llms_variant: 'text',
  not_found_type: 'text',
  markdown_source: 'text',
  ask_rating: 'smallint',
  ad_domain: 'text',
  ad_placement: 'text',
  trademark_placement: 'text',
  data: 'jsonb',
};
const INSERT_COLUMNS = Object.keys(COLUMN_TYPES) as (keyof InsightsEventRow)[];
const RECORDSET = INSERT_COLUMNS.map((c) => `${c} ${COLUMN_TYPES[c]}`).join(', ');

/**
 * Stores a batch of events in one statement: all of them or, when it fails, none. The
 * same statement adds the batch's counts to the roll-ups, so they never drift from the
 * events. Events of a site deleted since they were recorded are left out rather than
 * failing the batch.
 */
export async function insertEvents(db: Db, rows: InsightsEventRow[]): Promise<void> {
  if (!rows.length) return;
  const store = async () => {
    await ensureMonthPartitions(
      db,
      rows.map((r) => new Date(r.at)),
    );
    await db.query(
      `WITH stored AS (
         INSERT INTO insights_events (${INSERT_COLUMNS.join(', ')})
         SELECT ${INSERT_COLUMNS.map((c) => `x.${c}`).join(', ')} FROM jsonb_to_recordset($1::jsonb) AS x(${RECORDSET})
          WHERE EXISTS (SELECT 1 FROM sites s WHERE s.id = x.site_id)
         RETURNING site_id, at, type, display_context, url_path, space_id, page_id, bot, visitor
       ), ${rollupUpsertSql('stored')}
       SELECT 1`,
      [JSON.stringify(rows.map(withoutNulls))],
    );
  };
  try {
    await store();
  } catch (err) {
    // No partition for a row: another instance's retention dropped a month this one still
    // believed was there. Learn the partitions again and retry once.
    if ((err as { code?: string }).code !== '23514') throw err;
    forgetKnownPartitions(db);
    await store();
  }
}

/**
 * Most of an event's columns are empty: a column left out of the batch's JSON is read as
 * NULL, so only the filled ones are sent (a page view's row is a third of the size).
 */
function withoutNulls(row: InsightsEventRow): Partial<InsightsEventRow> {
  const out: Record<string, unknown> = {};
  for (const column of INSERT_COLUMNS) if (row[column] !== null) out[column] = row[column];
  return out;
}

/** The latest session of each of these visitors of a site since `since`. */
export async function latestSessions(
  db: Queryable,
  siteId: string,
  visitors: string[],
  since: Date,
): Promise<{ visitor: string; session: string; at: Date }[]> {
  if (!visitors.length) return [];
  return db.query(
    `SELECT DISTINCT ON (visitor) visitor, session, at FROM insights_events
      WHERE site_id = $1 AND visitor = ANY($2::text[]) AND at >= $3
      ORDER BY visitor, at DESC`,
    [siteId, visitors, since.toISOString()],
  );
}

/** The salt of a day (`YYYY-MM-DD`, UTC), made by whichever instance asks first. */
export async function saltOfDay(db: Queryable, day: string, fresh: Uint8Array): Promise<Uint8Array> {
  await db.query('INSERT INTO insights_salts (day, salt) VALUES ($1::date, $2) ON CONFLICT (day) DO NOTHING', [day, fresh]);
  const [row] = await db.query<{ salt: Uint8Array }>('SELECT salt FROM insights_salts WHERE day = $1::date', [day]);
  if (!row) throw new Error(`no insights salt for ${day}`);
  return new Uint8Array(row.salt);
}

/** A site by id alone, for the operator's command line. */
export function siteById(db: Queryable, siteId: string) {
  return maybeOne<SiteRow>(db, 'SELECT * FROM sites WHERE id = $1', [siteId]);
}

/** Forgets the salts of days before `day`: their visitors can no longer be told from an address. */
export async function forgetSaltsBefore(db: Queryable, day: string): Promise<void> {
  await db.query('DELETE FROM insights_salts WHERE day < $1::date', [day]);
}

/**
 * Deletes events older than `before` (the start of a UTC day, so no roll-up bucket is left
 * counting events that are gone), then the roll-ups' buckets before it. On PostgreSQL the
 * months wholly before it go as whole partitions; the rest is deleted a slice at a time so
 * no statement holds the table long.
 */
export async function deleteEventsBefore(db: Db, before: Date, slice = 5000): Promise<number> {
  let total = await dropPartitionsBefore(db, before);
  for (;;) {
    const gone = await db.query<{ id: string }>(
      `DELETE FROM insights_events WHERE at < $1
          AND (id, at) IN (SELECT id, at FROM insights_events WHERE at < $1 LIMIT $2) RETURNING id`,
      [before.toISOString(), slice],
    );
    total += gone.length;
    if (gone.length < slice) break;
  }
  await deleteRollupsBefore(db, before);
  return total;
}

export { aggregateEvents, aggregationSource, claimCounts, COUNTED } from './insightsAggregate';
export type { AggregatePlan, ColumnRef, DateInterval } from './insightsAggregate';
