import type { InsightsView } from '../../common/insights';
import { RemoteError, UnreachableError } from '../ServerClient';
import { type ExistingPage, nearestPage } from '../insights/nearestPage';
import { readInsights, type SiteAt } from '../insights/queries';
import { LocalError, type NodeContext } from './context';

interface RemoteSite {
  id: string;
  title: string;
  urls: { published: string };
}
interface RemoteSiteSpace {
  id: string;
  space?: { id: string };
}

const EMPTY = {
  sites: [],
  site: null,
  totals: { views: 0, visitors: 0, agentRequests: 0 },
  daily: [],
  topPages: [],
  ratings: [],
  emptySearches: [],
  brokenUrls: [],
  referrers: [],
  readers: [],
};

/**
 * A space's Insights view: which site publishes it, and what that site's readers read,
 * rate, search for without finding, miss (broken URLs, each with the nearest page to send
 * them to) and come from. Everything is asked of the server's aggregate operation when the
 * view opens; nothing is kept here, as the numbers are the server's and change by the minute.
 */
export class Insights {
  constructor(private readonly ctx: NodeContext) {}

  async get(input: { spaceId: string; siteId?: string; days: number }): Promise<InsightsView> {
    const space = await this.ctx.catalog.spaceOrThrow(input.spaceId);
    const none = (state: InsightsView['state'], notice: string): InsightsView => ({ state, notice, days: input.days, ...EMPTY });
    const client = this.ctx.session.server;
    if (this.ctx.session.mode !== 'server' || space.syncState !== 'remote' || !space.orgId || !space.remoteId)
      return none(
        'local',
        'Insights come from the site that publishes this space: publish the space to a server, then publish a site with it.',
      );
    if (!client || this.ctx.session.reachable === false)
      return none('offline', 'The server cannot be reached: insights are read from it. Connect to see them.');
    const orgId = space.orgId;
    try {
      const sites = await this.sitesOf(orgId, space.remoteId);
      if (!sites.length)
        return none('unpublished', 'No site publishes this space yet. Publish a site with it: its readers will show here.');
      const site = sites.find((s) => s.id === input.siteId) ?? (sites[0] as SiteAt);
      const read = await readInsights(client, site, input.days);
      const redirected = new Set((await client.listAll<{ source: string }>(`${siteApi(site)}/redirects`)).map((r) => r.source));
      const pages: ExistingPage[] = read.existingPages;
      const view: InsightsView = {
        state: 'ready',
        notice: null,
        days: input.days,
        sites,
        site,
        totals: read.totals,
        daily: read.daily,
        topPages: read.topPages,
        ratings: read.ratings,
        emptySearches: read.emptySearches,
        brokenUrls: read.brokenUrls.map((b) => ({
          ...b,
          suggestion: nearestPage(b.path, pages),
          redirected: redirected.has(redirectSource(b.path)),
        })),
        referrers: read.referrers,
        readers: read.readers,
      };
      if (read.totals.views === 0 && read.totals.agentRequests === 0)
        view.notice = `No reader has visited ${site.title} in the last ${input.days} days. Share its address (${site.url}): page views are counted as readers arrive, without cookies.`;
      return view;
    } catch (err) {
      if (err instanceof UnreachableError) return none('offline', err.message);
      if (err instanceof RemoteError && err.status === 403)
        throw new LocalError("Only the organization's editors and admins can see a site's insights.");
      throw err;
    }
  }

  /** Creates the redirect from a broken URL to the page suggested for it, on the server at once. */
  async createRedirect(input: {
    organizationId: string;
    siteId: string;
    source: string;
    to: { siteSpaceId: string; pageId: string };
  }): Promise<{ id: string; source: string }> {
    const client = this.ctx.session.server;
    if (!client) throw new LocalError('Connect to the server to create a redirect.');
    const created = await client.request<{ id: string; source: string }>(
      'POST',
      `${siteApi({ id: input.siteId, organizationId: input.organizationId })}/redirects`,
      {
        body: {
          source: redirectSource(input.source),
          destination: { kind: 'site-page', siteSpaceId: input.to.siteSpaceId, pageId: input.to.pageId },
        },
      },
    );
    return { id: created.id, source: created.source };
  }

  /** The organization's sites that publish the space. */
  private async sitesOf(orgId: string, spaceId: string): Promise<SiteAt[]> {
    const client = this.ctx.session.server;
    if (!client) return [];
    const sites = await client.listAll<RemoteSite>(`/v1/orgs/${orgId}/sites`);
    const out: SiteAt[] = [];
    for (const s of sites) {
      const at: SiteAt = { id: s.id, organizationId: orgId, title: s.title, url: s.urls.published };
      const siteSpaces = await client.listAll<RemoteSiteSpace>(`${siteApi(at)}/site-spaces`);
      if (siteSpaces.some((ss) => ss.space?.id === spaceId)) out.push(at);
    }
    return out;
  }
}

const siteApi = (site: { id: string; organizationId: string }) => `/v1/orgs/${site.organizationId}/sites/${site.id}`;

/** A redirect's source names a path without a trailing slash. */
const redirectSource = (path: string) => path.replace(/\/+$/, '') || '/';
