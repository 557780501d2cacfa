import type { InsightsView } from '../../common/insights';
import type { ServerClient } from '../ServerClient';
import type { ExistingPage } from './nearestPage';

/** A site as the Insights view names it; `url` is where it is published. */
export interface SiteAt {
  id: string;
  organizationId: string;
  title: string;
  url: string;
}

const DAY = 24 * 60 * 60 * 1000;
const PEOPLE = { column: 'visitorBot', values: [''] };
const PAGE_VIEWS = { column: 'eventType', values: ['page_view'] };
const AGENT_TYPES = { llms_request: 'llms', page_markdown_request: 'markdown', mcp_request: 'mcp' } as const;

type Query = Record<string, unknown>;
type Readers = InsightsView['readers'];

/** What the server's aggregate operation tells of a site over the last `days` days. */
export interface SiteReading extends Pick<
  InsightsView,
  'totals' | 'daily' | 'topPages' | 'ratings' | 'emptySearches' | 'referrers' | 'readers'
> {
  brokenUrls: { path: string; hits: number }[];
  /** Pages readers reached over the last year: where a broken URL may be sent. */
  existingPages: ExistingPage[];
}

/**
 * Reads a site's insights with a handful of aggregations, run side by side. Paths come
 * back relative to the site's root (a site served under this server's `/s/…` has that
 * prefix in every URL its readers used), as the site's redirects name them.
 */
export async function readInsights(client: ServerClient, site: SiteAt, days: number, now = new Date()): Promise<SiteReading> {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * DAY);
  const range = { from: start.toISOString(), to: new Date(now.getTime() + 60_000).toISOString() };
  const path = `/v1/orgs/${site.organizationId}/sites/${site.id}/insights/events/aggregate`;
  const run = async (query: Query, over: Query | string = range) => {
    const res = await client.request<{ columns: { values: unknown[] }[] }>('POST', path, { body: { range: over, ...query } });
    return res.columns.map((c) => c.values);
  };
  const base = new URL(site.url).pathname.replace(/\/+$/, '');
  const rel = (p: unknown) => {
    const s = String(p);
    return base && (s === base || s.startsWith(`${base}/`)) ? s.slice(base.length) || '/' : s;
  };
  const n = (v: unknown) => Number(v ?? 0);
  const col = (c: unknown[] | undefined, i: number) => c?.[i];

  const [daily, top, rated, commented, searches, broken, existing, referrers, readers] = await Promise.all([
    run({
      select: [{ column: 'datetime', interval: 'day' }, { column: 'eventsCount' }, { column: 'visitorsCount' }],
      where: [PAGE_VIEWS, PEOPLE],
      order: { by: { column: 'datetime', interval: 'day' }, direction: 'asc' },
    }),
    run({
      select: [{ column: 'urlPath' }, { column: 'eventsCount' }, { column: 'visitorsCount' }],
      where: [PAGE_VIEWS, PEOPLE, { column: 'page', operator: 'notIn', values: [null] }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      limit: 10,
    }),
    run({
      select: [{ column: 'urlPath' }, { column: 'pageFeedbackRating' }],
      where: [{ column: 'eventType', values: ['page_post_feedback'] }],
      limit: 500,
    }),
    run({
      select: [
        { column: 'urlPath' },
        { column: 'eventPageFeedbackRating' },
        { column: 'eventPageFeedbackComment' },
        { column: 'datetime', interval: 'hour' },
      ],
      where: [{ column: 'eventType', values: ['page_post_feedback_comment'] }],
      order: { by: { column: 'datetime', interval: 'hour' }, direction: 'desc' },
      limit: 500,
    }),
    run({
      select: [{ column: 'eventSearchQuery' }, { column: 'eventsCount' }],
      where: [
        { column: 'eventType', values: ['search_type_query'] },
        { column: 'eventSearchResultsCount', values: [0] },
      ],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      limit: 20,
    }),
    run({
      select: [{ column: 'urlPath' }, { column: 'eventsCount' }],
      where: [PAGE_VIEWS, { column: 'page', values: [null] }, { column: 'displayContext', values: ['site'] }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      limit: 20,
    }),
    run(
      {
        select: [{ column: 'urlPath' }, { column: 'siteSpace' }, { column: 'page' }],
        where: [PAGE_VIEWS, { column: 'page', operator: 'notIn', values: [null] }],
        limit: 1000,
      },
      'lastYear',
    ),
    run({
      select: [{ column: 'referrerDomain' }, { column: 'eventsCount' }],
      where: [PAGE_VIEWS, PEOPLE],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      limit: 11,
    }),
    run({
      select: [{ column: 'eventType' }, { column: 'visitorBot' }, { column: 'eventsCount' }],
      where: [{ column: 'eventType', values: ['page_view', ...Object.keys(AGENT_TYPES)] }],
    }),
  ]);

  const days_: InsightsView['daily'] = [];
  const byDay = new Map((daily[0] ?? []).map((d, i) => [String(d).slice(0, 10), i]));
  for (let t = start.getTime(); t <= now.getTime(); t += DAY) {
    const day = new Date(t).toISOString().slice(0, 10);
    const i = byDay.get(day);
    days_.push({ day, views: i === undefined ? 0 : n(col(daily[1], i)), visitors: i === undefined ? 0 : n(col(daily[2], i)) });
  }

  const comments = new Map<string, { rating: string; comment: string }[]>();
  (commented[0] ?? []).forEach((p, i) => {
    const list = comments.get(rel(p)) ?? [];
    list.push({ rating: String(col(commented[1], i)), comment: String(col(commented[2], i)) });
    comments.set(rel(p), list);
  });
  const ratings = new Map<string, InsightsView['ratings'][number]>();
  (rated[0] ?? []).forEach((p, i) => {
    const r = (col(rated[1], i) ?? {}) as { good?: number; ok?: number; bad?: number };
    const at = ratings.get(rel(p)) ?? { path: rel(p), good: 0, ok: 0, bad: 0, comments: [] };
    ratings.set(rel(p), { ...at, good: at.good + n(r.good), ok: at.ok + n(r.ok), bad: at.bad + n(r.bad) });
  });
  for (const [p, list] of comments) ratings.set(p, { ...(ratings.get(p) ?? { path: p, good: 0, ok: 0, bad: 0 }), comments: list });

  const tally: Record<Readers[number]['kind'], number> = { people: 0, llms: 0, markdown: 0, mcp: 0, crawlers: 0 };
  (readers[0] ?? []).forEach((type, i) => {
    const count = n(col(readers[2], i));
    if (type === 'page_view') tally[col(readers[1], i) ? 'crawlers' : 'people'] += count;
    else tally[AGENT_TYPES[type as keyof typeof AGENT_TYPES]] += count;
  });
  const readerList = (Object.keys(tally) as Readers[number]['kind'][]).map((kind) => ({ kind, requests: tally[kind] }));

  return {
    totals: {
      views: days_.reduce((s, d) => s + d.views, 0),
      // Readers on two days are one visitor: the range's own count, not the days' sum.
      visitors: await run({ select: [{ column: 'visitorsCount' }], where: [PAGE_VIEWS, PEOPLE] }).then((c) => n(col(c[0], 0))),
      agentRequests: tally.llms + tally.markdown + tally.mcp + tally.crawlers,
    },
    daily: days_,
    topPages: (top[0] ?? []).map((p, i) => ({ path: rel(p), views: n(col(top[1], i)), visitors: n(col(top[2], i)) })),
    ratings: [...ratings.values()].sort((a, b) => score(a) - score(b) || b.bad - a.bad || b.comments.length - a.comments.length),
    emptySearches: (searches[0] ?? []).map((q, i) => ({ query: String(q), times: n(col(searches[1], i)) })),
    brokenUrls: (broken[0] ?? []).map((p, i) => ({ path: rel(p), hits: n(col(broken[1], i)) })),
    existingPages: (existing[0] ?? []).flatMap((p, i) => {
      const page = col(existing[2], i) as { page: string | null } | null;
      const siteSpaceId = col(existing[1], i);
      return page?.page && typeof siteSpaceId === 'string' ? [{ path: rel(p), siteSpaceId, pageId: page.page }] : [];
    }),
    referrers: (referrers[0] ?? [])
      .map((d, i) => ({ domain: d ? String(d) : '', views: n(col(referrers[1], i)) }))
      .filter((r) => r.domain)
      .slice(0, 10),
    readers: readerList,
  };
}

/** From -1 (every rating bad) to 1 (every rating good); a page rated by nobody is neutral. */
function score(r: { good: number; ok: number; bad: number }): number {
  const total = r.good + r.ok + r.bad;
  return total ? (r.good - r.bad) / total : 0;
}
