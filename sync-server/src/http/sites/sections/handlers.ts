import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { OrgAccess } from '../../../core/access';
import { changeSection, deleteSection, moveSection } from '../../../core/sites/sectionWrites';
import { checkedTemplate, createSiteContentSpace, newSpaceTitle, type SiteSpaceTemplate } from '../../../core/sites/newSpace';
import { createSection, requireGroup } from '../../../core/sites/structure';
import type { DbHandle } from '../../../core/deps';
import type { SiteRow } from '../../../store/sites';
import { getSite } from '../../../store/sites';
import * as store from '../../../store/sitesStructure';
import type { SpaceRow } from '../../../store/spaces';
import type { AppEnv } from '../../env';
import { badRequest, notFound } from '@quire/shared/apiErrors';
import { envelope } from '../../listing';
import { baseUrl } from '../../urls';
import { siteForRead, siteForWrite, spaceForSite } from '../guards';
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

export { checkCondition } from '../../../core/sites/sectionWrites';

/**
 * The space a new section or site space shows: the one named by `spaceId`, or, with
 * `spaceId` null, a new one (filled from `template` when given) made by `make` in the
 * caller's transaction. Every check runs first, so a refused call makes no space.
 */
export async function spaceForNewContent(
  c: Ctx,
  orgId: string,
  access: OrgAccess,
  b: { spaceId: string | null; template?: SiteSpaceTemplate },
): Promise<{ existing: SpaceRow | undefined; make: (tx: DbHandle, title: string) => Promise<SpaceRow> }> {
  if (b.spaceId !== null) {
    if (b.template) throw badRequest('Invalid body field "template": a template fills a new space, so it needs "spaceId": null.');
    const space = await spaceForSite(c, orgId, b.spaceId, access);
    return { existing: space, make: async () => space };
  }
  const template = b.template && { pages: await checkedTemplate(c.get('deps').db, orgId, b.template), userId: c.get('caller').user.id };
  return { existing: undefined, make: (tx, title) => createSiteContentSpace(tx, orgId, title, template) };
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
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const b = c.req.valid('json');
    const source = await spaceForNewContent(c, organizationId, access, b);
    const group = b.siteSectionGroupId ? await requireGroup(db, site.id, b.siteSectionGroupId) : undefined;
    const title = source.existing ? (b.title ?? source.existing.title) : newSpaceTitle(b.title, b.template);
    const section = await db.transaction(async (tx) => {
      const space = await source.make(tx, title);
      return createSection(tx, site, { title, icon: b.icon ?? undefined, space, groupId: group?.id ?? null });
    });
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
