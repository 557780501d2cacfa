import { PAGE_FEEDBACK_RATINGS, type PageFeedbackRating, SiteBeaconBody } from '@quire/shared/schemas/insights';
import type { Context } from 'hono';
import { recordSiteVisit } from '../core/insights/commands';
import type { Draft } from '../core/insights/events';
import type { AppEnv } from '../web/env';
import { clientAddress } from '../web/clientAddress';
import { describeIssue } from '../web/issues';
import type { SiteRow } from '../store/sites';
import type { Located, SiteRequest } from './context';

/**
 * What a site records of its readers (see core/insights): the event of each answer, the
 * no-script feedback form (`POST ~feedback`) and what the site's script reports
 * (`POST ~insights`). Recording never holds up an answer and never sets a cookie.
 */

type Ctx = Context<AppEnv>;

export const FEEDBACK_PATH = '/~feedback';
export const BEACON_PATH = '/~insights';
export const PRIVACY_PATH = '/~privacy';
/** Bodies of the feedback form and the script's reports are small; more is refused unread. */
const MAX_BODY = 8 * 1024;

export interface Where {
  siteSection?: string | null;
  siteSpace?: string | null;
  space?: string | null;
  revision?: string | null;
  page?: string | null;
}

/** Where a located page sits in the site, as events name it. */
export function whereOf(loc: Pick<Located, 'section' | 'variant' | 'page'>): Where {
  return {
    siteSection: loc.section.id || null,
    siteSpace: loc.variant.id,
    space: loc.variant.spaceId,
    revision: loc.variant.revisionId,
    page: loc.page.id,
  };
}

/** The URL the visitor asked for, at the origin they used (a site's own hostname, or this server's). */
function requestUrl(c: Ctx, origin: string): string {
  // The request's URL is absolute: its path starts at the first slash after the host (no parse per page view).
  const raw = c.req.url;
  const path = raw.indexOf('/', raw.indexOf('//') + 2);
  return path < 0 ? `${origin}/` : `${origin}${raw.slice(path)}`;
}

/** Records one event of a site's answer to this request. */
export function recordOnSite(
  c: Ctx,
  site: SiteRow,
  origin: string,
  type: string,
  opts: {
    where?: Where;
    fields?: Partial<Draft>;
    displayContext?: 'site' | 'server' | 'mcp';
    claims?: Record<string, unknown>;
    url?: string;
  } = {},
) {
  recordSiteVisit(
    { deps: c.get('deps') },
    {
      site,
      type,
      url: opts.url ?? requestUrl(c, origin),
      displayContext: opts.displayContext,
      location: opts.where,
      sender: { address: clientAddress(c), userAgent: c.req.header('user-agent') ?? '' },
      signals: { gpc: c.req.header('sec-gpc'), dnt: c.req.header('dnt') },
      referrer: c.req.header('referer'),
      language: c.req.header('accept-language'),
      claims: opts.claims,
      fields: opts.fields,
    },
  );
}

/** The body of a small request, or undefined when it is larger than allowed (sent with a length or chunked). */
async function smallBody(c: Ctx): Promise<string | undefined> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > MAX_BODY) return undefined;
  const reader = c.req.raw.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const isRating = (v: unknown): v is PageFeedbackRating => (PAGE_FEEDBACK_RATINGS as readonly unknown[]).includes(v);
const cleanComment = (v: unknown) => (typeof v === 'string' ? v.replaceAll('\0', '').trim().slice(0, 512) : '');

/** The page a path below the site's root names, when it is a document page that asks for feedback. */
async function feedbackPage(req: SiteRequest, path: string): Promise<Located | undefined> {
  const loc = await req.locate(path);
  return loc && loc.page.type === 'document' && loc.variant.settings.feedback.enabled ? loc : undefined;
}

/** A rating is one `page_post_feedback`; a comment given with it is a `page_post_feedback_comment` besides. */
function feedbackEvents(rating: PageFeedbackRating, comment: string): { type: string; fields: Partial<Draft> }[] {
  const rated = { type: 'page_post_feedback', fields: { feedback_rating: rating } };
  return comment
    ? [rated, { type: 'page_post_feedback_comment', fields: { feedback_rating: rating, feedback_comment: comment } }]
    : [rated];
}

/**
 * "Was this page helpful?" without script: the form posts here, the rating (and comment)
 * is recorded, and the reader goes back to the page, where the thanks show.
 */
export async function receiveFeedbackForm(c: Ctx, req: SiteRequest, claims: Record<string, unknown>): Promise<Response> {
  const raw = await smallBody(c);
  if (raw === undefined) return c.text('The form is too large.', 413);
  const form = new URLSearchParams(raw);
  const loc = await feedbackPage(req, form.get('page') ?? '/');
  if (!loc) return c.redirect(`${req.mount.root}/`, 303);
  const back = req.pageUrl(loc.section, loc.variant, loc.flat, loc.page);
  c.header('Cache-Control', 'no-store');
  const rating = form.get('rating');
  if (!isRating(rating)) return c.redirect(`${back}#feedback`, 303);
  for (const { type, fields } of feedbackEvents(rating, cleanComment(form.get('comment'))))
    recordOnSite(c, req.site, req.mount.origin, type, { where: whereOf(loc), fields, claims, url: req.absolute(back) });
  return c.redirect(`${back}#feedback-thanks`, 303);
}

/** A path of this site below its root, from a URL or path the script saw; undefined for another site. */
function pathBelowRoot(req: SiteRequest, href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href, req.absolute('/'));
  } catch {
    return undefined;
  }
  if (url.origin !== req.mount.origin || !url.pathname.startsWith(`${req.mount.root}/`)) return undefined;
  return url.pathname.slice(req.mount.root.length);
}

function apiError(c: Ctx, status: number, message: string) {
  return c.json({ error: { code: status, message } }, status as 400);
}

/** What the site's script reports: searches typed and results opened, links followed, page ratings. */
export async function receiveBeacon(c: Ctx, req: SiteRequest, claims: Record<string, unknown>): Promise<Response> {
  // JSON only: a page of another site cannot send it without the browser asking this one first.
  if (!/^application\/json\b/i.test(c.req.header('content-type') ?? ''))
    return apiError(c, 415, 'Request bodies must be sent as Content-Type: application/json.');
  const raw = await smallBody(c);
  if (raw === undefined) return apiError(c, 413, `Request body is larger than ${MAX_BODY} bytes.`);
  let input: unknown;
  try {
    input = JSON.parse(raw);
  } catch {
    return apiError(c, 400, 'Invalid body: malformed JSON.');
  }
  const parsed = SiteBeaconBody.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return apiError(c, 400, issue ? describeIssue('json', issue, input) : 'Invalid body.');
  }
  const { page, events } = parsed.data;
  const here = await req.locate(page);
  const where = here ? whereOf(here) : undefined;
  const url = req.absolute(`${req.mount.root}${page}`);
  for (const e of events) {
    const record = (type: string, fields: Partial<Draft>) =>
      recordOnSite(c, req.site, req.mount.origin, type, { where, fields, claims, url });
    if (e.type === 'search_type_query') record(e.type, { search_query: e.query, search_results: e.results });
    else if (e.type === 'search_open_result') {
      const path = pathBelowRoot(req, e.url);
      const target = path === undefined ? undefined : await req.locate(path);
      record(e.type, {
        search_query: e.query,
        data: target ? { result: { spaceId: target.variant.spaceId, pageId: target.page.id } } : { url: e.url },
      });
    } else if (e.type === 'link_click') {
      const path = pathBelowRoot(req, e.href);
      const target = path === undefined ? undefined : await req.locate(path);
      const ref = target ? { kind: 'page', page: target.page.id, space: target.variant.spaceId } : { kind: 'url', url: e.href };
      let domain: string | null = null;
      if (!target)
        try {
          domain = new URL(e.href, url).hostname || null;
        } catch {
          domain = null;
        }
      record(e.type, { link_target: ref, link_kind: ref.kind, link_domain: domain, link_position: e.position });
    } else if (here && (await feedbackPage(req, page))) {
      if (e.type === 'page_post_feedback') record(e.type, { feedback_rating: e.rating });
      else record(e.type, { feedback_rating: e.rating, feedback_comment: cleanComment(e.comment) });
    }
  }
  c.header('Cache-Control', 'no-store');
  return c.body(null, 204);
}
