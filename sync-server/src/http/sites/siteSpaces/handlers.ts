import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { OrgAccess } from '../../../core/access';
import { newSpaceTitle } from '../../../core/sites/newSpace';
import { positionAmong, positionAtEnd } from '../../../core/sites/placement';
import { addSiteSpace, removeSiteSpace, requireSection } from '../../../core/sites/structure';
import { getSite, type SiteRow, touchSite } from '../../../store/sites';
import * as store from '../../../store/sitesStructure';
import type { AppEnv } from '../../env';
import { badRequest, notFound } from '@quire/shared/apiErrors';
import { envelope } from '../../listing';
import { baseUrl } from '../../urls';
import { siteForRead, siteForWrite, spaceForSite } from '../guards';
import { SiteStructure } from '../../presenters/site';
import { readSiteStructure } from '../../../core/sites/structureRead';
import { checkCondition, spaceForNewContent } from '../sections/handlers';
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

export async function requireSiteSpace(c: Ctx, siteId: string, id: string) {
  const ss = await store.getSiteSpace(c.get('deps').db, siteId, id);
  if (!ss) throw notFound('site space');
  return ss;
}

const INVALID_MOVE = 'Invalid body field "position": invalid move site space position.';

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
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const b = c.req.valid('json');
    const source = await spaceForNewContent(c, organizationId, access, b);
    let sectionId: string | null = null;
    if (b.sectionId) sectionId = (await requireSection(db, site.id, b.sectionId)).id;
    else if (site.default_section_id) sectionId = site.default_section_id;
    if (source.existing) {
      if (await store.spacePublishedIn(db, site.id, sectionId, source.existing.id))
        throw badRequest(`Invalid body field "spaceId": the space is already published in this ${sectionId ? 'section' : 'site'}.`);
    }
    const ss = await db.transaction(async (tx) => {
      // A new space takes the title itself; an existing one keeps its own, and the site space gets `title`.
      const space = await source.make(tx, newSpaceTitle(b.title, b.template));
      return addSiteSpace(tx, site, space, sectionId, source.existing ? b.title : undefined);
    });
    return c.json(await respond(c, organizationId, siteId, access, ss.id), 200);
  });

  app.openapi(r.deleteSiteSpace, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
    const access = await c.get('access').org(organizationId);
    if (!access.isMember || !(await getSite(db, organizationId, siteId))) return c.body(null, 204);
    const { site } = await siteForWrite(c, organizationId, siteId);
    const ss = await store.getSiteSpace(db, site.id, siteSpaceId);
    if (ss) await db.transaction((tx) => removeSiteSpace(tx, site, ss));
    return c.body(null, 204);
  });

  app.openapi(r.updateSiteSpace, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const ss = await requireSiteSpace(c, site.id, siteSpaceId);
    const b = c.req.valid('json');
    checkCondition(b.condition);
    if (b.spaceId) await spaceForSite(c, organizationId, b.spaceId, access);
    if (b.path && b.path !== ss.path && (await store.takenPaths(db, 'site_spaces', site.id, ss.section_id)).has(b.path)) {
      throw badRequest(`Invalid body field "path": already used by another site space of this ${ss.section_id ? 'section' : 'site'}.`);
    }
    await db.transaction(async (tx) => {
      await store.updateSiteSpace(tx, ss.id, { path: b.path, condition: b.condition, spaceId: b.spaceId, title: b.title });
      await touchSite(tx, site.id);
    });
    return c.json(await respond(c, organizationId, siteId, access, ss.id), 200);
  });

  app.openapi(r.moveSiteSpace, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
    const { site, access } = await siteForWrite(c, organizationId, siteId);
    const ss = await requireSiteSpace(c, site.id, siteSpaceId);
    const { position } = c.req.valid('json');
    const anchor = (a: { siteSpace: string } | undefined) => (a ? { kind: 'site-space' as const, id: a.siteSpace } : undefined);
    await db.transaction(async (tx) => {
      const siblings = await store.siteSpaceSiblings(tx, site.id, ss.section_id);
      // Without a position the site space goes last among its siblings.
      const key = position
        ? positionAmong(siblings, ss.id, { before: anchor(position.before), after: anchor(position.after) }, INVALID_MOVE)
        : positionAtEnd(siblings.filter((s) => s.id !== ss.id));
      await store.updateSiteSpace(tx, ss.id, { position: key });
      await touchSite(tx, site.id);
    });
    return c.json(await respond(c, organizationId, siteId, access, ss.id), 200);
  });
}
