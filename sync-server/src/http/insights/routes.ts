import { ListQuerySchema, listOf } from '@quire/shared';
import {
  AggregateSiteEventsBody,
  AggregationResultSchema,
  TrackSiteEventsBody,
  VisitorSegmentSchema,
} from '@quire/shared/schemas/insights';
import { apiRoute, body, json, noContent } from '../openapi';
import { SiteParams } from '../sites/params';

const tags = ['Site insights'];
const INSIGHTS = '/v1/orgs/{organizationId}/sites/{siteId}/insights';

export const trackEvents = apiRoute({
  method: 'post',
  path: `${INSIGHTS}/events`,
  tags,
  summary: 'Record events of a site',
  description:
    'Stores what readers did on a site, as a batch: every event is checked first and one bad event keeps the whole batch out. ' +
    'A `timestamp` more than 5 minutes ahead of the server is refused. The visitor is kept only as a hash of the site, the ' +
    "address (`session.ip`, else the caller's), the user agent and a salt of the day; identifiers, cookies and tokens are not stored.",
  request: { params: SiteParams, body: body(TrackSiteEventsBody) },
  responses: noContent,
});

export const aggregateEvents = apiRoute({
  method: 'post',
  path: `${INSIGHTS}/events/aggregate`,
  tags,
  summary: "Query a site's events",
  description:
    "Groups, filters and counts a site's events over a time range. A 404 is a `page_view` whose `page` is null. " +
    'The answer is columnar: each column holds one value per row, rows in the same order in every column.',
  request: { params: SiteParams, body: body(AggregateSiteEventsBody) },
  responses: { 200: json(AggregationResultSchema) },
});

export const listVisitorSegments = apiRoute({
  method: 'get',
  path: `${INSIGHTS}/visitor-segments`,
  tags,
  summary: "List a site's visitor segments",
  description:
    "One segment per boolean claim of the site's visitor schema, with the last 30 days of events, visitors and sessions of visitors holding it; none without a schema.",
  request: { params: SiteParams, query: ListQuerySchema },
  responses: { 200: json(listOf(VisitorSegmentSchema)) },
});
