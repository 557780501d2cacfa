import type { SiteInsightsEvent } from '@quire/shared/schemas/insights';
import { badRequest } from '@quire/shared/domainErrors';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { Db } from '../../store/db';
import { deleteEventsBefore, forgetSaltsBefore, insertEvents } from '../../store/insights';
import { type InsightsContext, siteFor } from './context';
import { blankDraft, booleanClaims, type Draft, draftOfEvent, finishRows, referrerFields, type Sender } from './events';
import { insightsRecorder } from './recorder';

/** How far ahead of the server's clock an event's `timestamp` may be. */
export const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * Stores events an integration sends for a site (`POST …/insights/events`). The whole
 * batch is checked first and written in one statement: one bad event and nothing is kept.
 */
export async function recordEvents(
  ctx: InsightsContext,
  input: { organizationId: string; siteId: string; events: SiteInsightsEvent[]; senderAddress: string; now?: Date },
): Promise<void> {
  const site = await siteFor(ctx, input, 'write');
  const now = input.now ?? new Date();
  const drafts = input.events.map((e, i) => {
    const at = e.timestamp ? new Date(e.timestamp) : now;
    if (at.getTime() - now.getTime() > FUTURE_TOLERANCE_MS)
      throw badRequest(`Invalid body field "events.${i}.timestamp": must not be more than 5 minutes in the future.`);
    return draftOfEvent(site, e, at, input.senderAddress);
  });
  await insertEvents(ctx.deps.db, await finishRows(ctx.deps.db, drafts, now));
}

/** What a site knows of one of its requests, for the event it records. */
export interface SiteVisit {
  site: { id: string; adaptive_schema: Record<string, unknown> | null };
  type: string;
  /** The URL asked for, whole: only its origin and path are kept, and its campaign tags. */
  url: string;
  displayContext?: 'site' | 'server' | 'mcp';
  location?: {
    siteSection?: string | null;
    siteSpace?: string | null;
    space?: string | null;
    revision?: string | null;
    page?: string | null;
  };
  sender: Sender;
  /** The request's `Sec-GPC` and `DNT` headers: either at `1` and nothing is recorded. */
  signals: { gpc?: string; dnt?: string };
  referrer?: string;
  language?: string;
  claims?: Record<string, unknown>;
  /** Fields of the event's own type (a search query, a rating…). */
  fields?: Partial<Draft>;
}

/** Whether the visitor asked not to be tracked (Global Privacy Control, Do Not Track). */
export function optedOut(signals: SiteVisit['signals']): boolean {
  return signals.gpc?.trim() === '1' || signals.dnt?.trim() === '1';
}

/** The first language a visitor's browser asks for (`fr-CA`), or none. */
function firstLanguage(header: string | undefined): string | null {
  const tag = header?.split(',')[0]?.split(';')[0]?.trim();
  return tag && tag.length <= 35 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag) ? tag : null;
}

/**
 * Records what a published site answered, on the side: the event joins the buffer and the
 * answer goes out without waiting for the database. A visitor who opted out is not recorded.
 */
export function recordSiteVisit(ctx: { deps: { db: Db; log?: Logger } }, visit: SiteVisit, now = new Date()): boolean {
  if (optedOut(visit.signals)) return false;
  insightsRecorder(ctx.deps.db, ctx.deps.log).add(() => draftOfVisit(visit, now));
  return true;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** The draft of a site's visit, made when the recorder writes it (not while the page is answered). */
function draftOfVisit(visit: SiteVisit, now: Date): Draft {
  const loc = visit.location ?? {};
  // Filled in place: a page view's draft is made once, not copied field by field.
  const draft = blankDraft(visit.site.id, now, visit.type, visit.url, visit.sender);
  draft.display_context = visit.displayContext ?? 'site';
  draft.site_section = loc.siteSection || null;
  draft.site_space = loc.siteSpace || null;
  draft.space_id = loc.space || null;
  draft.revision_id = loc.revision || null;
  draft.page_id = loc.page || null;
  draft.language = firstLanguage(visit.language);
  if (visit.referrer) Object.assign(draft, referrerFields(visit.referrer, hostOf(visit.url)));
  draft.authenticated = !!visit.claims && Object.keys(visit.claims).length > 0;
  draft.claims = booleanClaims(visit.claims, visit.site.adaptive_schema);
  if (visit.fields) Object.assign(draft, visit.fields);
  return draft;
}

/**
 * A PDF opened from a published site's "Download PDF" link (the link names the site it was
 * handed to): recorded as `pdf_request`, an event type of ours besides the public client's.
 * Links handed to API tokens are not a site's readers and are not recorded.
 */
export function recordPdfDownload(
  ctx: { deps: { db: Db; log?: Logger } },
  input: { holder: string; spaceId: string; revisionId: string; url: string; sender: Sender; signals: SiteVisit['signals'] },
): boolean {
  if (!input.holder.startsWith('s.')) return false;
  return recordSiteVisit(ctx, {
    site: { id: input.holder.slice(2), adaptive_schema: null },
    type: 'pdf_request',
    url: input.url,
    location: { space: input.spaceId, revision: input.revisionId },
    sender: input.sender,
    signals: input.signals,
  });
}

/** Writes what sites recorded and have not stored yet. */
export function flushSiteVisits(ctx: { deps: { db: Db; log?: Logger } }): Promise<void> {
  return insightsRecorder(ctx.deps.db, ctx.deps.log).flush();
}

/**
 * Retention: events (and their roll-up counts) of UTC days wholly older than
 * `INSIGHTS_RETENTION_DAYS` are deleted, and salts of days
 * before today are forgotten (in case no visit today did it yet).
 */
export async function forgetOldInsights(ctx: { deps: { db: Db; config: Pick<Config, 'insightsRetentionDays'> } }, now = new Date()) {
  const DAY = 24 * 60 * 60 * 1000;
  // Whole UTC days go at once, so the daily roll-ups drop exactly the events deleted.
  const before = new Date(Math.floor((now.getTime() - ctx.deps.config.insightsRetentionDays * DAY) / DAY) * DAY);
  const deleted = await deleteEventsBefore(ctx.deps.db, before);
  await forgetSaltsBefore(ctx.deps.db, now.toISOString().slice(0, 10));
  return { deleted };
}
