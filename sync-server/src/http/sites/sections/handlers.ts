import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { OrgAccess } from '../../../core/access';
import { conditionError } from '../../../core/sites/expression';
import { checkedTemplate, createSiteContentSpace, newSpaceTitle, type SiteSpaceTemplate } from '../../../core/sites/newSpace';
import { positionAmong, positionAtEnd } from '../../../core/sites/placement';
import { createSection, moveIntoGroup, removeSection, requireGroup, requireSection } from '../../../core/sites/structure';
import type { DbHandle } from '../../../core/deps';
import type { SiteRow } from '../../../store/sites';
import { getSite, touchSite } from '../../../store/sites';
import * as store from '../../../store/sitesStructure';
import { getSiteSpace, sectionSiblings, takenPaths, updateSection } from '../../../store/sitesStructure';
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

/** A condition from a body, checked for syntax: 400 naming the field when it does not parse. */
export function checkCondition(condition: string | null | undefined) {
  if (!condition) return;
  const problem = conditionError(condition);
  if (problem) throw badRequest(`Invalid body field "condition": ${problem}.`);
}

const INVALID_MOVE = 'Invalid body field "position": invalid move site section position.';

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
    const section = await store.getSection(db, site.id, siteSectionId);
    if (section) await db.transaction((tx) => removeSection(tx, site, section));
    return c.body(null, 204);
  });

  app.openapi(r.updateSection, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteSectionId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const section = await requireSection(db, site.id, siteSectionId);
    const b = c.req.valid('json');
    checkCondition(b.condition);
    if (b.path && b.path !== section.path && (await takenPaths(db, 'site_sections', site.id)).has(b.path)) {
      throw badRequest('Invalid body field "path": already used by another section of the site.');
    }
    if (b.defaultSiteSpace) {
      const ss = await getSiteSpace(db, site.id, b.defaultSiteSpace);
      if (!ss || ss.section_id !== section.id) throw notFound('site space');
    }
    const group = b.siteSectionGroupId ? await requireGroup(db, site.id, b.siteSectionGroupId) : undefined;
    await db.transaction(async (tx) => {
      await updateSection(tx, section.id, b);
      if (b.siteSectionGroupId !== undefined) {
        await moveIntoGroup(tx, site.id, { kind: 'section', id: section.id, current: section.group_id }, group?.id ?? null);
      }
      await touchSite(tx, site.id);
    });
    return c.json(await respond(c, organizationId, siteId, access, section.id), 200);
  });

  app.openapi(r.moveSection, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteSectionId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const section = await requireSection(db, site.id, siteSectionId);
    const { position } = c.req.valid('json');
    const anchor = (a: { siteSection: string } | undefined) => (a ? { kind: 'section' as const, id: a.siteSection } : undefined);
    await db.transaction(async (tx) => {
      const siblings = await sectionSiblings(tx, site.id, section.group_id);
      // Without a position the section goes last among its siblings.
      const key = position
        ? positionAmong(siblings, section.id, { before: anchor(position.before), after: anchor(position.after) }, INVALID_MOVE)
        : positionAtEnd(siblings.filter((s) => s.id !== section.id));
      await updateSection(tx, section.id, { position: key });
      await touchSite(tx, site.id);
    });
    return c.json(await respond(c, organizationId, siteId, access, section.id), 200);
  });
}
