import type { OpenAPIHono } from '@hono/zod-openapi';
import { customizationInput, patchOverrides, siteSettings, siteSpaceSettings } from '../../../core/sites/customization';
import { getSite, touchSite, updateSite } from '../../../store/sites';
import { clearSiteSpaceCustomization, updateSiteSpace } from '../../../store/sitesStructure';
import type { AppEnv } from '../../env';
import { badRequest } from '@quire/shared/apiErrors';
import { siteForRead, siteForWrite } from '../guards';
import { requireSiteSpace } from '../siteSpaces/handlers';
import * as r from './routes';

export function registerSiteCustomization(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.getSiteCustomization, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForRead(c, organizationId, siteId);
    return c.json(siteSettings(site.customization), 200);
  });

  app.openapi(r.putSiteCustomization, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    const input = customizationInput(c.req.valid('json'));
    if (input.error) throw badRequest(`${input.error}.`);
    const updated = await updateSite(db, site.id, { customization: input.value });
    return c.json(siteSettings(updated.customization), 200);
  });

  app.openapi(r.getSiteSpaceCustomization, async (c) => {
    const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
    const { site } = await siteForRead(c, organizationId, siteId);
    const ss = await requireSiteSpace(c, site.id, siteSpaceId);
    return c.json(siteSpaceSettings(site.customization, ss.customization), 200);
  });

  app.openapi(r.deleteSiteSpaceCustomization, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
    const access = await c.get('access').org(organizationId);
    if (!access.isMember || !(await getSite(db, organizationId, siteId))) return c.body(null, 204);
    const { site } = await siteForWrite(c, organizationId, siteId);
    if (await clearSiteSpaceCustomization(db, site.id, siteSpaceId)) await touchSite(db, site.id);
    return c.body(null, 204);
  });

  app.openapi(r.patchSiteSpaceCustomization, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    const ss = await requireSiteSpace(c, site.id, siteSpaceId);
    const { overrides, error } = patchOverrides(site.customization, ss.customization, c.req.valid('json'));
    if (error) throw badRequest(error);
    await db.transaction(async (tx) => {
      await updateSiteSpace(tx, ss.id, { customization: overrides });
      await touchSite(tx, site.id);
    });
    return c.json(siteSpaceSettings(site.customization, overrides), 200);
  });
}
