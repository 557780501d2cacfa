import { DomainError, badRequest, conflict, notFound } from '@quire/shared/domainErrors';
import type {
  CreateRedirectBody,
  RedirectDestination,
  RedirectInputDestination,
  UpdateRedirectBody,
} from '@quire/shared/schemas/siteRedirect';
import { REDIRECT_SOURCE_INPUT_PATTERN } from '@quire/shared/schemas/siteRedirect';
import { isServerPath } from './hostnameOwnership';
import {
  currentPagePaths,
  matchRedirect,
  normalizeSource,
  pageAtPath,
  type RedirectPlaces,
  redirectTarget,
  withCapturedRest,
} from './redirects';
import { publishedBase } from '../views/site';
import { requireSiteSpace } from './siteSpaceWrites';
import { requireSection } from './structure';
import type { Db, Queryable } from '../../store/db';
import type { PageRequest } from '../../store/paginate';
import { type SiteRow, touchSite } from '../../store/sites';
import * as store from '../../store/sitesRedirects';
import type { RedirectRow } from '../../store/sitesRedirects';
import { sectionsOfSite, siteSpacesOfSite } from '../../store/sitesStructure';
import { getSpace } from '../../store/spaces';

/** The redirects of a site, as the API manages them: every check runs before anything is written. */

export async function requireRedirect(db: Queryable, siteId: string, id: string): Promise<RedirectRow> {
  const row = await store.getRedirect(db, siteId, id);
  if (!row) throw notFound('redirect');
  return row;
}

/** Paths of pages in the current content of the spaces a site publishes. */
function currentPaths(db: Queryable) {
  return currentPagePaths(db, async (spaceId) => (await getSpace(db, spaceId))?.revision_id);
}

/** What redirect targets of a site are built from; `base` is the server's public URL. */
async function placesOf(db: Queryable, site: SiteRow, base: string): Promise<RedirectPlaces> {
  const [sections, siteSpaces] = await Promise.all([sectionsOfSite(db, site.id), siteSpacesOfSite(db, site.id)]);
  return {
    root: publishedBase(base, site),
    sections,
    siteSpaces,
    defaultSectionId: site.default_section_id,
    defaultSiteSpaceId: site.default_site_space_id,
    pagePath: currentPaths(db),
  };
}

/**
 * The destination to store: what it names must exist on the site (404 otherwise, as for
 * any unknown id), and a page named by its path is stored as the `site-page` it is.
 */
async function destinationToStore(db: Queryable, site: SiteRow, dest: RedirectInputDestination): Promise<RedirectDestination> {
  switch (dest.kind) {
    case 'site-section':
      await requireSection(db, site.id, dest.siteSectionId);
      return dest;
    case 'site-space':
      await requireSiteSpace(db, site.id, dest.siteSpaceId);
      return dest;
    case 'site-page': {
      const ss = await requireSiteSpace(db, site.id, dest.siteSpaceId);
      if ((await currentPaths(db)(ss.space_id, dest.pageId)) === undefined) throw new DomainError('not_found', 'No matching page found.');
      return dest;
    }
    case 'path': {
      const ss = (await siteSpacesOfSite(db, site.id)).find((s) => s.space_id === dest.spaceId);
      if (!ss) throw badRequest('Invalid body field "destination.spaceId": the space is not published on this site.');
      const pageId = await pageAtPath(db, (await getSpace(db, ss.space_id))?.revision_id ?? null, dest.path);
      if (!pageId) throw badRequest('Invalid body field "destination.path": the space has no page at this path.');
      return { kind: 'site-page', siteSpaceId: ss.id, pageId };
    }
    default:
      return dest;
  }
}

async function checkSourceFree(db: Queryable, siteId: string, source: string, exceptId?: string) {
  if (isServerPath(source.replace(/\*$/, ''))) {
    throw badRequest('Invalid body field "source": /v1/, /sso/ and /files/ are paths of the server itself, never of a site.');
  }
  const existing = await store.redirectBySource(db, siteId, source);
  if (existing && existing.id !== exceptId) throw conflict(`A redirect from ${source} already exists.`);
}

/** A page of a site's redirects, searched and ordered as the query asks. */
export function redirectsPage(db: Queryable, site: SiteRow, q: Parameters<typeof store.listRedirects>[2] & PageRequest) {
  return store.listRedirects(db, site.id, q, q);
}

export async function createRedirect(db: Db, site: SiteRow, b: CreateRedirectBody): Promise<RedirectRow> {
  const destination = await destinationToStore(db, site, b.destination);
  await checkSourceFree(db, site.id, b.source);
  return db.transaction(async (tx) => {
    const created = await store.insertRedirect(tx, site.id, {
      source: b.source,
      destination,
      permanent: b.permanent,
      captureWildcard: b.captureWildcard,
    });
    await touchSite(tx, site.id);
    return created;
  });
}

export async function updateRedirect(db: Db, site: SiteRow, id: string, b: UpdateRedirectBody): Promise<RedirectRow> {
  const existing = await requireRedirect(db, site.id, id);
  const destination = b.destination && (await destinationToStore(db, site, b.destination));
  if (b.source) await checkSourceFree(db, site.id, b.source, existing.id);
  return db.transaction(async (tx) => {
    const updated = await store.updateRedirect(tx, existing.id, {
      source: b.source,
      destination,
      permanent: b.permanent,
      captureWildcard: b.captureWildcard,
    });
    await touchSite(tx, site.id);
    return updated;
  });
}

/** Removes a redirect; one already gone changes nothing, not even the site's `updatedAt`. */
export async function deleteRedirect(db: Db, site: SiteRow, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (await store.deleteRedirect(tx, site.id, id)) await touchSite(tx, site.id);
  });
}

/**
 * The redirect a path takes on the site and where it leads: a rule is found by its own
 * source (wildcard included), or as the one the path matches. 404 when none leads anywhere.
 */
export async function resolveRedirect(
  db: Queryable,
  site: SiteRow,
  path: string,
  base: string,
): Promise<{ redirect: RedirectRow; target: string }> {
  const source = normalizeSource(path);
  if (!REDIRECT_SOURCE_INPUT_PATTERN.test(source))
    throw badRequest('Invalid query parameter field "source": must be a path such as /old/page.');
  const match = matchRedirect(await store.redirectsOfSite(db, site.id), source);
  if (!match) throw notFound('redirect');
  const target = await redirectTarget(match.redirect.destination, await placesOf(db, site, base));
  if (!target) throw notFound('redirect');
  const captured = match.redirect.capture_wildcard ? withCapturedRest(target, match.redirect.source, match.rest) : target;
  return { redirect: match.redirect, target: captured };
}
