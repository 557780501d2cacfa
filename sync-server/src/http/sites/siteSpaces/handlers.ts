import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { OrgAccess } from '../../../core/access/callerAccess';
import { changeSiteSpace, createSiteSpace, deleteSiteSpace, moveSiteSpace } from '../../../core/sites/siteSpaceWrites';
import type { AppEnv } from '../../env';
import { notFound } from '@quire/shared/domainErrors';
import { envelope } from '../../../core/views/listing';
import { baseUrl } from '../../urls';
import { siteForDelete, siteForRead, siteForWrite } from '../guards';
import { SiteStructure } from '../../../core/views/site';
import { readSiteStructureAfterWrite, siteSpacesPage } from '../../../core/sites/structureRead';
import * as r from './routes';

type Ctx = Context<AppEnv>;

async function respond(c: Ctx, orgId: string, siteId: string, access: OrgAccess, siteSpaceId: string) {
  const read = await readSiteStructureAfterWrite(c.get('deps').db, orgId, siteId, access);
  const structure = new SiteStructure(read, access, baseUrl(c));
  const ss = structure.siteSpaces.find((s) => s.id === siteSpaceId);
  if (!ss) throw notFound('site space');
  return structure.siteSpace(ss);
}

export function registerSiteSpaces(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listSiteSpaces, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const q = c.req.valid('query');
    const { site, access } = await siteForRead(c, organizationId, siteId, q.shareKey);
    const { page, structure: read } = await siteSpacesPage(c.get('deps').db, site, access, q);
    const structure = new SiteStructure(read, access, baseUrl(c));
    return c.json(
      envelope(page, (ss) => structure.siteSpace(ss)),
      200,
    );
  });

  app.openapi(r.createSiteSpace, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const ss = await createSiteSpace(c.get('deps').db, site, access, c.get('caller').user.id, c.req.valid('json'));
    return c.json(await respond(c, organizationId, siteId, access, ss.id), 200);
  });

  app.openapi(r.deleteSiteSpace, async (c) => {
    const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
    const site = await siteForDelete(c, organizationId, siteId);
    if (!site) return c.body(null, 204);
    await deleteSiteSpace(c.get('deps').db, site, siteSpaceId);
    return c.body(null, 204);
  });

  app.openapi(r.updateSiteSpace, async (c) => {
    const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    await changeSiteSpace(c.get('deps').db, site, access, siteSpaceId, c.req.valid('json'));
    return c.json(await respond(c, organizationId, siteId, access, siteSpaceId), 200);
  });

  app.openapi(r.moveSiteSpace, async (c) => {
    const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    await moveSiteSpace(c.get('deps').db, site, siteSpaceId, c.req.valid('json'));
    return c.json(await respond(c, organizationId, siteId, access, siteSpaceId), 200);
  });
}
