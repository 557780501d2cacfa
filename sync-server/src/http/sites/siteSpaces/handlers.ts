import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { OrgAccess } from '../../../core/access';
import { changeSiteSpace, createSiteSpace, deleteSiteSpace, moveSiteSpace } from '../../../core/sites/siteSpaceWrites';
import { getSite, type SiteRow } from '../../../store/sites';
import * as store from '../../../store/sitesStructure';
import type { AppEnv } from '../../env';
import { notFound } from '@quire/shared/apiErrors';
import { envelope } from '../../listing';
import { baseUrl } from '../../urls';
import { siteForRead, siteForWrite } from '../guards';
import { SiteStructure } from '../../presenters/site';
import { readSiteStructure } from '../../../core/sites/structureRead';
import * as r from './routes';

type Ctx = Context<AppEnv>;

async function respond(c: Ctx, orgId: string, siteId: string, access: OrgAccess, siteSpaceId: string) {
  const { db } = c.get('deps');
  const site = (await getSite(db, orgId, siteId)) as SiteRow;
  const structure = new SiteStructure(await readSiteStructure(db, site, access), access, baseUrl(c));
  const ss = structure.siteSpaces.find((s) => s.id === siteSpaceId);
  if (!ss) throw notFound('site space');
  return structure.siteSpace(ss);
}

/** Ids of the default site spaces: the root's and each section's. */
function defaultIds(site: SiteRow, sections: store.SectionRow[]): string[] {
  return [site.default_site_space_id, ...sections.map((s) => s.default_site_space_id)].filter((x): x is string => !!x);
}

export function registerSiteSpaces(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listSiteSpaces, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const q = c.req.valid('query');
    const { site, access } = await siteForRead(c, organizationId, siteId, q.shareKey);
    const structure = new SiteStructure(await readSiteStructure(db, site, access), access, baseUrl(c));
    const page = await store.listSiteSpaces(db, site.id, { defaultOnly: q.default, defaultIds: defaultIds(site, structure.sections) }, q);
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
    const { db } = c.get('deps');
    const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
    const access = await c.get('access').org(organizationId);
    if (!access.isMember || !(await getSite(db, organizationId, siteId))) return c.body(null, 204);
    const { site } = await siteForWrite(c, organizationId, siteId);
    await deleteSiteSpace(db, site, siteSpaceId);
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
