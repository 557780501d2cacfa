/**
 * What a space's Insights view shows: its site's readers over a few days, read by the
 * LocalNode from the server's aggregate operation and shaped here for the window.
 */
import { z } from 'zod';

export const INSIGHTS_DAYS = [7, 30, 90] as const;

const Count = z.number().int().nonnegative();
const SiteRef = z.object({ id: z.string(), organizationId: z.string(), title: z.string(), url: z.string() });

/** Where a broken URL could send its readers: an existing page of the site, found by its path. */
export const RedirectSuggestion = z.object({ path: z.string(), siteSpaceId: z.string(), pageId: z.string() });
export type RedirectSuggestion = z.infer<typeof RedirectSuggestion>;

export const InsightsView = z.object({
  /**
   * ready: numbers below; local: the space has no server; offline: the server cannot be
   * reached; unpublished: no site publishes the space.
   */
  state: z.enum(['ready', 'local', 'offline', 'unpublished']),
  /** What to do when there is nothing to show (an empty state's text), or null. */
  notice: z.string().nullable(),
  /** Every site that publishes the space, and the one shown. */
  sites: z.array(SiteRef),
  site: SiteRef.nullable(),
  days: z.number().int(),
  totals: z.object({ views: Count, visitors: Count, agentRequests: Count }),
  /** One row per day of the range, oldest first (days without readers count zero). */
  daily: z.array(z.object({ day: z.string(), views: Count, visitors: Count })),
  /** Paths are relative to the site's root, as readers and redirects see them. */
  topPages: z.array(z.object({ path: z.string(), views: Count, visitors: Count })),
  /** Worst rated first, each with the comments readers left. */
  ratings: z.array(
    z.object({
      path: z.string(),
      good: Count,
      ok: Count,
      bad: Count,
      comments: z.array(z.object({ rating: z.string(), comment: z.string() })),
    }),
  ),
  emptySearches: z.array(z.object({ query: z.string(), times: Count })),
  /** Most hit first; `redirected` once the site has a redirect from that path. */
  brokenUrls: z.array(z.object({ path: z.string(), hits: Count, suggestion: RedirectSuggestion.nullable(), redirected: z.boolean() })),
  referrers: z.array(z.object({ domain: z.string(), views: Count })),
  /** Who reads: people's page views, then agents and crawlers by how they came. */
  readers: z.array(z.object({ kind: z.enum(['people', 'llms', 'markdown', 'mcp', 'crawlers']), requests: Count })),
});
export type InsightsView = z.infer<typeof InsightsView>;
