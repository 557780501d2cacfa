import type { OpenAPIHono } from '@hono/zod-openapi';
import type { SiteCustomizationSettings } from '@quire/shared/schemas/siteCustomization';
import type { Context } from 'hono';
import { templateConditions } from '../../core/sites/adaptiveSchema';
import { siteSettings, siteSpaceSettings } from '../../core/sites/customization';
import {
  createSite,
  deleteSite,
  publishSite,
  replaceAdaptiveSchema,
  type SiteWithCount,
  sitesOf,
  updateSiteSettings,
  withSiteSpaceCount,
} from '../../core/sites/siteSettings';
import { readSiteStructure } from '../../core/sites/structureRead';
import { forgetSiteHostnames } from '../../sites/hostnames';
import type { SiteRow } from '../../store/sites';
import type { SpaceRow } from '../../store/spaces';
import { memoryPage } from '../../core/content/memoryPage';
import type { AppEnv } from '../env';
import { notFound } from '@quire/shared/domainErrors';
import { requireOrg } from '../guards';
import { envelope } from '../../core/views/listing';
import { baseUrl } from '../urls';
import { registerSiteCustomization } from './customization/handlers';
import { siteForDelete, siteForRead, siteForWrite, spaceForSite } from './guards';
import { presentSite, publishedBase, SiteStructure } from '../../core/views/site';
import { registerSiteRedirects } from './redirects/handlers';
import * as r from './routes';
import { registerSiteSectionGroups } from './sectionGroups/handlers';
import { registerSiteSections } from './sections/handlers';
import { registerSiteSpaces } from './siteSpaces/handlers';

type Ctx = Context<AppEnv>;

/** The site as the caller sees it: a manager, a member reading, or one of its audience (neither). */
function respondSite(c: Ctx, { site, siteSpaces }: SiteWithCount, manager: boolean, member = true) {
  return presentSite(site, { base: baseUrl(c), manager, member, siteSpaces });
}

/** The visitor schema; whoever reads the site reads it, its managers replace it. */
function presentAdaptiveSchema(c: Context<AppEnv>, site: SiteRow, manager: boolean) {
  return {
    object: 'site-adaptive-schema' as const,
    jsonSchema: site.adaptive_schema ?? {},
    updatedAt: (site.adaptive_schema_updated_at as Date).toISOString(),
    urls: { location: `${baseUrl(c)}/v1/orgs/${site.org_id}/sites/${site.id}/adaptive-schema` },
    permissions: { view: true, edit: manager },
  };
}

/** Every site operation: sites, sections, section groups, site spaces, customization, redirects. */
export function registerSites(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listSites, async (c) => {
    const { organizationId } = c.req.valid('param');
    const q = c.req.valid('query');
    const { page, counts, manager } = await sitesOf(c.get('deps').db, c.get('access'), organizationId, q, q);
    const base = baseUrl(c);
    return c.json(
      envelope(page, (s) => presentSite(s, { base, manager, member: true, siteSpaces: counts.get(s.id) ?? 0 })),
      200,
    );
  });

  app.openapi(r.createSite, async (c) => {
    const { organizationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId, 'manageSites');
    const b = c.req.valid('json');
    const spaces: SpaceRow[] = [];
    for (const id of new Set(b.spaces ?? [])) spaces.push(await spaceForSite(c, organizationId, id, access));
    return c.json(respondSite(c, await createSite(c.get('deps').db, organizationId, b, spaces), true), 200);
  });

  app.openapi(r.getSite, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site, manager, access } = await siteForRead(c, organizationId, siteId);
    return c.json(respondSite(c, await withSiteSpaceCount(c.get('deps').db, site), manager, access.isMember), 200);
  });

  app.openapi(r.deleteSite, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const site = await siteForDelete(c, organizationId, siteId);
    if (!site) return c.body(null, 204);
    await deleteSite(c.get('deps').db, organizationId, siteId);
    forgetSiteHostnames();
    return c.body(null, 204);
  });

  app.openapi(r.updateSite, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    const b = c.req.valid('json');
    const updated = await updateSiteSettings(c.get('deps'), site, b);
    if (b.hostname !== undefined) forgetSiteHostnames();
    return c.json(respondSite(c, updated, true), 200);
  });

  app.openapi(r.getAdaptiveSchema, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site, manager } = await siteForRead(c, organizationId, siteId);
    if (!site.adaptive_schema) throw notFound('visitor attributes schema');
    return c.json(presentAdaptiveSchema(c, site, manager), 200);
  });

  app.openapi(r.putAdaptiveSchema, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    const updated = await replaceAdaptiveSchema(c.get('deps').db, site, c.req.valid('json').jsonSchema);
    return c.json(presentAdaptiveSchema(c, updated, true), 200);
  });

  app.openapi(r.getTemplateConditions, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForRead(c, organizationId, siteId);
    const conditions = site.adaptive_schema ? templateConditions(site.adaptive_schema) : [];
    // Keyed by position, so pages follow the schema's order of claims.
    const page = memoryPage(
      conditions.map((condition, i) => ({ condition, key: String(i).padStart(6, '0') })),
      (x) => x.key,
      c.req.valid('query'),
    );
    return c.json(
      envelope(page, (x) => x.condition),
      200,
    );
  });

  app.openapi(r.getPublishedSite, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const { site, access, manager } = await siteForRead(c, organizationId, siteId, c.req.valid('query').shareKey);
    const [read, counted] = await Promise.all([readSiteStructure(db, site, access), withSiteSpaceCount(db, site)]);
    const structure = new SiteStructure(read, access, baseUrl(c));
    const siteSpaces: Record<string, SiteCustomizationSettings> = {};
    for (const ss of structure.siteSpaces) siteSpaces[ss.id] = siteSpaceSettings(site.customization, ss.customization);
    return c.json(
      {
        object: 'published-content-site' as const,
        site: respondSite(c, counted, manager, access.isMember),
        structure: structure.published(),
        customizations: { site: siteSettings(site.customization), siteSpaces },
        scripts: [],
        urls: {
          location: `${baseUrl(c)}/v1/orgs/${site.org_id}/sites/${site.id}/published`,
          published: `${publishedBase(baseUrl(c), site)}/`,
        },
        permissions: { view: true, edit: manager },
      },
      200,
    );
  });

  app.openapi(r.publishSite, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    return c.json(respondSite(c, await publishSite(c.get('deps').db, site, c.get('caller').user.id), true), 200);
  });

  registerSiteSections(app);
  registerSiteSectionGroups(app);
  registerSiteSpaces(app);
  registerSiteCustomization(app);
  registerSiteRedirects(app);
}
