import type { OpenAPIHono } from '@hono/zod-openapi';
import { siteSettings } from '../../../core/sites/customization';
import {
  patchSiteSpaceCustomization,
  putSiteCustomization,
  resetSiteSpaceCustomization,
  siteSpaceCustomization,
} from '../../../core/sites/customizationWrites';
import type { AppEnv } from '../../env';
import { siteForDelete, siteForRead, siteForWrite } from '../guards';
import * as r from './routes';

export function registerSiteCustomization(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.getSiteCustomization, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForRead(c, organizationId, siteId);
    return c.json(siteSettings(site.customization), 200);
  });

  app.openapi(r.putSiteCustomization, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    return c.json(await putSiteCustomization(c.get('deps').db, site, c.req.valid('json')), 200);
  });

  app.openapi(r.getSiteSpaceCustomization, async (c) => {
    const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
    const { site } = await siteForRead(c, organizationId, siteId);
    return c.json(await siteSpaceCustomization(c.get('deps').db, site, siteSpaceId), 200);
  });

  app.openapi(r.deleteSiteSpaceCustomization, async (c) => {
    const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
    const site = await siteForDelete(c, organizationId, siteId);
    if (!site) return c.body(null, 204);
    await resetSiteSpaceCustomization(c.get('deps').db, site, siteSpaceId);
    return c.body(null, 204);
  });

  app.openapi(r.patchSiteSpaceCustomization, async (c) => {
    const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    return c.json(await patchSiteSpaceCustomization(c.get('deps').db, site, siteSpaceId, c.req.valid('json')), 200);
  });
}
