import type { InsightsColumnName, InsightsOperator } from '@quire/shared/schemas/insights';
import type { Queryable } from './db';
import { estimateVisitors } from './insightsSketch';
import { holdsWholeHour, rollupsAnswer, rollupSource, type RollupQuestion } from './insightsRollups';

/**
 * Aggregations of insights events, built from the whitelist below: what a caller sends only
 * ever reaches SQL as a parameter. Counts of events are read from the roll-ups when those
 * hold every column asked about (visitors are estimated from their sketches); anything else
 * reads the events.
 */

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

/** How each count is computed: over events, or, from roll-ups, as a sum of the events each row stands for. */
type Counts = Partial<Record<InsightsColumnName, string>>;
const ROLLED_COUNTS: Counts = { eventsCount: 'coalesce(sum(n), 0)::int', visitorsCount: "string_agg(visitors, ''::bytea)" };

function valueSql(ref: ColumnRef, p: Params, counts: Counts): string[] {
  const counted = counts[ref.column];
  return counted ? [counted] : dimensionSql(ref, p);
}

/** One filter as a condition; counted columns go to HAVING, the rest to WHERE. */
function filterSql(f: AggregatePlan['filters'][number], p: Params, counts: Counts): string {
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
  } else if (counts[ref.column]) {
    expr = counts[ref.column] as string;
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

/** What of a plan a roll-up would have to hold. */
function rollupQuestion(plan: AggregatePlan): RollupQuestion {
  const refs = [...plan.outputs, ...plan.groupBy, ...(plan.order ? [plan.order.ref] : []), ...plan.filters.map((f) => f.ref)];
  return {
    columns: refs.map((r) => ({ column: r.column, ...(r.column === 'datetime' ? { interval: r.interval ?? 'day' } : {}) })),
    filtered: plan.filters.map((f) => f.ref.column),
    ...(plan.order ? { ordered: plan.order.ref.column } : {}),
  };
}

/** Where an aggregation's answer comes from: the roll-ups (with the events of partial hours) or the events alone. */
export function aggregationSource(plan: AggregatePlan): 'rollups' | 'events' {
  return rollupsAnswer(rollupQuestion(plan)) && holdsWholeHour(plan) ? 'rollups' : 'events';
}

/**
 * Below this many events in the range, visitors are counted exactly from the events (a read
 * of at most this many index entries); from it on, estimated from the roll-ups' sketches. A
 * sketch of 4,096 registers can take two of a handful of readers for one, and a small site's
 * readers are counted exactly.
 */
export const EXACT_VISITORS_BELOW = 50_000;

async function fewEvents(db: Queryable, plan: AggregatePlan): Promise<boolean> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM insights_events WHERE site_id = $1 AND at >= $2 AND at < $3 LIMIT $4) AS few`,
    [plan.siteId, plan.from.toISOString(), plan.to.toISOString(), EXACT_VISITORS_BELOW],
  );
  return (rows[0]?.n ?? 0) < EXACT_VISITORS_BELOW;
}

/**
 * Runs an aggregation; the answer is columnar, rows in the same order in every column.
 * `events: true` reads the events even where the roll-ups could answer (the answer is the
 * same, visitors counted exactly); `sketches: true` estimates visitors from the roll-ups
 * however few the events.
 */
export async function aggregateEvents(
  db: Queryable,
  plan: AggregatePlan,
  opts: { events?: boolean; sketches?: boolean } = {},
): Promise<unknown[][]> {
  const p = new Params();
  const q = rollupQuestion(plan);
  const exactVisitors =
    !opts.sketches && plan.outputs.some((r) => r.column === 'visitorsCount') && rollupsAnswer(q) && (await fewEvents(db, plan));
  const rolled = !opts.events && !exactVisitors && rollupsAnswer(q) ? rollupSource(q, plan, (v) => p.add(v)) : null;
  const counts = rolled ? ROLLED_COUNTS : COUNTS;
  const outputs = plan.outputs.map((ref) => valueSql(ref, p, counts));
  const groups = plan.groupBy.flatMap((ref) => dimensionSql(ref, p));
  const where = rolled
    ? []
    : [
        `site_id = ${p.add(plan.siteId)}::text`,
        `at >= ${p.add(plan.from.toISOString())}::timestamptz`,
        `at < ${p.add(plan.to.toISOString())}::timestamptz`,
      ];
  const having: string[] = [];
  for (const f of plan.filters) (counts[f.ref.column] ? having : where).push(filterSql(f, p, counts));
  const usesClaimKeys = [...plan.outputs, ...plan.groupBy, ...plan.filters.map((f) => f.ref)].some(
    (r) => r.column === 'visitorClaimProperty',
  );
  const order: string[] = [];
  if (plan.order)
    order.push(...valueSql(plan.order.ref, p, counts).map((s) => `${s} ${plan.order?.direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`));
  // Ties in a stable order: two reads of the same data answer the same rows.
  order.push(...groups.map((g) => `${g} ASC NULLS FIRST`));
  const columns = outputs.flatMap((sqls, i) => sqls.map((s, j) => `${s} AS c${i}_${j}`));
  const sql = [
    `SELECT ${columns.join(', ')}`,
    `FROM ${rolled ?? 'insights_events'}`,
    usesClaimKeys ? "LEFT JOIN LATERAL jsonb_object_keys(coalesce(claims, '{}'::jsonb)) AS claim_key(k) ON true" : '',
    where.length ? `WHERE ${where.join(' AND ')}` : '',
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
      // Sketches of the group's visitors, laid end to end.
      if (rolled && ref.column === 'visitorsCount') return estimateVisitors(v as Uint8Array | null);
      return typeof v === 'string' && counts[ref.column] ? JSON.parse(v) : v;
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
