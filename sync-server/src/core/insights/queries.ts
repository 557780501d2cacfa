import type {
  AggregateSiteEventsBody,
  AggregationResult,
  InsightsColumn,
  InsightsRangePreset,
  VisitorSegment,
} from '@quire/shared/schemas/insights';
import { badRequest } from '@quire/shared/domainErrors';
import { aggregateEvents, type AggregatePlan, claimCounts, type ColumnRef, COUNTED } from '../../store/insights';
import { type InsightsContext, siteFor } from './context';
import { declaredClaims } from './events';

const DAY = 24 * 60 * 60 * 1000;
const PRESETS: Record<InsightsRangePreset, number> = {
  last24Hours: DAY,
  last7Days: 7 * DAY,
  last30Days: 30 * DAY,
  last3Months: 90 * DAY,
  lastYear: 365 * DAY,
};

/** Columns filters cannot compare: counts of ratings are objects. */
const NOT_FILTERED = new Set(['pageFeedbackRating', 'askResponseRating']);
/** Columns whose values are objects or flags: only `in` and `notIn` apply. */
const EQUALITY_ONLY = new Set(['page', 'eventLinkTargetValue', 'visitorAuthenticated']);

const refOf = (c: InsightsColumn): ColumnRef => ({
  column: c.column,
  ...(c.column === 'datetime' && c.interval ? { interval: c.interval } : {}),
  ...(c.column === 'visitorClaim' ? { claim: c.claim } : {}),
});
const keyOf = (r: ColumnRef) => `${r.column}\t${r.interval ?? 'day'}\t${r.claim ?? ''}`;

function noGeoPoint(c: InsightsColumn, field: string) {
  if (c.column === 'visitorGeoPoint')
    throw badRequest(`Invalid body field "${field}.column": visitorGeoPoint is not recorded by this server (no address is kept).`);
}

/** The plan of an aggregation, or a 400 naming what cannot be asked. */
export function planAggregation(siteId: string, q: AggregateSiteEventsBody, now = new Date()): AggregatePlan {
  let from: Date;
  let to: Date;
  if (typeof q.range === 'string') {
    to = now;
    from = new Date(now.getTime() - PRESETS[q.range]);
  } else {
    from = new Date(q.range.from);
    to = new Date(q.range.to);
    if (!(from < to)) throw badRequest('Invalid body field "range.to": must be after range.from.');
  }
  const groupBy: ColumnRef[] = [];
  const grouped = new Set<string>();
  const group = (ref: ColumnRef) => {
    if (COUNTED.has(ref.column) || grouped.has(keyOf(ref))) return;
    grouped.add(keyOf(ref));
    groupBy.push(ref);
  };
  (q.groupBy ?? []).forEach((c, i) => {
    noGeoPoint(c, `groupBy.${i}`);
    if (COUNTED.has(c.column))
      throw badRequest(`Invalid body field "groupBy.${i}.column": ${c.column} is counted over each group, not grouped by.`);
    group(refOf(c));
  });
  (q.select ?? []).forEach((c, i) => noGeoPoint(c, `select.${i}`));
  const outputs = q.select?.length ? q.select.map(refOf) : [...groupBy, { column: 'eventsCount' as const }];
  // A column selected without being grouped by is grouped by too: each row is one of its values.
  for (const ref of outputs) group(ref);

  const filters = (q.where ?? []).map((f, i) => {
    if (f.column === 'visitorGeoPoint') noGeoPoint({ column: 'visitorGeoPoint' }, `where.${i}`);
    if (NOT_FILTERED.has(f.column)) throw badRequest(`Invalid body field "where.${i}.column": ${f.column} cannot be filtered on.`);
    const operator = f.operator ?? 'in';
    if (operator !== 'in' && operator !== 'notIn') {
      if (EQUALITY_ONLY.has(f.column))
        throw badRequest(`Invalid body field "where.${i}.operator": ${f.column} is compared with in or notIn only.`);
      if (f.values.length !== 1 || f.values[0] === null)
        throw badRequest(`Invalid body field "where.${i}.values": ${operator} compares with exactly one value.`);
    }
    return { ref: { column: f.column, ...(f.claim !== undefined ? { claim: f.claim } : {}) }, operator, values: f.values };
  });

  let order: AggregatePlan['order'];
  if (q.order) {
    noGeoPoint(q.order.by, 'order.by');
    const ref = refOf(q.order.by);
    if (!COUNTED.has(ref.column) && !grouped.has(keyOf(ref)))
      throw badRequest('Invalid body field "order.by": must be a count or one of the columns rows are grouped by.');
    order = { ref, direction: q.order.direction };
  }
  return { siteId, from, to, outputs, groupBy, filters, order, limit: q.limit ?? 1000 };
}

/** `POST …/insights/events/aggregate`: the query's columns, each with one value per row. */
export async function aggregate(
  ctx: InsightsContext,
  input: { organizationId?: string; siteId: string; query: AggregateSiteEventsBody; now?: Date },
): Promise<AggregationResult> {
  const site = await siteFor(ctx, input, 'read');
  const plan = planAggregation(site.id, input.query, input.now);
  const values = await aggregateEvents(ctx.deps.db, plan);
  return {
    columns: plan.outputs.map((ref, i) => ({
      column: ref.column,
      ...(ref.column === 'visitorClaim' ? { claim: ref.claim } : {}),
      values: values[i] ?? [],
    })),
  };
}

/** Days of events a visitor segment counts. */
export const SEGMENT_DAYS = 30;

/**
 * `GET …/insights/visitor-segments`: one segment per boolean claim the site's visitor
 * schema declares, counting the last 30 days of events whose visitor held it as true.
 * No schema, no segments.
 */
export async function visitorSegments(
  ctx: InsightsContext,
  input: { organizationId?: string; siteId: string; now?: Date },
): Promise<VisitorSegment[]> {
  const site = await siteFor(ctx, input, 'read');
  const declared = declaredClaims(site.adaptive_schema);
  if (!declared.length) return [];
  const since = new Date((input.now ?? new Date()).getTime() - SEGMENT_DAYS * DAY);
  const counts = await claimCounts(
    ctx.deps.db,
    site.id,
    declared.map((d) => d.path),
    since,
  );
  return declared.map(({ path, title }) => {
    const claims: Record<string, unknown> = {};
    let at = claims;
    const keys = path.split('.');
    keys.forEach((k, i) => {
      if (i === keys.length - 1) at[k] = true;
      else at = (at[k] = {}) as Record<string, unknown>;
    });
    const c = counts.get(path) ?? { events: 0, visitors: 0, sessions: 0 };
    return { title, claims, ...c };
  });
}

/** What the admin command line prints about a site. */
export interface InsightsReport {
  site: { id: string; title: string };
  days: number;
  topPages: { path: string; views: number; visitors: number }[];
  ratings: { path: string; good: number; ok: number; bad: number }[];
  comments: { path: string; rating: string; comment: string }[];
  emptySearches: { query: string; times: number }[];
  brokenUrls: { path: string; views: number }[];
}

/** A site's last `days` days at a glance: top pages, ratings, searches that found nothing, broken URLs. */
export async function insightsReport(
  ctx: InsightsContext,
  input: { siteId: string; days: number; limit?: number },
): Promise<InsightsReport> {
  const site = await siteFor(ctx, input, 'read');
  const now = new Date();
  const range = { from: new Date(now.getTime() - input.days * DAY).toISOString(), to: new Date(now.getTime() + 1000).toISOString() };
  const limit = input.limit ?? 10;
  const run = async (query: Omit<AggregateSiteEventsBody, 'range'>) =>
    (await aggregate(ctx, { siteId: site.id, query: { ...query, range } })).columns.map((c) => c.values);
  const people = { column: 'visitorBot' as const, values: [''] };
  const views = { column: 'eventType' as const, values: ['page_view'] };

  const [pagePaths, pageViews, pageVisitors] = await run({
    select: [{ column: 'urlPath' }, { column: 'eventsCount' }, { column: 'visitorsCount' }],
    where: [views, people, { column: 'page', operator: 'notIn', values: [null] }],
    order: { by: { column: 'eventsCount' }, direction: 'desc' },
    limit,
  });
  const [ratedPaths, ratings] = await run({
    select: [{ column: 'urlPath' }, { column: 'pageFeedbackRating' }],
    where: [{ column: 'eventType', values: ['page_post_feedback'] }],
    order: { by: { column: 'eventsCount' }, direction: 'desc' },
    limit,
  });
  // The hour is selected to order the newest first; it is not printed.
  const [commentPaths, commentRatings, comments] = await run({
    select: [
      { column: 'urlPath' },
      { column: 'eventPageFeedbackRating' },
      { column: 'eventPageFeedbackComment' },
      { column: 'datetime', interval: 'hour' },
    ],
    where: [{ column: 'eventType', values: ['page_post_feedback_comment'] }],
    order: { by: { column: 'datetime', interval: 'hour' }, direction: 'desc' },
    limit,
  });
  const [queries, queryTimes] = await run({
    select: [{ column: 'eventSearchQuery' }, { column: 'eventsCount' }],
    where: [
      { column: 'eventType', values: ['search_type_query'] },
      { column: 'eventSearchResultsCount', values: [0] },
    ],
    order: { by: { column: 'eventsCount' }, direction: 'desc' },
    limit,
  });
  const [brokenPaths, brokenViews] = await run({
    select: [{ column: 'urlPath' }, { column: 'eventsCount' }],
    where: [views, { column: 'page', values: [null] }, { column: 'displayContext', values: ['site'] }],
    order: { by: { column: 'eventsCount' }, direction: 'desc' },
    limit,
  });
  const n = (v: unknown) => Number(v ?? 0);
  return {
    site: { id: site.id, title: site.title },
    days: input.days,
    topPages: (pagePaths ?? []).map((p, i) => ({ path: String(p), views: n(pageViews?.[i]), visitors: n(pageVisitors?.[i]) })),
    ratings: (ratedPaths ?? []).map((p, i) => {
      const r = (ratings?.[i] ?? {}) as { good?: number; ok?: number; bad?: number };
      return { path: String(p), good: n(r.good), ok: n(r.ok), bad: n(r.bad) };
    }),
    comments: (commentPaths ?? []).map((p, i) => ({
      path: String(p),
      rating: String(commentRatings?.[i]),
      comment: String(comments?.[i]),
    })),
    emptySearches: (queries ?? []).map((q, i) => ({ query: String(q), times: n(queryTimes?.[i]) })),
    brokenUrls: (brokenPaths ?? []).map((p, i) => ({ path: String(p), views: n(brokenViews?.[i]) })),
  };
}
