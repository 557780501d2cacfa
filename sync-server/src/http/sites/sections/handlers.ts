import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { OrgAccess } from '../../../core/access/callerAccess';
import { addSection, changeSection, deleteSection, moveSection } from '../../../core/sites/sectionWrites';
import type { AppEnv } from '../../env';
import { notFound } from '@quire/shared/domainErrors';
import { envelope } from '../../../core/views/listing';
import { baseUrl } from '../../urls';
import { siteForDelete, siteForRead, siteForWrite } from '../guards';
import { SiteStructure } from '../../../core/views/site';
import { readSiteStructureAfterWrite, sectionsPage } from '../../../core/sites/structureRead';
import * as r from './routes';

type Ctx = Context<AppEnv>;

async function respond(c: Ctx, orgId: string, siteId: string, access: OrgAccess, sectionId: string) {
  const read = await readSiteStructureAfterWrite(c.get('deps').db, orgId, siteId, access);
  const structure = new SiteStructure(read, access, baseUrl(c));
  const section = structure.sections.find((s) => s.id === sectionId);
  if (!section) throw notFound('site section');
  return structure.section(section);
}

export function registerSiteSections(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listSections, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const q = c.req.valid('query');
    const { site, access } = await siteForRead(c, organizationId, siteId, q.shareKey);
    const read = await sectionsPage(c.get('deps').db, site, access, q);
    const page = read.page;
    const structure = new SiteStructure(read.structure, access, baseUrl(c));
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
    const { organizationId, siteId, siteSectionId } = c.req.valid('param');
    const site = await siteForDelete(c, organizationId, siteId);
    if (!site) return c.body(null, 204);
    await deleteSection(c.get('deps').db, site, siteSectionId);
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
