import { z } from 'zod';
import { IdSchema, text } from './common';

/**
 * Site insights as the public client of this API family sends and reads them: the events
 * a site records (`SiteInsightsEvent`), the aggregation query over them
 * (`SiteInsightsQueryEventsAggregation`) and its columnar answer, and visitor segments.
 */

export const INSIGHTS_EVENT_TYPES = [
  'page_view',
  'page_markdown_request',
  'search_open',
  'search_type_query',
  'search_open_result',
  'page_post_feedback',
  'page_post_feedback_comment',
  'agent_feedback',
  'ask_question',
  'ask_view',
  'ask_rate_response',
  'link_click',
  'api_client_open',
  'api_client_request',
  'ad_click',
  'ad_display',
  'trademark_click',
  'llms_request',
  'mcp_request',
  'rss_request',
] as const;
export type InsightsEventType = (typeof INSIGHTS_EVENT_TYPES)[number];

export const DISPLAY_CONTEXTS = ['site', 'server', 'embed', 'mcp'] as const;
export const PAGE_FEEDBACK_RATINGS = ['bad', 'ok', 'good'] as const;
export type PageFeedbackRating = (typeof PAGE_FEEDBACK_RATINGS)[number];
export const LINK_POSITIONS = ['announcement', 'header', 'footer', 'sidebar', 'content'] as const;
export const LLMS_VARIANTS = ['standard', 'full'] as const;
export const MARKDOWN_SOURCES = ['page-action'] as const;
export const NOT_FOUND_TYPES = ['conditional'] as const;
export const TRADEMARK_PLACEMENTS = ['sidebar', 'ad', 'footer', 'pdf', 'embed'] as const;
export const AD_PLACEMENTS = ['aside'] as const;
export const VISITOR_BROWSERS = ['chrome', 'firefox', 'safari', 'edge', 'ie', 'opera', 'unknown'] as const;
export const VISITOR_OSES = ['windows', 'macos', 'linux', 'android', 'ios', 'unknown'] as const;
export const VISITOR_DEVICES = ['desktop', 'tablet', 'mobile', 'unknown'] as const;
export const VISITOR_BOTS = [
  'unknown',
  'googlebot',
  'bingbot',
  'duckduckbot',
  'facebookbot',
  'applebot',
  'chatgpt',
  'openai',
  'claude',
  'anthropic',
  'gemini',
  'perplexity',
  'cohere',
  'mistral',
  'deepseek',
  'meta',
  'bytespider',
  'ccbot',
  'amazonbot',
  'youbot',
  'cursor',
  'vscode',
  'claude-code',
  'codex',
  'opencode',
  'gptbot',
  'claudebot',
  'meta-fetcher',
  'grok',
  'github-copilot',
  'meta-webindexer',
  'meta-ads',
  'duckassist',
  'amzn-searchbot',
  'amzn-user',
] as const;
export type VisitorBot = (typeof VISITOR_BOTS)[number];
export const LINK_TARGET_KINDS = ['url', 'page', 'file', 'anchor', 'space', 'collection', 'user', 'reusable-content'] as const;

/** An ISO 8601 time with its offset (`2026-01-31T12:00:00Z`). */
const IsoTime = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time' });
const Url = text(2048, 1);
const OptionalId = IdSchema.nullable();

/** Who sent the event: what the visitor's browser would tell. Only derived, coarse facts are kept (see the privacy notes). */
const SessionSchema = z.strictObject({
  visitorId: text(256),
  sessionId: text(256),
  /** Accepted for the public client's sake and never stored. */
  cookies: z.record(z.string().max(256), z.string().max(4096)),
  ip: z.union([z.ipv4(), z.ipv6()]).optional(),
  userAgent: text(1024),
  language: text(64).nullable(),
  referrer: text(2048).nullable(),
  visitorAuthToken: text(8192).nullable().optional(),
  visitorAuthClaims: z.record(z.string(), z.unknown()).optional(),
});

const LocationSchema = z.strictObject({
  url: Url,
  displayContext: z.enum(DISPLAY_CONTEXTS).optional(),
  siteSection: OptionalId,
  siteSpace: OptionalId,
  siteShareKey: text(256).nullable(),
  space: OptionalId,
  revision: OptionalId,
  page: OptionalId,
});

const base = {
  session: SessionSchema,
  location: LocationSchema,
  timestamp: IsoTime.optional(),
};

const Query = text(512);
const Operation = z.strictObject({ path: text(2048, 1), method: text(16, 1) });
const Ad = z.strictObject({ domain: text(256), zoneId: text(256), placement: z.enum(AD_PLACEMENTS) });
const RefId = text(256, 1);
/** A content reference a link pointed at, in the public client's shapes. */
const ContentRef = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('url'), url: text(2048, 1) }),
  z.strictObject({ kind: z.literal('file'), file: RefId, space: RefId.optional() }),
  z.strictObject({ kind: z.literal('page'), page: RefId, space: RefId.optional() }),
  z.strictObject({ kind: z.literal('anchor'), anchor: RefId, space: RefId.optional(), page: RefId.optional() }),
  z.strictObject({ kind: z.literal('user'), user: RefId }),
  z.strictObject({ kind: z.literal('collection'), collection: RefId }),
  z.strictObject({ kind: z.literal('space'), space: RefId }),
  z.strictObject({ kind: z.literal('reusable-content'), reusableContent: RefId, space: RefId.optional() }),
  z.strictObject({ kind: z.literal('tag'), tag: RefId, space: RefId.optional() }),
  z.strictObject({ kind: z.literal('openapi'), spec: RefId }),
]);

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.strictObject({ type: z.literal(type), ...base, ...shape });

export const SiteInsightsEventSchema = z
  .discriminatedUnion('type', [
    event('page_view', {}),
    event('page_markdown_request', { markdownSource: z.enum(MARKDOWN_SOURCES).optional() }),
    event('search_open', {}),
    event('search_type_query', { query: Query }),
    event('search_open_result', {
      query: Query,
      result: z.union([z.strictObject({ spaceId: IdSchema, pageId: IdSchema }), z.strictObject({ recordId: text(256) })]),
    }),
    event('page_post_feedback', { feedback: z.strictObject({ rating: z.enum(PAGE_FEEDBACK_RATINGS) }) }),
    event('page_post_feedback_comment', {
      feedback: z.strictObject({ rating: z.enum(PAGE_FEEDBACK_RATINGS), comment: text(512, 1) }),
    }),
    event('agent_feedback', {}),
    event('ask_question', { query: Query, goal: text(2048).optional() }),
    event('ask_view', {}),
    event('ask_rate_response', { query: Query, rating: z.union([z.literal(1), z.literal(-1)]), responseId: text(256) }),
    event('link_click', { link: z.strictObject({ target: ContentRef, position: z.enum(LINK_POSITIONS) }) }),
    event('api_client_open', { operation: Operation }),
    event('api_client_request', { operation: Operation }),
    event('trademark_click', { placement: z.enum(TRADEMARK_PLACEMENTS) }),
    event('ad_click', { ad: Ad }),
    event('ad_display', { ad: Ad }),
    event('llms_request', { llmsVariant: z.enum(LLMS_VARIANTS) }),
    event('mcp_request', {}),
    event('rss_request', {}),
  ])
  .meta({ id: 'SiteInsightsEvent' });
export type SiteInsightsEvent = z.infer<typeof SiteInsightsEventSchema>;

export const TrackSiteEventsBody = z.strictObject({
  events: z.array(SiteInsightsEventSchema).min(1, 'must hold at least one event').max(1000, 'must hold at most 1000 events'),
});
export type TrackSiteEventsBody = z.infer<typeof TrackSiteEventsBody>;

// ---------------------------------------------------------------------------------------
// The aggregation query.

/** Columns counted over a group rather than read from one event. */
export const AGGREGATE_COLUMNS = ['eventsCount', 'sessionsCount', 'visitorsCount', 'pageFeedbackRating', 'askResponseRating'] as const;

const NullableText = text(2048).nullable();
const Texts = text(2048);
const Count = z.number().int().min(0);

/** Every column the client names, with what a filter on it compares against. */
export const INSIGHTS_COLUMN_VALUES = {
  datetime: IsoTime,
  dayOfWeek: z.number().int().min(1).max(7),
  hourOfDay: z.number().int().min(0).max(23),
  url: Texts,
  urlPath: Texts,
  eventType: z.enum(INSIGHTS_EVENT_TYPES),
  eventsCount: Count,
  sessionsCount: Count,
  visitorsCount: Count,
  siteSection: NullableText,
  siteSpace: NullableText,
  siteShareKey: NullableText,
  displayContext: z.enum(DISPLAY_CONTEXTS),
  page: z.strictObject({ page: IdSchema.nullable(), space: IdSchema }).nullable(),
  visitorGeoCountry: NullableText,
  visitorGeoPoint: z.strictObject({ latitude: z.number(), longitude: z.number(), h3: text(32) }),
  visitorDevice: z.enum(VISITOR_DEVICES),
  visitorBrowser: z.enum(VISITOR_BROWSERS),
  visitorOS: z.enum(VISITOR_OSES),
  visitorBot: z.union([z.enum(VISITOR_BOTS), z.literal('')]),
  visitorLanguage: NullableText,
  eventLinkTargetValue: ContentRef,
  eventLinkTargetKind: z.enum(LINK_TARGET_KINDS),
  eventLinkTargetDomain: NullableText,
  eventLinkPosition: z.enum(LINK_POSITIONS),
  eventAPIOperationPath: NullableText,
  eventAPIOperationMethod: NullableText,
  eventLLMSVariant: z.enum(LLMS_VARIANTS).nullable(),
  eventPageNotFoundType: z.enum(NOT_FOUND_TYPES).nullable(),
  eventMarkdownSource: z.enum(MARKDOWN_SOURCES).nullable(),
  eventSearchQuery: Texts,
  eventSearchResultRecordId: NullableText,
  eventPageFeedbackRating: z.enum(PAGE_FEEDBACK_RATINGS),
  eventPageFeedbackComment: Texts,
  eventAskResponseRating: z.number(),
  pageFeedbackRating: z.strictObject({ ok: Count, good: Count, bad: Count }),
  askResponseRating: z.strictObject({ positive: Count, negative: Count }),
  referrer: Texts,
  referrerDomain: Texts,
  utmSource: Texts,
  utmMedium: Texts,
  utmCampaign: Texts,
  utmTerm: Texts,
  utmContent: Texts,
  visitorAuthenticated: z.boolean().nullable(),
  visitorClaimProperty: Texts,
  visitorClaim: Texts,
  eventAdDomain: Texts,
  eventAdPlacement: z.enum(AD_PLACEMENTS),
  eventTrademarkPlacement: z.enum(TRADEMARK_PLACEMENTS),
  /** An extension beside the public client's columns: how many results a search typed on the site found. */
  eventSearchResultsCount: Count.nullable(),
} as const;
export type InsightsColumnName = keyof typeof INSIGHTS_COLUMN_VALUES;
export const INSIGHTS_COLUMNS = Object.keys(INSIGHTS_COLUMN_VALUES) as InsightsColumnName[];

const ClaimName = text(256, 1);

/** A column as `select`, `groupBy` and `order.by` name it. */
export type InsightsColumn =
  | { column: 'datetime'; interval?: 'hour' | 'day' | 'week' | 'month' }
  | { column: 'visitorGeoPoint'; precision?: number }
  | { column: 'visitorClaim'; claim: string }
  | { column: Exclude<InsightsColumnName, 'datetime' | 'visitorGeoPoint' | 'visitorClaim'> };

const plainColumns = INSIGHTS_COLUMNS.filter((c) => c !== 'datetime' && c !== 'visitorGeoPoint' && c !== 'visitorClaim');

export const InsightsColumnSchema = z
  .discriminatedUnion('column', [
    z.strictObject({ column: z.literal('datetime'), interval: z.enum(['hour', 'day', 'week', 'month']).optional() }),
    z.strictObject({ column: z.literal('visitorGeoPoint'), precision: z.number().int().min(0).max(15).optional() }),
    z.strictObject({ column: z.literal('visitorClaim'), claim: ClaimName }),
    ...plainColumns.map((c) => z.strictObject({ column: z.literal(c) })),
  ] as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]])
  .meta({ id: 'SiteInsightsQueryEventsColumn' }) as unknown as z.ZodType<InsightsColumn>;

export const INSIGHTS_OPERATORS = ['in', 'notIn', 'greaterThan', 'greaterThanOrEqual', 'lessThan', 'lessThanOrEqual'] as const;
export type InsightsOperator = (typeof INSIGHTS_OPERATORS)[number];

/** A filter: the column, the values it is compared with, and how (`in` when left out). */
export interface InsightsFilter {
  column: InsightsColumnName;
  claim?: string;
  values: unknown[];
  operator?: InsightsOperator;
}

export const InsightsFilterSchema = z
  .discriminatedUnion(
    'column',
    INSIGHTS_COLUMNS.map((c) =>
      z.strictObject({
        column: z.literal(c),
        ...(c === 'visitorClaim' ? { claim: ClaimName } : {}),
        values: z.array(INSIGHTS_COLUMN_VALUES[c] as z.ZodType).max(1000),
        operator: z.enum(INSIGHTS_OPERATORS).optional(),
      }),
    ) as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]],
  )
  .meta({ id: 'SiteInsightsQueryEventsFilter' }) as unknown as z.ZodType<InsightsFilter>;

export const INSIGHTS_RANGE_PRESETS = ['lastYear', 'last3Months', 'last30Days', 'last7Days', 'last24Hours'] as const;
export type InsightsRangePreset = (typeof INSIGHTS_RANGE_PRESETS)[number];

export const InsightsRangeSchema = z
  .union([z.enum(INSIGHTS_RANGE_PRESETS), z.strictObject({ from: IsoTime, to: IsoTime })], {
    error: `must be ${INSIGHTS_RANGE_PRESETS.join(', ')} or {from, to}`,
  })
  .meta({ id: 'SiteInsightsQueryRange' });
export type InsightsRange = z.infer<typeof InsightsRangeSchema>;

export const AggregateSiteEventsBody = z
  .strictObject({
    select: z.array(InsightsColumnSchema).max(20).optional(),
    where: z.array(InsightsFilterSchema).max(20).optional(),
    groupBy: z.array(InsightsColumnSchema).max(10).optional(),
    order: z.strictObject({ by: InsightsColumnSchema, direction: z.enum(['asc', 'desc']) }).optional(),
    range: InsightsRangeSchema,
    limit: z.number().int().min(1, 'must be at least 1').max(1000, 'must be at most 1000').optional(),
  })
  .meta({ id: 'SiteInsightsQueryEventsAggregation' });
export type AggregateSiteEventsBody = z.infer<typeof AggregateSiteEventsBody>;

/** One column of the answer: what it is and its value in each row, rows in the same order in every column. */
export interface InsightsColumnValues {
  column: InsightsColumnName;
  claim?: string;
  values: unknown[];
}

export const AggregationResultSchema = z
  .object({
    columns: z.array(
      z.object({
        column: z.enum(INSIGHTS_COLUMNS as [InsightsColumnName, ...InsightsColumnName[]]),
        claim: z.string().optional(),
        values: z.array(z.unknown()),
      }),
    ),
  })
  .meta({ id: 'SiteInsightsQueryEventsAggregationResult' });
export type AggregationResult = { columns: InsightsColumnValues[] };

export const VisitorSegmentSchema = z
  .object({
    title: z.string(),
    claims: z.record(z.string(), z.unknown()),
    events: z.number().int(),
    visitors: z.number().int(),
    sessions: z.number().int(),
  })
  .meta({ id: 'SiteInsightsVisitorSegment' });
export type VisitorSegment = z.infer<typeof VisitorSegmentSchema>;

// ---------------------------------------------------------------------------------------
// What a published site's own script sends to `<site>/~insights`: the server knows the
// site, the visitor and the page, so an event names only what happened.

const SitePath = text(2048, 1).refine((p) => p.startsWith('/'), 'must be a path on the site, starting with /');

export const SiteBeaconEventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('search_type_query'), query: text(512, 1), results: z.number().int().min(0).max(1000) }),
  z.strictObject({ type: z.literal('search_open_result'), query: text(512), url: SitePath }),
  z.strictObject({ type: z.literal('link_click'), href: text(2048, 1), position: z.enum(LINK_POSITIONS) }),
  z.strictObject({ type: z.literal('page_post_feedback'), rating: z.enum(PAGE_FEEDBACK_RATINGS) }),
  z.strictObject({ type: z.literal('page_post_feedback_comment'), rating: z.enum(PAGE_FEEDBACK_RATINGS), comment: text(512, 1) }),
]);
export type SiteBeaconEvent = z.infer<typeof SiteBeaconEventSchema>;

export const SiteBeaconBody = z.strictObject({
  /** The page the events happened on, as a path below the site's root. */
  page: SitePath,
  events: z.array(SiteBeaconEventSchema).min(1).max(20),
});
export type SiteBeaconBody = z.infer<typeof SiteBeaconBody>;
