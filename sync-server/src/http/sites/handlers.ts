import type { OpenAPIHono } from '@hono/zod-openapi';
import type { SiteCustomizationSettings } from '@quire/shared/schemas/siteCustomization';
import type { Context } from 'hono';
import { atLeast } from '../../core/roles';
import { adaptiveSchemaError, templateConditions } from '../../core/sites/adaptiveSchema';
import { siteSettings, siteSpaceSettings } from '../../core/sites/customization';
import { hostnameProven, isReservedHostname } from '../../core/sites/hostnameOwnership';
import { addSiteSpace, slugify } from '../../core/sites/structure';
import { forgetSiteHostnames } from '../../sites/hostnames';
import * as sites from '../../store/sites';
import { clearDefaultContentSite } from '../../store/organizations';
import { getSection, getSiteSpace, setSectionDefaultSiteSpace } from '../../store/sitesStructure';
import type { SpaceRow } from '../../store/spaces';
import { memoryPage } from '../content/memoryPage';
import type { AppEnv } from '../env';
import { badRequest, forbidden, notFound } from '@quire/shared/apiErrors';
import { requireOrg } from '../guards';
import { envelope } from '../listing';
import { baseUrl } from '../urls';
import { registerSiteCustomization } from './customization/handlers';
import { SITE_MANAGER_ROLE, siteForRead, siteForWrite, spaceForSite } from './guards';
import { presentSite, publishedBase, SiteStructure } from '../presenters/site';
import { recordWebhookEvent } from '../../core/webhooks/events';
import { registerSiteRedirects } from './redirects/handlers';
import * as r from './routes';
import { registerSiteSectionGroups } from './sectionGroups/handlers';
import { registerSiteSections } from './sections/handlers';
import { registerSiteSpaces } from './siteSpaces/handlers';

type Ctx = Context<AppEnv>;

/** The site as the caller sees it, freshly read: a manager, a member reading, or one of its audience (neither). */
export async function respondSite(c: Ctx, site: sites.SiteRow, manager: boolean, member = true) {
  const { db } = c.get('deps');
  const counts = await sites.siteSpaceCounts(db, [site.id]);
  return presentSite(site, { base: baseUrl(c), manager, member, siteSpaces: counts.get(site.id) ?? 0 });
}

/** The visitor schema; whoever reads the site reads it, its managers replace it. */
function presentAdaptiveSchema(c: Context<AppEnv>, site: sites.SiteRow, manager: boolean) {
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
    const { db } = c.get('deps');
    const { organizationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId, 'read');
    const q = c.req.valid('query');
    const page = await sites.listSites(db, organizationId, q, q);
    const counts = await sites.siteSpaceCounts(
      db,
      page.rows.map((s) => s.id),
    );
    const base = baseUrl(c);
    const manager = atLeast(access.orgRole, SITE_MANAGER_ROLE);
    return c.json(
      envelope(page, (s) => presentSite(s, { base, manager, member: true, siteSpaces: counts.get(s.id) ?? 0 })),
      200,
    );
  });

  app.openapi(r.createSite, async (c) => {
    const { db } = c.get('deps');
    const { organizationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId, SITE_MANAGER_ROLE);
    const b = c.req.valid('json');
    const spaces: SpaceRow[] = [];
    for (const id of new Set(b.spaces ?? [])) spaces.push(await spaceForSite(c, organizationId, id, access));
    const title = b.title ?? spaces[0]?.title ?? 'Untitled site';
    const site = await db.transaction(async (tx) => {
      const basename = await sites.freeBasename(tx, organizationId, slugify(title, 'docs'));
      const created = await sites.createSite(tx, organizationId, {
        title,
        type: b.type ?? 'basic',
        visibility: b.visibility ?? 'public',
        basename,
      });
      for (const space of spaces) await addSiteSpace(tx, created, space, null);
      return (await sites.getSite(tx, organizationId, created.id)) as sites.SiteRow;
    });
    return c.json(await respondSite(c, site, true), 200);
  });

  app.openapi(r.getSite, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site, manager, access } = await siteForRead(c, organizationId, siteId);
    return c.json(await respondSite(c, site, manager, access.isMember), 200);
  });

  app.openapi(r.deleteSite, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const access = await c.get('access').org(organizationId);
    const site = access.isMember ? await sites.getSite(db, organizationId, siteId) : undefined;
    if (!site) return c.body(null, 204);
    if (!atLeast(access.orgRole, SITE_MANAGER_ROLE)) throw forbidden(`This needs the ${SITE_MANAGER_ROLE} role in the organization.`);
    await db.transaction(async (tx) => {
      // The organization's default content may point at the site: it no longer can.
      await clearDefaultContentSite(tx, organizationId, siteId);
      await sites.deleteSite(tx, organizationId, siteId);
    });
    forgetSiteHostnames();
    return c.body(null, 204);
  });

  app.openapi(r.updateSite, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    const b = c.req.valid('json');
    // Every check first: a refused write changes nothing.
    if (b.basename && (await sites.freeBasename(db, organizationId, b.basename, site.id)) !== b.basename) {
      throw badRequest('Invalid body field "basename": already used by another site of the organization.');
    }
    if (b.hostname && isReservedHostname(c.get('deps').config, b.hostname)) {
      throw badRequest('Invalid body field "hostname": it is a name of this server itself, which no site may take.');
    }
    // Asked on every write of the hostname: setting it again after adding the DNS record proves it.
    const proven = b.hostname ? await hostnameProven(c.get('deps').config, b.hostname, site.id) : false;
    // A proven claim takes the name from any other site, so nobody can squat a name they do not control.
    if (b.hostname && !proven && (await sites.hostnameTaken(db, b.hostname, site.id))) {
      throw badRequest('Invalid body field "hostname": already used by another site.');
    }
    const siteSpace = b.defaultSiteSpace ? await getSiteSpace(db, site.id, b.defaultSiteSpace) : undefined;
    if (b.defaultSiteSpace && !siteSpace) throw notFound('site space');
    if (b.defaultSiteSection && !(await getSection(db, site.id, b.defaultSiteSection))) throw notFound('site section');
    const updated = await db.transaction(async (tx) => {
      if (b.hostname && proven) await sites.releaseHostname(tx, b.hostname, site.id);
      if (siteSpace?.section_id) {
        await setSectionDefaultSiteSpace(tx, siteSpace.section_id, siteSpace.id);
      }
      const changed = await sites.updateSite(tx, site.id, {
        title: b.title,
        visibility: b.visibility,
        basename: b.basename,
        hostname: b.hostname,
        proxy: b.proxy,
        adaptiveContent: b.adaptiveContent?.enabled,
        agentsContext: b.agentsContext,
        defaultSiteSpace: siteSpace && !siteSpace.section_id ? siteSpace.id : undefined,
        defaultSiteSection: b.defaultSiteSection,
      });
      if (b.hostname) await sites.setHostnameProven(tx, site.id, b.hostname, proven);
      return changed;
    });
    if (b.hostname !== undefined) forgetSiteHostnames();
    return c.json(await respondSite(c, updated, true), 200);
  });

  app.openapi(r.getAdaptiveSchema, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { site, manager } = await siteForRead(c, organizationId, siteId);
    if (!site.adaptive_schema) throw notFound('visitor attributes schema');
    return c.json(presentAdaptiveSchema(c, site, manager), 200);
  });

  app.openapi(r.putAdaptiveSchema, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    const { jsonSchema } = c.req.valid('json');
    const problem = adaptiveSchemaError(jsonSchema);
    if (problem) throw badRequest(`Invalid body field "jsonSchema": ${problem}.`);
    const updated = await sites.updateSite(db, site.id, { adaptiveSchema: jsonSchema });
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
    const structure = await SiteStructure.load(db, site, access, baseUrl(c));
    const siteSpaces: Record<string, SiteCustomizationSettings> = {};
    for (const ss of structure.siteSpaces) siteSpaces[ss.id] = siteSpaceSettings(site.customization, ss.customization);
    return c.json(
      {
        object: 'published-content-site' as const,
        site: await respondSite(c, site, manager, access.isMember),
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
    const { db } = c.get('deps');
    const { organizationId, siteId } = c.req.valid('param');
    const { site } = await siteForWrite(c, organizationId, siteId);
    const updated = site.published
      ? site
      : await db.transaction(async (tx) => {
          const row = await sites.updateSite(tx, site.id, { published: true });
          await recordWebhookEvent(tx, {
            type: 'site.published',
            orgId: site.org_id,
            data: (base) => ({
              site: { id: site.id, url: `${base}/v1/orgs/${site.org_id}/sites/${site.id}`, published: `${publishedBase(base, row)}/` },
              actor: { id: c.get('caller').user.id },
            }),
          });
          return row;
        });
    return c.json(await respondSite(c, updated, true), 200);
  });

  registerSiteSections(app);
  registerSiteSectionGroups(app);
  registerSiteSpaces(app);
  registerSiteCustomization(app);
  registerSiteRedirects(app);
}
