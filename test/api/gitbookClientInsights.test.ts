import {
  type GitBookAPI,
  PageFeedbackRating,
  type SiteInsightsEvent,
  SiteInsightsEventType,
  SiteInsightsLinkPosition,
  SiteInsightsQueryOperator,
  SiteInsightsQueryRangePreset,
} from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveServer } from '../../sync-server/src/testing/syncClients';
import { clientFor, refusal, templatedSpace } from './clientHarness';

/**
 * The three site insights operations called through the public client of this API family
 * (`@gitbook/api`), unchanged: events in, an aggregation out, visitor segments; and the
 * page views a published site counted on its own, read back through the same client.
 */

let s: LiveServer;
let api: GitBookAPI;
let reader: GitBookAPI;
let outsider: GitBookAPI;
let orgId: string;

beforeAll(async () => {
  s = await LiveServer.start();
  const fixture = await s.t.org(['read']);
  orgId = fixture.orgId;
  api = clientFor(s, fixture.admin.token);
  reader = clientFor(s, fixture.members[0]!.token);
  outsider = clientFor(s, (await s.t.org()).admin.token);
});
afterAll(async () => s?.close());

function event(type: string, path: string, extra: Record<string, unknown> = {}, ip = '198.51.100.20'): SiteInsightsEvent {
  return {
    type,
    session: {
      visitorId: 'visitor',
      sessionId: 'session',
      cookies: {},
      ip,
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      language: 'fr-FR',
      referrer: null,
    },
    location: {
      url: `https://docs.example.com${path}`,
      siteSection: null,
      siteSpace: null,
      siteShareKey: null,
      space: null,
      revision: null,
      page: path === '/gone' ? null : 'page-of-' + path.slice(1),
    },
    ...extra,
  } as SiteInsightsEvent;
}

describe('site insights through the @gitbook/api client', () => {
  it('tracks events, aggregates them and lists visitor segments', async () => {
    const space = await templatedSpace(api, orgId, 'Insights guide');
    const { data: site } = await api.orgs.createSite(orgId, { title: 'Insights Docs', spaces: [space.id] });

    const tracked = await api.orgs.trackEventsInSiteById(orgId, site.id, {
      events: [
        event('page_view', '/quickstart'),
        event('page_view', '/quickstart', {}, '198.51.100.21'),
        event('page_view', '/faq'),
        event('page_view', '/gone'),
        event('page_post_feedback', '/faq', { feedback: { rating: PageFeedbackRating.Good } }),
        event('page_post_feedback', '/quickstart', { feedback: { rating: PageFeedbackRating.Bad } }),
        event('link_click', '/faq', {
          link: { target: { kind: 'url', url: 'https://status.example.com' }, position: SiteInsightsLinkPosition.Footer },
        }),
      ],
    });
    expect(tracked.status).toBe(204);

    const { data: top } = await api.orgs.aggregateSiteEvents(orgId, site.id, {
      select: [{ column: 'urlPath' }, { column: 'eventsCount' }, { column: 'visitorsCount' }],
      where: [{ column: 'eventType', values: [SiteInsightsEventType.PageView] }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
      range: SiteInsightsQueryRangePreset.Last7Days,
      limit: 10,
    });
    expect(top.columns).toEqual([
      { column: 'urlPath', values: ['/quickstart', '/faq', '/gone'] },
      { column: 'eventsCount', values: [2, 1, 1] },
      { column: 'visitorsCount', values: [2, 1, 1] },
    ]);

    const { data: broken } = await api.orgs.aggregateSiteEvents(orgId, site.id, {
      groupBy: [{ column: 'urlPath' }],
      where: [
        { column: 'eventType', values: [SiteInsightsEventType.PageView] },
        { column: 'page', values: [null] },
      ],
      range: SiteInsightsQueryRangePreset.Last24Hours,
    });
    expect(broken.columns).toEqual([
      { column: 'urlPath', values: ['/gone'] },
      { column: 'eventsCount', values: [1] },
    ]);

    const { data: ratings } = await api.orgs.aggregateSiteEvents(orgId, site.id, {
      select: [{ column: 'pageFeedbackRating' }, { column: 'visitorDevice' }, { column: 'visitorOS' }, { column: 'visitorBrowser' }],
      where: [{ column: 'eventType', operator: SiteInsightsQueryOperator.In, values: [SiteInsightsEventType.PagePostFeedback] }],
      range: { from: new Date(Date.now() - 3600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(ratings.columns).toEqual([
      { column: 'pageFeedbackRating', values: [{ ok: 0, good: 1, bad: 1 }] },
      { column: 'visitorDevice', values: ['mobile'] },
      { column: 'visitorOS', values: ['ios'] },
      { column: 'visitorBrowser', values: ['safari'] },
    ]);

    const { data: segments } = await api.orgs.listSiteVisitorSegments(orgId, site.id);
    expect(segments).toEqual({ items: [], count: 0 });
  });

  it('reads back what a published site counted on its own, for editors only', async () => {
    const space = await templatedSpace(api, orgId, 'Counted guide');
    const { data: site } = await api.orgs.createSite(orgId, { title: 'Counted Docs', spaces: [space.id] });
    const { data: published } = await api.orgs.publishSite(orgId, site.id);
    const url = new URL((published as { urls: { published: string } }).urls.published);
    const local = `http://127.0.0.1:${s.running.port}${url.pathname}`;
    for (const path of ['', '', 'no-such-page']) expect([200, 404]).toContain((await fetch(`${local}${path}`)).status);
    await s.t.flushInsights();

    const { data } = await api.orgs.aggregateSiteEvents(orgId, site.id, {
      select: [{ column: 'eventsCount' }],
      where: [
        { column: 'eventType', values: [SiteInsightsEventType.PageView] },
        { column: 'page', operator: SiteInsightsQueryOperator.NotIn, values: [null] },
      ],
      range: SiteInsightsQueryRangePreset.Last24Hours,
    });
    expect(data.columns).toEqual([{ column: 'eventsCount', values: [2] }]);

    expect(await refusal(reader.orgs.aggregateSiteEvents(orgId, site.id, { range: SiteInsightsQueryRangePreset.Last7Days }))).toEqual({
      code: 403,
      message: 'Site insights need the edit role in the organization.',
    });
    expect((await refusal(outsider.orgs.listSiteVisitorSegments(orgId, site.id))).code).toBe(404);
    expect((await refusal(outsider.orgs.trackEventsInSiteById(orgId, site.id, { events: [event('page_view', '/x')] }))).code).toBe(404);
  });
});
