import type { OpenAPIHono } from '@hono/zod-openapi';
import type { RedirectDestination, RedirectInputDestination } from '@quire/shared/schemas/siteRedirect';
import { REDIRECT_SOURCE_INPUT_PATTERN } from '@quire/shared/schemas/siteRedirect';
import type { Context } from 'hono';
import {
  currentPagePaths,
  matchRedirect,
  normalizeSource,
  pageAtPath,
  type RedirectPlaces,
  redirectTarget,
  withCapturedRest,
} from '../../../core/sites/redirects';
import { isServerPath } from '../../../core/sites/hostnameOwnership';
import { requireSection } from '../../../core/sites/structure';
import { getSite, type SiteRow, touchSite } from '../../../store/sites';
import * as store from '../../../store/sitesRedirects';
import { sectionsOfSite, siteSpacesOfSite } from '../../../store/sitesStructure';
import { getSpace } from '../../../store/spaces';
import type { AppEnv } from '../../env';
import { ApiError, badRequest, conflict, notFound } from '../../errors';
import { envelope } from '../../listing';
import { baseUrl } from '../../urls';
import { siteForRead, siteForWrite } from '../guards';
import { presentRedirect, publishedBase } from '../presenters';
import { requireSiteSpace } from '../siteSpaces/handlers';
import * as r from './routes';

type Ctx = Context<AppEnv>;

async function requireRedirect(c: Ctx, siteId: string, id: string) {
  const row = await store.getRedirect(c.get('deps').db, siteId, id);
  if (!row) throw notFound('redirect');
  return row;
}

/** Paths of pages in the current content of the spaces a site publishes. */
function currentPaths(c: Ctx) {
  const { db } = c.get('deps');
  return currentPagePaths(db, async (spaceId) => (await getSpace(db, spaceId))?.revision_id);
}

/** What redirect targets of a site are built from. */
async function placesOf(c: Ctx, site: SiteRow): Promise<RedirectPlaces> {
  const { db } = c.get('deps');
  const [sections, siteSpaces] = await Promise.all([sectionsOfSite(db, site.id), siteSpacesOfSite(db, site.id)]);
  return {
    root: publishedBase(baseUrl(c), site),
    sections,
    siteSpaces,
    defaultSectionId: site.default_section_id,
    defaultSiteSpaceId: site.default_site_space_id,
    pagePath: currentPaths(c),
  };
}

/**
 * The destination to store: what it names must exist on the site (404 otherwise, as for
 * any unknown id), and a page named by its path is stored as the `site-page` it is.
 */
async function destinationToStore(c: Ctx, site: SiteRow, dest: RedirectInputDestination): Promise<RedirectDestination> {
  const { db } = c.get('deps');
  switch (dest.kind) {
    case 'site-section':
      await requireSection(db, site.id, dest.siteSectionId);
      return dest;
    case 'site-space':
      await requireSiteSpace(c, site.id, dest.siteSpaceId);
      return dest;
    case 'site-page': {
      const ss = await requireSiteSpace(c, site.id, dest.siteSpaceId);
      if ((await currentPaths(c)(ss.space_id, dest.pageId)) === undefined) throw new ApiError(404, 'No matching page found.');
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

async function checkSourceFree(c: Ctx, siteId: string, source: string, exceptId?: string) {
  if (isServerPath(source.replace(/\*$/, ''))) {
    throw badRequest('Invalid body field "source": /v1/, /sso/ and /files/ are paths of the server itself, never of a site.');
  }
  const existing = await store.redirectBySource(c.get('deps').db, siteId, source);
  if (existing && existing.id !== exceptId) throw conflict(`A redirect from ${source} already exists.`);
}

export function registerSiteRedirects(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listRedirects, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site, manager } = await siteForRead(c, organizationId, siteId);
    const q = c.req.valid('query');
    if (q.draft === true) return c.json({ items: [], count: 0 }, 200);
    const page = await store.listRedirects(c.get('deps').db, site.id, q, q);
    const ctx = { base: baseUrl(c), site, manager };
    return c.json(
      envelope(page, (row) => presentRedirect(row, ctx)),
      200,
    );
  });

  app.openapi(r.createRedirect, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    const b = c.req.valid('json');
    const destination = await destinationToStore(c, site, b.destination);
    await checkSourceFree(c, site.id, b.source);
    const row = await db.transaction(async (tx) => {
      const created = await store.insertRedirect(tx, site.id, {
        source: b.source,
        destination,
        permanent: b.permanent,
        captureWildcard: b.captureWildcard,
      });
      await touchSite(tx, site.id);
      return created;
    });
    return c.json(presentRedirect(row, { base: baseUrl(c), site, manager: true }), 200);
  });

  app.openapi(r.getRedirect, async (c) => {
    const { organizationId, siteId, siteRedirectId } = c.req.valid('param');
    const { site, manager } = await siteForRead(c, organizationId, siteId);
    const row = await requireRedirect(c, site.id, siteRedirectId);
    return c.json(presentRedirect(row, { base: baseUrl(c), site, manager }), 200);
  });

  app.openapi(r.deleteRedirect, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteRedirectId } = c.req.valid('param');
    const access = await c.get('access').org(organizationId);
    if (!access.isMember || !(await getSite(db, organizationId, siteId))) return c.body(null, 204);
    const { site } = await siteForWrite(c, organizationId, siteId);
    await db.transaction(async (tx) => {
      // a request that changes nothing leaves the site's updatedAt alone
      if (await store.deleteRedirect(tx, site.id, siteRedirectId)) await touchSite(tx, site.id);
    });
    return c.body(null, 204);
  });

  app.openapi(r.updateRedirect, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteRedirectId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    const existing = await requireRedirect(c, site.id, siteRedirectId);
    const b = c.req.valid('json');
    const destination = b.destination && (await destinationToStore(c, site, b.destination));
    if (b.source) await checkSourceFree(c, site.id, b.source, existing.id);
    const row = await db.transaction(async (tx) => {
      const updated = await store.updateRedirect(tx, existing.id, {
        source: b.source,
        destination,
        permanent: b.permanent,
        captureWildcard: b.captureWildcard,
      });
      await touchSite(tx, site.id);
      return updated;
    });
    return c.json(presentRedirect(row, { base: baseUrl(c), site, manager: true }), 200);
  });

  app.openapi(r.resolveRedirect, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const q = c.req.valid('query');
    const { site, manager } = await siteForRead(c, organizationId, siteId, q.shareKey);
    const source = normalizeSource(q.source);
    if (!REDIRECT_SOURCE_INPUT_PATTERN.test(source))
      throw badRequest('Invalid query parameter field "source": must be a path such as /old/page.');
    // A rule is found by its own source (wildcard included), or as the one a path takes.
    const match = matchRedirect(await store.redirectsOfSite(db, site.id), source);
    if (!match) throw notFound('redirect');
    const target = await redirectTarget(match.redirect.destination, await placesOf(c, site));
    if (!target) throw notFound('redirect');
    const captured = match.redirect.capture_wildcard ? withCapturedRest(target, match.redirect.source, match.rest) : target;
    return c.json({ redirect: presentRedirect(match.redirect, { base: baseUrl(c), site, manager }), target: captured }, 200);
  });
}
