import type { InsightsColumnName, InsightsOperator } from '@quire/shared/schemas/insights';
import { maybeOne, type Queryable } from './db';
import type { SiteRow } from './sites';

/**
 * The insights tables: events of published sites and the day's salt. Queries are built
 * from the whitelist below; what a caller sends only ever reaches SQL as a parameter.
 */

/** One event as stored. Nothing here identifies a person: see migration 050. */
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
 * Stores a batch of events in one statement: all of them or, when it fails, none. Events
 * of a site deleted since they were recorded are left out rather than failing the batch.
 */
export async function insertEvents(db: Queryable, rows: InsightsEventRow[]): Promise<void> {
  if (!rows.length) return;
  await db.query(
    `INSERT INTO insights_events (${INSERT_COLUMNS.join(', ')})
     SELECT ${INSERT_COLUMNS.map((c) => `x.${c}`).join(', ')} FROM jsonb_to_recordset($1::jsonb) AS x(${RECORDSET})
      WHERE EXISTS (SELECT 1 FROM sites s WHERE s.id = x.site_id)`,
    [JSON.stringify(rows)],
  );
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

/** Deletes events older than `before`, a slice at a time so no statement holds the table long. */
export async function deleteEventsBefore(db: Queryable, before: Date, slice = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const gone = await db.query<{ id: string }>(
      `DELETE FROM insights_events WHERE id IN (SELECT id FROM insights_events WHERE at < $1 LIMIT $2) RETURNING id`,
      [before.toISOString(), slice],
    );
    total += gone.length;
    if (gone.length < slice) return total;
  }
}

// ---------------------------------------------------------------------------------------
// Aggregation.

export type DateInterval = 'hour' | 'day' | 'week' | 'month';

/** A column of the aggregation query, already checked against the public list. */
export interface ColumnRef {
  column: InsightsColumnName;
  interval?: DateInterval;
  claim?: string;
}

export interface AggregatePlan {
  siteId: string;
  from: Date;
  to: Date;
  /** The answer's columns, in order. */
  outputs: ColumnRef[];
  /** Columns rows are grouped by (none: one row over everything). */
  groupBy: ColumnRef[];
  filters: { ref: ColumnRef; operator: InsightsOperator; values: unknown[] }[];
  order?: { ref: ColumnRef; direction: 'asc' | 'desc' };
  limit: number;
}

/** Columns whose value is counted over a group. */
export const COUNTED = new Set<InsightsColumnName>([
  'eventsCount',
  'sessionsCount',
  'visitorsCount',
  'pageFeedbackRating',
  'askResponseRating',
]);

/** Columns read from one event: their SQL, and the type their filter values are cast to. */
const DIMENSIONS: Partial<Record<InsightsColumnName, { sql: string; type: string }>> = {
  dayOfWeek: { sql: "EXTRACT(ISODOW FROM at AT TIME ZONE 'UTC')::int", type: 'int' },
  hourOfDay: { sql: "EXTRACT(HOUR FROM at AT TIME ZONE 'UTC')::int", type: 'int' },
  url: { sql: 'url', type: 'text' },
  urlPath: { sql: 'url_path', type: 'text' },
  eventType: { sql: 'type', type: 'text' },
  siteSection: { sql: 'site_section', type: 'text' },
  siteSpace: { sql: 'site_space', type: 'text' },
  siteShareKey: { sql: 'site_share_key', type: 'text' },
  displayContext: { sql: 'display_context', type: 'text' },
  // No address is kept, so no place can be derived from one.
  visitorGeoCountry: { sql: 'NULL::text', type: 'text' },
  visitorDevice: { sql: 'device', type: 'text' },
  visitorBrowser: { sql: 'browser', type: 'text' },
  visitorOS: { sql: 'os', type: 'text' },
  visitorBot: { sql: 'bot', type: 'text' },
  visitorLanguage: { sql: 'language', type: 'text' },
  eventLinkTargetValue: { sql: 'link_target', type: 'jsonb' },
  eventLinkTargetKind: { sql: 'link_kind', type: 'text' },
  eventLinkTargetDomain: { sql: 'link_domain', type: 'text' },
  eventLinkPosition: { sql: 'link_position', type: 'text' },
  eventAPIOperationPath: { sql: 'api_path', type: 'text' },
  eventAPIOperationMethod: { sql: 'api_method', type: 'text' },
  eventLLMSVariant: { sql: 'llms_variant', type: 'text' },
  eventPageNotFoundType: { sql: 'not_found_type', type: 'text' },
  eventMarkdownSource: { sql: 'markdown_source', type: 'text' },
  eventSearchQuery: { sql: 'search_query', type: 'text' },
  eventSearchResultRecordId: { sql: 'search_result_record', type: 'text' },
  eventPageFeedbackRating: { sql: 'feedback_rating', type: 'text' },
  eventPageFeedbackComment: { sql: 'feedback_comment', type: 'text' },
  eventAskResponseRating: { sql: 'ask_rating::int', type: 'int' },
  referrer: { sql: 'referrer', type: 'text' },
  referrerDomain: { sql: 'referrer_domain', type: 'text' },
  utmSource: { sql: 'utm_source', type: 'text' },
  utmMedium: { sql: 'utm_medium', type: 'text' },
  utmCampaign: { sql: 'utm_campaign', type: 'text' },
  utmTerm: { sql: 'utm_term', type: 'text' },
  utmContent: { sql: 'utm_content', type: 'text' },
  visitorAuthenticated: { sql: 'authenticated', type: 'boolean' },
  visitorClaimProperty: { sql: 'claim_key.k', type: 'text' },
  eventAdDomain: { sql: 'ad_domain', type: 'text' },
  eventAdPlacement: { sql: 'ad_placement', type: 'text' },
  eventTrademarkPlacement: { sql: 'trademark_placement', type: 'text' },
  eventSearchResultsCount: { sql: 'search_results', type: 'int' },
};

const COUNTS: Partial<Record<InsightsColumnName, string>> = {
  eventsCount: 'count(*)::int',
  sessionsCount: 'count(DISTINCT session)::int',
  visitorsCount: 'count(DISTINCT visitor)::int',
  pageFeedbackRating:
    "json_build_object('ok', count(*) FILTER (WHERE feedback_rating = 'ok'), 'good', count(*) FILTER (WHERE feedback_rating = 'good'), 'bad', count(*) FILTER (WHERE feedback_rating = 'bad'))",
  askResponseRating:
    "json_build_object('positive', count(*) FILTER (WHERE ask_rating > 0), 'negative', count(*) FILTER (WHERE ask_rating < 0))",
};

const INTERVALS: Record<DateInterval, string> = { hour: 'hour', day: 'day', week: 'week', month: 'month' };
const COMPARISONS: Record<Exclude<InsightsOperator, 'in' | 'notIn'>, string> = {
  greaterThan: '>',
  greaterThanOrEqual: '>=',
  lessThan: '<',
  lessThanOrEqual: '<=',
};

class Params {
  readonly values: unknown[] = [];
  private claims = new Map<string, string>();
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
  /** A claim's name is one parameter however often it is named, so its expression reads the same in SELECT, GROUP BY and ORDER BY. */
  claim(name: string): string {
    let known = this.claims.get(name);
    if (!known) {
      known = `${this.add(name)}::text`;
      this.claims.set(name, known);
    }
    return known;
  }
}

/** The SQL of a column read from one event (`page` is two: space and page). */
function dimensionSql(ref: ColumnRef, p: Params): string[] {
  if (ref.column === 'datetime') {
    const interval = INTERVALS[ref.interval ?? 'day'];
    return [`to_char(date_trunc('${interval}', at AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`];
  }
  if (ref.column === 'page') return ['space_id', 'page_id'];
  if (ref.column === 'visitorClaim') return [`claims ->> ${p.claim(ref.claim ?? '')}`];
  const d = DIMENSIONS[ref.column];
  if (!d) throw new Error(`no dimension ${ref.column}`);
  return [d.sql];
}

function valueSql(ref: ColumnRef, p: Params): string[] {
  const counted = COUNTS[ref.column];
  return counted ? [counted] : dimensionSql(ref, p);
}

/** One filter as a condition; counted columns go to HAVING, the rest to WHERE. */
function filterSql(f: AggregatePlan['filters'][number], p: Params): string {
  const { ref, operator, values } = f;
  if (ref.column === 'page') {
    const alternatives = values.map((v) => {
      if (v === null) return 'page_id IS NULL';
      const { page, space } = v as { page: string | null; space: string };
      return `(space_id = ${p.add(space)}::text AND page_id IS NOT DISTINCT FROM ${p.add(page)}::text)`;
    });
    const any = alternatives.length ? `(${alternatives.join(' OR ')})` : 'false';
    return operator === 'notIn' ? `NOT ${any}` : any;
  }
  let expr: string;
  let type: string;
  if (ref.column === 'datetime') {
    expr = 'at';
    type = 'timestamptz';
  } else if (COUNTS[ref.column]) {
    expr = COUNTS[ref.column] as string;
    type = 'int';
  } else if (ref.column === 'visitorClaim') {
    expr = `(claims ->> ${p.claim(ref.claim ?? '')})`;
    type = 'text';
  } else {
    const d = DIMENSIONS[ref.column] as { sql: string; type: string };
    expr = d.sql;
    type = d.type;
  }
  const given = values.filter((v) => v !== null).map((v) => (type === 'jsonb' ? JSON.stringify(v) : v));
  const hasNull = values.some((v) => v === null);
  if (operator === 'in' || operator === 'notIn') {
    const matches = given.length ? `coalesce(${expr} = ANY(${p.add(given)}::${type}[]), false)` : 'false';
    const held = hasNull ? `(${matches} OR ${expr} IS NULL)` : matches;
    return operator === 'in' ? held : `NOT ${held}`;
  }
  return `coalesce(${expr} ${COMPARISONS[operator]} ${p.add(given[0])}::${type}, false)`;
}

/** Runs an aggregation; the answer is columnar, rows in the same order in every column. */
export async function aggregateEvents(db: Queryable, plan: AggregatePlan): Promise<unknown[][]> {
  const p = new Params();
  const outputs = plan.outputs.map((ref) => valueSql(ref, p));
  const groups = plan.groupBy.flatMap((ref) => dimensionSql(ref, p));
  const where = [
    `site_id = ${p.add(plan.siteId)}::text`,
    `at >= ${p.add(plan.from.toISOString())}::timestamptz`,
    `at < ${p.add(plan.to.toISOString())}::timestamptz`,
  ];
  const having: string[] = [];
  for (const f of plan.filters) (COUNTS[f.ref.column] ? having : where).push(filterSql(f, p));
  const usesClaimKeys = [...plan.outputs, ...plan.groupBy, ...plan.filters.map((f) => f.ref)].some(
    (r) => r.column === 'visitorClaimProperty',
  );
  const order: string[] = [];
  if (plan.order)
    order.push(...valueSql(plan.order.ref, p).map((s) => `${s} ${plan.order?.direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`));
  // Ties in a stable order: two reads of the same data answer the same rows.
  order.push(...groups.map((g) => `${g} ASC NULLS FIRST`));
  const columns = outputs.flatMap((sqls, i) => sqls.map((s, j) => `${s} AS c${i}_${j}`));
  const sql = [
    `SELECT ${columns.join(', ')}`,
    'FROM insights_events',
    usesClaimKeys ? "LEFT JOIN LATERAL jsonb_object_keys(coalesce(claims, '{}'::jsonb)) AS claim_key(k) ON true" : '',
    `WHERE ${where.join(' AND ')}`,
    groups.length ? `GROUP BY ${groups.join(', ')}` : '',
    having.length ? `HAVING ${having.join(' AND ')}` : '',
    order.length ? `ORDER BY ${order.join(', ')}` : '',
    `LIMIT ${p.add(plan.limit)}::int`,
  ]
    .filter(Boolean)
    .join('\n');
  const rows = await db.query<Record<string, unknown>>(sql, p.values);
  return plan.outputs.map((ref, i) =>
    rows.map((row) => {
      if (ref.column === 'page') {
        const space = row[`c${i}_0`] as string | null;
        const page = row[`c${i}_1`] as string | null;
        return page === null ? null : { page, space: space ?? '' };
      }
      const v = row[`c${i}_0`];
      return typeof v === 'string' && COUNTS[ref.column] ? JSON.parse(v) : v;
    }),
  );
}

/** Events, visitors and sessions of a site since `from` whose visitor held each claim as true. */
export async function claimCounts(
  db: Queryable,
  siteId: string,
  claims: string[],
  from: Date,
): Promise<Map<string, { events: number; visitors: number; sessions: number }>> {
  const out = new Map<string, { events: number; visitors: number; sessions: number }>();
  if (!claims.length) return out;
  const rows = await db.query<{ claim: string; events: number; visitors: number; sessions: number }>(
    `SELECT c.claim, count(e.id)::int AS events, count(DISTINCT e.visitor)::int AS visitors, count(DISTINCT e.session)::int AS sessions
       FROM unnest($2::text[]) AS c(claim)
       LEFT JOIN insights_events e ON e.site_id = $1 AND e.at >= $3 AND e.claims ->> c.claim = 'true'
      GROUP BY c.claim`,
    [siteId, claims, from.toISOString()],
  );
  for (const r of rows) out.set(r.claim, { events: r.events, visitors: r.visitors, sessions: r.sessions });
  return out;
}
