import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { OrgAccess } from '../../../core/access';
import { positionAmong, positionAtEnd } from '../../../core/sites/placement';
import { isWithinGroup, moveIntoGroup, removeSectionGroup, requireGroup, requireSection } from '../../../core/sites/structure';
import { getSite, type SiteRow, touchSite } from '../../../store/sites';
import * as store from '../../../store/sitesStructure';
import type { AppEnv } from '../../env';
import { badRequest, notFound } from '@quire/shared/apiErrors';
import { envelope } from '../../listing';
import { baseUrl } from '../../urls';
import { siteForRead, siteForWrite } from '../guards';
import { SiteStructure } from '../../presenters/site';
import { readSiteStructure } from '../../../core/sites/structureRead';
import * as r from './routes';

type Ctx = Context<AppEnv>;

async function respond(c: Ctx, orgId: string, siteId: string, access: OrgAccess, groupId: string) {
  const { db } = c.get('deps');
  const site = (await getSite(db, orgId, siteId)) as SiteRow;
  const structure = new SiteStructure(await readSiteStructure(db, site, access), access, baseUrl(c));
  const group = structure.groups.find((g) => g.id === groupId);
  if (!group) throw notFound('site section group');
  return structure.group(group);
}

const INVALID_MOVE = 'Invalid body field "position": invalid move site section group position.';

export function registerSiteSectionGroups(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listSectionGroups, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const { site, access } = await siteForRead(c, organizationId, siteId);
    const page = await store.listSectionGroups(db, site.id, c.req.valid('query'));
    const structure = new SiteStructure(await readSiteStructure(db, site, access), access, baseUrl(c));
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
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const b = c.req.valid('json');
    const parent = b.parent ? await requireGroup(db, site.id, b.parent) : undefined;
    const sections: store.SectionRow[] = [];
    for (const id of new Set(b.sections ?? [])) sections.push(await requireSection(db, site.id, id));
    const group = await db.transaction(async (tx) => {
      const siblings = await store.sectionSiblings(tx, site.id, parent?.id ?? null);
      const created = await store.insertSectionGroup(tx, {
        siteId: site.id,
        parentId: parent?.id ?? null,
        title: b.title,
        icon: b.icon,
        position: positionAtEnd(siblings),
      });
      const inside: store.Sibling[] = [];
      for (const s of sections) {
        const position = positionAtEnd(inside);
        inside.push({ kind: 'section', id: s.id, position, seq: s.seq });
        await store.updateSection(tx, s.id, { groupId: created.id, position });
      }
      await touchSite(tx, site.id);
      return created;
    });
    return c.json(await respond(c, organizationId, siteId, access, group.id), 200);
  });

  app.openapi(r.deleteSectionGroup, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteSectionGroupId } = c.req.valid('param');
    const access = await c.get('access').org(organizationId);
    if (!access.isMember || !(await getSite(db, organizationId, siteId))) return c.body(null, 204);
    const { site } = await siteForWrite(c, organizationId, siteId);
    const group = await store.getSectionGroup(db, site.id, siteSectionGroupId);
    if (group) await db.transaction((tx) => removeSectionGroup(tx, site.id, group));
    return c.body(null, 204);
  });

  app.openapi(r.updateSectionGroup, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteSectionGroupId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const group = await requireGroup(db, site.id, siteSectionGroupId);
    const b = c.req.valid('json');
    const parent = b.parentSectionGroupId ? await requireGroup(db, site.id, b.parentSectionGroupId) : undefined;
    if (parent && (await isWithinGroup(db, site.id, parent.id, group.id))) {
      throw badRequest('Invalid body field "parentSectionGroupId": a group cannot go inside itself or one of its own groups.');
    }
    await db.transaction(async (tx) => {
      await store.updateSectionGroup(tx, group.id, { title: b.title, icon: b.icon });
      if (b.parentSectionGroupId !== undefined) {
        await moveIntoGroup(tx, site.id, { kind: 'group', id: group.id, current: group.parent_id }, parent?.id ?? null);
      }
      await touchSite(tx, site.id);
    });
    return c.json(await respond(c, organizationId, siteId, access, group.id), 200);
  });

  app.openapi(r.addSectionToGroup, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteSectionGroupId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const group = await requireGroup(db, site.id, siteSectionGroupId);
    const section = await requireSection(db, site.id, c.req.valid('json').sectionId);
    if (section.group_id !== group.id) {
      await db.transaction(async (tx) => {
        const position = positionAtEnd(await store.sectionSiblings(tx, site.id, group.id));
        await store.updateSection(tx, section.id, { groupId: group.id, position });
        await touchSite(tx, site.id);
      });
    }
    return c.json(await respond(c, organizationId, siteId, access, group.id), 200);
  });

  app.openapi(r.removeSectionFromGroup, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteSectionGroupId, siteSectionId } = c.req.valid('param');
    const access = await c.get('access').org(organizationId);
    if (!access.isMember || !(await getSite(db, organizationId, siteId))) return c.body(null, 204);
    const { site } = await siteForWrite(c, organizationId, siteId);
    const group = await store.getSectionGroup(db, site.id, siteSectionGroupId);
    const section = await store.getSection(db, site.id, siteSectionId);
    if (group && section?.group_id === group.id) {
      await db.transaction(async (tx) => {
        // The section leaves for the group's parent, right after the group.
        const siblings = await store.sectionSiblings(tx, site.id, group.parent_id);
        const position = positionAmong(siblings, section.id, { after: { kind: 'group', id: group.id } }, INVALID_MOVE);
        await store.updateSection(tx, section.id, { groupId: group.parent_id, position });
        await touchSite(tx, site.id);
      });
    }
    return c.body(null, 204);
  });

  app.openapi(r.moveSectionGroup, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteSectionGroupId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const group = await requireGroup(db, site.id, siteSectionGroupId);
    const { position } = c.req.valid('json');
    const anchor = (a: { type: 'site-section' | 'site-section-group'; id: string } | undefined) =>
      a ? { kind: a.type === 'site-section' ? ('section' as const) : ('group' as const), id: a.id } : undefined;
    await db.transaction(async (tx) => {
      const siblings = await store.sectionSiblings(tx, site.id, group.parent_id);
      // Without a position the group goes last among its siblings.
      const key = position
        ? positionAmong(siblings, group.id, { before: anchor(position.before), after: anchor(position.after) }, INVALID_MOVE)
        : positionAtEnd(siblings.filter((s) => s.id !== group.id));
      await store.updateSectionGroup(tx, group.id, { position: key });
      await touchSite(tx, site.id);
    });
    return c.json(await respond(c, organizationId, siteId, access, group.id), 200);
  });
}
