import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  createRedirect,
  deleteRedirect,
  redirectsPage,
  requireRedirect,
  resolveRedirect,
  updateRedirect,
} from '../../../core/sites/siteRedirects';
import type { AppEnv } from '../../env';
import { envelope } from '../../../core/views/listing';
import { baseUrl } from '../../urls';
import { siteForDelete, siteForRead, siteForWrite } from '../guards';
import { presentRedirect } from '../../../core/views/site';
import * as r from './routes';

export function registerSiteRedirects(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listRedirects, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site, manager } = await siteForRead(c, organizationId, siteId);
    const q = c.req.valid('query');
    if (q.draft === true) return c.json({ items: [], count: 0 }, 200);
    const page = await redirectsPage(c.get('deps').db, site, q);
    const ctx = { base: baseUrl(c), site, manager };
    return c.json(
      envelope(page, (row) => presentRedirect(row, ctx)),
      200,
    );
  });

  app.openapi(r.createRedirect, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    const row = await createRedirect(c.get('deps').db, site, c.req.valid('json'));
    return c.json(presentRedirect(row, { base: baseUrl(c), site, manager: true }), 200);
  });

  app.openapi(r.getRedirect, async (c) => {
    const { organizationId, siteId, siteRedirectId } = c.req.valid('param');
    const { site, manager } = await siteForRead(c, organizationId, siteId);
    const row = await requireRedirect(c.get('deps').db, site.id, siteRedirectId);
    return c.json(presentRedirect(row, { base: baseUrl(c), site, manager }), 200);
  });

  app.openapi(r.deleteRedirect, async (c) => {
    const { organizationId, siteId, siteRedirectId } = c.req.valid('param');
    const site = await siteForDelete(c, organizationId, siteId);
    if (!site) return c.body(null, 204);
    await deleteRedirect(c.get('deps').db, site, siteRedirectId);
    return c.body(null, 204);
  });

  app.openapi(r.updateRedirect, async (c) => {
    const { organizationId, siteId, siteRedirectId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    const row = await updateRedirect(c.get('deps').db, site, siteRedirectId, c.req.valid('json'));
    return c.json(presentRedirect(row, { base: baseUrl(c), site, manager: true }), 200);
  });

  app.openapi(r.resolveRedirect, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const q = c.req.valid('query');
    const { site, manager } = await siteForRead(c, organizationId, siteId, q.shareKey);
    const { redirect, target } = await resolveRedirect(c.get('deps').db, site, q.source, baseUrl(c));
    return c.json({ redirect: presentRedirect(redirect, { base: baseUrl(c), site, manager }), target }, 200);
  });
}
