import type { RedirectDestination } from '@quire/shared/schemas/siteRedirect';
import type { Queryable } from '../../store/db';
import { contentAtRevision } from '../content/revisions';
import { pagePaths } from '../content/tree';

/**
 * Where redirects lead: the rules the API's resolve operation and the published site
 * share, so both answer the same target for the same path.
 */

/** What of a site a redirect target is built from. */
export interface RedirectPlaces {
  /** Root the site is served at (`https://docs.example.com` or `http://host/s/org/docs`), no trailing slash. */
  root: string;
  sections: { id: string; path: string; default_site_space_id: string | null }[];
  siteSpaces: { id: string; section_id: string | null; space_id: string; path: string }[];
  defaultSectionId: string | null;
  defaultSiteSpaceId: string | null;
  /** The path of a page in the current content of a space, when the space has that page. */
  pagePath(spaceId: string, pageId: string): Promise<string | undefined>;
}

function sectionRoot(places: RedirectPlaces, sectionId: string | null): string | undefined {
  if (!sectionId) return places.root;
  const section = places.sections.find((s) => s.id === sectionId);
  if (!section) return undefined;
  return section.id === places.defaultSectionId ? places.root : `${places.root}/${section.path}`;
}

/** The root of a site space: its section's root when it is the default there, else its own path below it. */
export function siteSpaceRoot(places: RedirectPlaces, siteSpaceId: string) {
  const ss = places.siteSpaces.find((s) => s.id === siteSpaceId);
  if (!ss) return undefined;
  const root = sectionRoot(places, ss.section_id);
  if (root === undefined) return undefined;
  const defaultId = ss.section_id ? places.sections.find((s) => s.id === ss.section_id)?.default_site_space_id : places.defaultSiteSpaceId;
  return { ss, root: defaultId === ss.id ? root : `${root}/${ss.path}` };
}

/**
 * Where a redirect leads. Something that no longer exists (a section, site space or page)
 * leads nowhere (undefined), and the redirect is then ignored.
 */
export async function redirectTarget(dest: RedirectDestination, places: RedirectPlaces): Promise<string | undefined> {
  switch (dest.kind) {
    case 'url':
    case 'external':
      return dest.url;
    case 'site-section': {
      const root = places.sections.some((s) => s.id === dest.siteSectionId) ? sectionRoot(places, dest.siteSectionId) : undefined;
      if (root === undefined) return undefined;
      const rest = (dest.path ?? '').replace(/^\/+|\/+$/g, '');
      return rest ? `${root}/${rest}` : `${root}/`;
    }
    case 'site-space': {
      const at = siteSpaceRoot(places, dest.siteSpaceId);
      return at && `${at.root}/`;
    }
    case 'site-page': {
      const at = siteSpaceRoot(places, dest.siteSpaceId);
      const path = at && (await places.pagePath(at.ss.space_id, dest.pageId));
      return at && path !== undefined ? `${at.root}/${path}` : undefined;
    }
  }
}

/** The form redirect sources are stored and matched in: no trailing slash, no query. */
export function normalizeSource(path: string): string {
  const bare = path.split(/[?#]/)[0] ?? '';
  return bare.length > 1 ? bare.replace(/\/+$/, '') : bare;
}

/**
 * The redirect a path takes: the one whose source is that very path, else the wildcard one
 * (`/old/*`, `/old*`) with the longest prefix of it. `rest` is what the wildcard matched.
 */
export function matchRedirect<R extends { source: string }>(redirects: R[], path: string): { redirect: R; rest: string } | undefined {
  const p = normalizeSource(path);
  const exact = redirects.find((r) => r.source === p);
  if (exact) return { redirect: exact, rest: '' };
  let best: { redirect: R; rest: string; prefix: number } | undefined;
  for (const r of redirects) {
    if (!r.source.endsWith('*')) continue;
    const prefix = r.source.slice(0, -1);
    if (!p.startsWith(prefix) || (best && best.prefix >= prefix.length)) continue;
    best = { redirect: r, rest: p.slice(prefix.length), prefix: prefix.length };
  }
  return best && { redirect: best.redirect, rest: best.rest };
}

/** The target with what the wildcard matched appended (before any query or fragment), for redirects that capture it. */
export function withCapturedRest(target: string, source: string, rest: string): string {
  if (!rest) return target;
  const [, base = '', tail = ''] = /^([^?#]*)(.*)$/s.exec(target) ?? [];
  if (source.endsWith('/*')) return `${base.endsWith('/') ? base : `${base}/`}${rest}${tail}`;
  return `${base.endsWith('/') && rest.startsWith('/') ? base.slice(0, -1) : base}${rest}${tail}`;
}

/** Status of a redirect answer: permanent ones 301 (308 keeping the method), others 302 (307). */
export function redirectStatus(permanent: boolean, keepMethod: boolean): 301 | 302 | 307 | 308 {
  if (permanent) return keepMethod ? 308 : 301;
  return keepMethod ? 307 : 302;
}

/**
 * The target of the redirect a path takes on a site, with its status, or undefined when no
 * redirect applies (or it leads nowhere).
 */
export async function resolveRedirectPath(
  redirects: { source: string; destination: RedirectDestination; permanent: boolean; capture_wildcard: boolean }[],
  path: string,
  places: RedirectPlaces,
  keepMethod: boolean,
): Promise<{ location: string; status: 301 | 302 | 307 | 308 } | undefined> {
  const match = matchRedirect(redirects, path);
  if (!match) return undefined;
  const target = await redirectTarget(match.redirect.destination, places);
  if (!target) return undefined;
  const location = match.redirect.capture_wildcard ? withCapturedRest(target, match.redirect.source, match.rest) : target;
  return { location, status: redirectStatus(match.redirect.permanent, keepMethod) };
}

/** Page paths of spaces at their current revision, as `RedirectPlaces.pagePath` wants them. */
export function currentPagePaths(db: Queryable, revisionOf: (spaceId: string) => Promise<string | null | undefined>) {
  return async (spaceId: string, pageId: string): Promise<string | undefined> => {
    const revisionId = await revisionOf(spaceId);
    if (!revisionId) return undefined;
    return pagePaths(await contentAtRevision(db, revisionId)).get(pageId);
  };
}

/** The page at `path` in a space's current content, for a destination that names a page by path. */
export async function pageAtPath(db: Queryable, revisionId: string | null, path: string): Promise<string | undefined> {
  if (!revisionId) return undefined;
  const wanted = path.replace(/^\/+|\/+$/g, '');
  for (const [id, p] of pagePaths(await contentAtRevision(db, revisionId))) if (p === wanted) return id;
  return undefined;
}
