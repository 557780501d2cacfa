import type { SiteInsightsEvent } from '@quire/shared/schemas/insights';
import { LRUCache } from 'lru-cache';
import type { Queryable } from '../../store/db';
import type { InsightsEventRow } from '../../store/insights';
import { userAgentFacts } from './userAgent';
import { assignSessions, todaysSalt, visitorHash } from './visitors';

/**
 * Events on their way to storage. A draft still knows the address and user agent it came
 * with, in memory only: `finishRows` turns them into a visitor hash and coarse facts and
 * drops them before anything is written.
 */

/** Who sent an event: held only until it is hashed. */
export interface Sender {
  address: string;
  userAgent: string;
}

export type Draft = Omit<InsightsEventRow, 'visitor' | 'session' | 'browser' | 'os' | 'device' | 'bot'> & { sender: Sender };

/** The visitor's claims insights may keep: booleans the site's visitor schema declares, by path. */
export function booleanClaims(
  claims: Record<string, unknown> | undefined,
  schema: Record<string, unknown> | null,
): Record<string, boolean> | null {
  if (!claims || !schema) return null;
  const out: Record<string, boolean> = {};
  const walk = (props: unknown, path: string[], at: unknown, depth: number) => {
    if (!props || typeof props !== 'object' || depth > 4) return;
    for (const [name, raw] of Object.entries(props as Record<string, Record<string, unknown>>)) {
      if (!raw || typeof raw !== 'object') continue;
      const value = at && typeof at === 'object' ? (at as Record<string, unknown>)[name] : undefined;
      if (raw.type === 'boolean' && typeof value === 'boolean') out[[...path, name].join('.')] = value;
      else if (raw.type === 'object') walk(raw.properties, [...path, name], value, depth + 1);
    }
  };
  walk(schema.properties, [], claims, 0);
  return Object.keys(out).length ? out : null;
}

/** Boolean claims the site's visitor schema declares, by path, with their descriptions: the segments. */
export function declaredClaims(schema: Record<string, unknown> | null): { path: string; title: string }[] {
  const out: { path: string; title: string }[] = [];
  const walk = (props: unknown, path: string[], depth: number) => {
    if (!props || typeof props !== 'object' || depth > 4) return;
    for (const [name, raw] of Object.entries(props as Record<string, Record<string, unknown>>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    )) {
      if (!raw || typeof raw !== 'object') continue;
      const at = [...path, name];
      if (raw.type === 'boolean')
        out.push({ path: at.join('.'), title: typeof raw.description === 'string' && raw.description ? raw.description : at.join('.') });
      else if (raw.type === 'object') walk(raw.properties, at, depth + 1);
    }
  };
  walk(schema?.properties, [], 0);
  return out;
}

/** A URL as kept: no query or fragment (they may carry anything), its path, and its campaign tags. */
export function urlFields(raw: string) {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    const path = (raw.split(/[?#]/)[0] ?? '').slice(0, 2048);
    return { url: path, url_path: path, utm_source: null, utm_medium: null, utm_campaign: null, utm_term: null, utm_content: null };
  }
  const tag = (name: string) => url.searchParams.get(`utm_${name}`)?.slice(0, 256) || null;
  return {
    url: `${url.origin === 'null' ? '' : url.origin}${url.pathname}`.slice(0, 2048),
    url_path: url.pathname.slice(0, 2048),
    utm_source: tag('source'),
    utm_medium: tag('medium'),
    utm_campaign: tag('campaign'),
    utm_term: tag('term'),
    utm_content: tag('content'),
  };
}

/** Where a visitor came from, without its query; none when it is the site itself. */
export function referrerFields(
  raw: string | null | undefined,
  ownHost?: string,
): { referrer: string | null; referrer_domain: string | null } {
  if (!raw) return { referrer: null, referrer_domain: null };
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { referrer: null, referrer_domain: null };
    if (ownHost && url.host === ownHost) return { referrer: null, referrer_domain: null };
    return { referrer: `${url.origin}${url.pathname}`.slice(0, 2048), referrer_domain: url.hostname.slice(0, 256) };
  } catch {
    return { referrer: null, referrer_domain: null };
  }
}

/** A draft with every event-specific field empty. */
export function blankDraft(siteId: string, at: Date, type: string, url: string, sender: Sender): Draft {
  return {
    site_id: siteId,
    at: at.toISOString(),
    type,
    display_context: 'site',
    ...urlFields(url),
    site_section: null,
    site_space: null,
    site_share_key: null,
    space_id: null,
    revision_id: null,
    page_id: null,
    language: null,
    referrer: null,
    referrer_domain: null,
    authenticated: null,
    claims: null,
    search_query: null,
    search_result_record: null,
    search_results: null,
    feedback_rating: null,
    feedback_comment: null,
    link_target: null,
    link_kind: null,
    link_domain: null,
    link_position: null,
    api_path: null,
    api_method: null,
    llms_variant: null,
    not_found_type: null,
    markdown_source: null,
    ask_rating: null,
    ad_domain: null,
    ad_placement: null,
    trademark_placement: null,
    data: null,
    sender,
  };
}

/** The domain a link target points at, for links to other sites. */
function linkDomain(target: { kind: string; url?: string }): string | null {
  if (target.kind !== 'url' || typeof target.url !== 'string') return null;
  try {
    return new URL(target.url).hostname || null;
  } catch {
    return null;
  }
}

/** What an event of the public client's union adds to its draft, by type. */
function eventFields(e: SiteInsightsEvent): Partial<Draft> {
  switch (e.type) {
    case 'page_markdown_request':
      return { markdown_source: e.markdownSource ?? null };
    case 'search_type_query':
      return { search_query: e.query };
    case 'search_open_result':
      return {
        search_query: e.query,
        search_result_record: 'recordId' in e.result ? e.result.recordId : null,
        data: { result: e.result },
      };
    case 'page_post_feedback':
      return { feedback_rating: e.feedback.rating };
    case 'page_post_feedback_comment':
      return { feedback_rating: e.feedback.rating, feedback_comment: e.feedback.comment };
    case 'ask_question':
      return { data: { query: e.query, ...(e.goal ? { goal: e.goal } : {}) } };
    case 'ask_rate_response':
      return { ask_rating: e.rating, data: { query: e.query, responseId: e.responseId } };
    case 'link_click':
      return {
        link_target: e.link.target,
        link_kind: String(e.link.target.kind),
        link_domain: linkDomain(e.link.target),
        link_position: e.link.position,
      };
    case 'api_client_open':
    case 'api_client_request':
      return { api_path: e.operation.path, api_method: e.operation.method.toUpperCase() };
    case 'trademark_click':
      return { trademark_placement: e.placement };
    case 'ad_click':
    case 'ad_display':
      return { ad_domain: e.ad.domain, ad_placement: e.ad.placement, data: { zoneId: e.ad.zoneId } };
    case 'llms_request':
      return { llms_variant: e.llmsVariant };
    default:
      return {};
  }
}

/**
 * A draft of an event sent through the API. The visitor is the one the event names by
 * address (`session.ip`, else the sender's) and user agent; the identifiers, cookies and
 * token it carries are not kept.
 */
export function draftOfEvent(
  site: { id: string; adaptive_schema: Record<string, unknown> | null },
  e: SiteInsightsEvent,
  at: Date,
  requestAddress: string,
): Draft {
  const loc = e.location;
  const claims = booleanClaims(e.session.visitorAuthClaims, site.adaptive_schema);
  return {
    ...blankDraft(site.id, at, e.type, loc.url, { address: e.session.ip ?? requestAddress, userAgent: e.session.userAgent }),
    display_context: loc.displayContext ?? 'site',
    site_section: loc.siteSection,
    site_space: loc.siteSpace,
    site_share_key: loc.siteShareKey,
    space_id: loc.space,
    revision_id: loc.revision,
    page_id: loc.page,
    language: e.session.language,
    ...referrerFields(e.session.referrer),
    authenticated: e.session.visitorAuthClaims ? Object.keys(e.session.visitorAuthClaims).length > 0 : false,
    claims,
    ...eventFields(e),
  };
}

/**
 * The visitors hashed today, by site, address and user agent, so a reader's page views are
 * hashed once. Held in memory only, by the day's salt: a new day's salt starts an empty
 * cache and the old one goes with the old salt.
 */
const hashed = new WeakMap<Uint8Array, LRUCache<string, string>>();
function visitorsOfDay(salt: Uint8Array): LRUCache<string, string> {
  let cache = hashed.get(salt);
  if (!cache) {
    cache = new LRUCache<string, string>({ max: 10_000 });
    hashed.set(salt, cache);
  }
  return cache;
}

/** Drafts as stored: the sender hashed into today's visitor, its user agent into coarse facts, sessions given. */
export async function finishRows(db: Queryable, drafts: Draft[], now = new Date()): Promise<InsightsEventRow[]> {
  if (!drafts.length) return [];
  const salt = await todaysSalt(db, now);
  const visitors = visitorsOfDay(salt);
  // Each draft becomes its row in place (copying 45 fields per event is most of the cost).
  const rows = drafts.map((draft) => {
    const { sender } = draft;
    const key = `${draft.site_id}\0${sender.address}\0${sender.userAgent}`;
    let visitor = visitors.get(key);
    if (visitor === undefined) {
      visitor = visitorHash(salt, draft.site_id, sender.address, sender.userAgent);
      visitors.set(key, visitor);
    }
    const facts = userAgentFacts(sender.userAgent);
    const row = draft as Partial<Draft> & InsightsEventRow;
    row.sender = undefined;
    row.visitor = visitor;
    row.session = '';
    row.browser = facts.browser;
    row.os = facts.os;
    row.device = facts.device;
    row.bot = facts.bot;
    return row as InsightsEventRow;
  });
  await assignSessions(db, rows);
  return rows;
}
