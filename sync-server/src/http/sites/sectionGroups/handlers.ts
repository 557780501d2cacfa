import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { OrgAccess } from '../../../core/access/callerAccess';
import {
  addSectionToGroup,
  changeSectionGroup,
  createSectionGroup,
  deleteSectionGroup,
  moveSectionGroup,
  removeSectionFromGroup,
} from '../../../core/sites/sectionGroupWrites';
import type { AppEnv } from '../../env';
import { notFound } from '@quire/shared/domainErrors';
import { envelope } from '../../../core/views/listing';
import { baseUrl } from '../../urls';
import { siteForDelete, siteForRead, siteForWrite } from '../guards';
import { SiteStructure } from '../../../core/views/site';
import { readSiteStructureAfterWrite, sectionGroupsPage } from '../../../core/sites/structureRead';
import * as r from './routes';

type Ctx = Context<AppEnv>;

async function respond(c: Ctx, orgId: string, siteId: string, access: OrgAccess, groupId: string) {
  const read = await readSiteStructureAfterWrite(c.get('deps').db, orgId, siteId, access);
  const structure = new SiteStructure(read, access, baseUrl(c));
  const group = structure.groups.find((g) => g.id === groupId);
  if (!group) throw notFound('site section group');
  return structure.group(group);
}

export function registerSiteSectionGroups(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listSectionGroups, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site, access } = await siteForRead(c, organizationId, siteId);
    const { page, structure: read } = await sectionGroupsPage(c.get('deps').db, site, access, c.req.valid('query'));
    const structure = new SiteStructure(read, access, baseUrl(c));
    return c.json(
      envelope(page, (g) => structure.group(g)),
      200,
    );
  });

  app.openapi(r.getSectionGroup, async (c) => {
    const { organizationId, siteId, siteSectionGroupId } = c.req.valid('param');
    const { access } = await siteForRead(c, organizationId, siteId);
    return c.json(await respond(c, organizationId, siteId, access, siteSectionGroupId), 200);
  });

  app.openapi(r.createSectionGroup, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const group = await createSectionGroup(c.get('deps').db, site, c.req.valid('json'));
    return c.json(await respond(c, organizationId, siteId, access, group.id), 200);
  });

  app.openapi(r.deleteSectionGroup, async (c) => {
    const { organizationId, siteId, siteSectionGroupId } = c.req.valid('param');
    const site = await siteForDelete(c, organizationId, siteId);
    if (!site) return c.body(null, 204);
    await deleteSectionGroup(c.get('deps').db, site, siteSectionGroupId);
    return c.body(null, 204);
  });

  app.openapi(r.updateSectionGroup, async (c) => {
    const { organizationId, siteId, siteSectionGroupId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const group = await changeSectionGroup(c.get('deps').db, site, siteSectionGroupId, c.req.valid('json'));
    return c.json(await respond(c, organizationId, siteId, access, group.id), 200);
  });

  app.openapi(r.addSectionToGroup, async (c) => {
    const { organizationId, siteId, siteSectionGroupId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const group = await addSectionToGroup(c.get('deps').db, site, siteSectionGroupId, c.req.valid('json').sectionId);
    return c.json(await respond(c, organizationId, siteId, access, group.id), 200);
  });

  app.openapi(r.removeSectionFromGroup, async (c) => {
    const { organizationId, siteId, siteSectionGroupId, siteSectionId } = c.req.valid('param');
    const site = await siteForDelete(c, organizationId, siteId);
    if (!site) return c.body(null, 204);
    await removeSectionFromGroup(c.get('deps').db, site, siteSectionGroupId, siteSectionId);
    return c.body(null, 204);
  });

  app.openapi(r.moveSectionGroup, async (c) => {
    const { organizationId, siteId, siteSectionGroupId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const group = await moveSectionGroup(c.get('deps').db, site, siteSectionGroupId, c.req.valid('json'));
    return c.json(await respond(c, organizationId, siteId, access, group.id), 200);
  });
}
