import type { OpenAPIHono } from '@hono/zod-openapi';
import { REDIRECT_SOURCE_PATTERN } from '@quire/shared/schemas/siteRedirect';
import type { Context } from 'hono';
import { normalizeSource, redirectTarget } from '../../../core/sites/redirects';
import { requireSection } from '../../../core/sites/structure';
import { getSite, type SiteRow, touchSite } from '../../../store/sites';
import * as store from '../../../store/sitesRedirects';
import { sectionsOfSite } from '../../../store/sitesStructure';
import type { AppEnv } from '../../env';
import { badRequest, conflict, notFound } from '../../errors';
import { envelope } from '../../listing';
import { baseUrl } from '../../urls';
import { siteForRead, siteForWrite } from '../guards';
import { presentRedirect, publishedBase } from '../presenters';
import * as r from './routes';

type Ctx = Context<AppEnv>;

async function requireRedirect(c: Ctx, siteId: string, id: string) {
  const row = await store.getRedirect(c.get('deps').db, siteId, id);
  if (!row) throw notFound('redirect');
  return row;
}

async function checkDestination(c: Ctx, site: SiteRow, dest: { kind: string; siteSectionId?: string } | undefined) {
  if (dest?.kind === 'site-section' && dest.siteSectionId) await requireSection(c.get('deps').db, site.id, dest.siteSectionId);
}

async function checkSourceFree(c: Ctx, siteId: string, source: string, exceptId?: string) {
  const existing = await store.redirectBySource(c.get('deps').db, siteId, source);
  if (existing && existing.id !== exceptId) throw conflict(`A redirect from ${source} already exists.`);
}

export function registerSiteRedirects(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listRedirects, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForRead(c, organizationId, siteId);
    const q = c.req.valid('query');
    if (q.draft === true) return c.json({ items: [], count: 0 }, 200);
    const page = await store.listRedirects(c.get('deps').db, site.id, q, q);
    return c.json(envelope(page, presentRedirect), 200);
  });

  app.openapi(r.createRedirect, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    const b = c.req.valid('json');
    await checkDestination(c, site, b.destination);
    await checkSourceFree(c, site.id, b.source);
    const row = await db.transaction(async (tx) => {
      const created = await store.insertRedirect(tx, site.id, b.source, b.destination);
      await touchSite(tx, site.id);
      return created;
    });
    return c.json(presentRedirect(row), 200);
  });

  app.openapi(r.deleteRedirect, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteRedirectId } = c.req.valid('param');
    const access = await c.get('access').org(organizationId);
    if (!access.isMember || !(await getSite(db, organizationId, siteId))) return c.body(null, 204);
    const { site } = await siteForWrite(c, organizationId, siteId);
    await db.transaction(async (tx) => {
      await store.deleteRedirect(tx, site.id, siteRedirectId);
      await touchSite(tx, site.id);
    });
    return c.body(null, 204);
  });

  app.openapi(r.updateRedirect, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteRedirectId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    const existing = await requireRedirect(c, site.id, siteRedirectId);
    const b = c.req.valid('json');
    await checkDestination(c, site, b.destination);
    if (b.source) await checkSourceFree(c, site.id, b.source, existing.id);
    const row = await db.transaction(async (tx) => {
      const updated = await store.updateRedirect(tx, existing.id, b);
      await touchSite(tx, site.id);
      return updated;
    });
    return c.json(presentRedirect(row), 200);
  });

  app.openapi(r.resolveRedirect, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const q = c.req.valid('query');
    const { site } = await siteForRead(c, organizationId, siteId, q.shareKey);
    const source = normalizeSource(q.source);
    if (!REDIRECT_SOURCE_PATTERN.test(source))
      throw badRequest('Invalid query parameter field "source": must be a path such as /old/page.');
    const row = await store.redirectBySource(db, site.id, source);
    if (!row) throw notFound('redirect');
    const target = redirectTarget(
      row.destination,
      publishedBase(baseUrl(c), site),
      await sectionsOfSite(db, site.id),
      site.default_section_id,
    );
    if (!target) throw notFound('redirect');
    return c.json({ redirect: presentRedirect(row), target }, 200);
  });
}
