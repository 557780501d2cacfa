import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { OrgAccess } from '../../../core/access';
import { addSection, changeSection, deleteSection, moveSection } from '../../../core/sites/sectionWrites';
import type { SiteRow } from '../../../store/sites';
import { getSite } from '../../../store/sites';
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

async function respond(c: Ctx, orgId: string, siteId: string, access: OrgAccess, sectionId: string) {
  const { db } = c.get('deps');
  const site = (await getSite(db, orgId, siteId)) as SiteRow;
  const structure = new SiteStructure(await readSiteStructure(db, site, access), access, baseUrl(c));
  const section = structure.sections.find((s) => s.id === sectionId);
  if (!section) throw notFound('site section');
  return structure.section(section);
}

export function registerSiteSections(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listSections, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const q = c.req.valid('query');
    const { site, access } = await siteForRead(c, organizationId, siteId, q.shareKey);
    const page = await store.listSections(db, site.id, q);
    const structure = new SiteStructure(await readSiteStructure(db, site, access), access, baseUrl(c));
    return c.json(
      envelope(page, (s) => structure.section(structure.sections.find((x) => x.id === s.id) ?? s)),
      200,
    );
  });

  app.openapi(r.createSection, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const section = await addSection(c.get('deps').db, site, access, c.get('caller').user.id, c.req.valid('json'));
    return c.json(await respond(c, organizationId, siteId, access, section.id), 200);
  });

  app.openapi(r.deleteSection, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteSectionId } = c.req.valid('param');
    const access = await c.get('access').org(organizationId);
    if (!access.isMember || !(await getSite(db, organizationId, siteId))) return c.body(null, 204);
    const { site } = await siteForWrite(c, organizationId, siteId);
    await deleteSection(db, site, siteSectionId);
    return c.body(null, 204);
  });

  app.openapi(r.updateSection, async (c) => {
    const { organizationId, siteId, siteSectionId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    await changeSection(c.get('deps').db, site, siteSectionId, c.req.valid('json'));
    return c.json(await respond(c, organizationId, siteId, access, siteSectionId), 200);
  });

  app.openapi(r.moveSection, async (c) => {
    const { organizationId, siteId, siteSectionId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    await moveSection(c.get('deps').db, site, siteSectionId, c.req.valid('json'));
    return c.json(await respond(c, organizationId, siteId, access, siteSectionId), 200);
  });
}
