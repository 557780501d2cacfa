import type { SiteCustomizationSettings } from '@quire/shared/schemas/siteCustomization';
import { notFound } from '@quire/shared/domainErrors';
import { orgSeenBy } from '../access/resourceAccess';
import { memoryPage } from '../content/memoryPage';
import type { CommandContext } from '../platform/deps';
import { mayOrganization } from '../policies/organizations';
import { envelope } from '../views/listing';
import { presentAdaptiveSchema, presentSite, publishedBase, SiteStructure } from '../views/site';
import { templateConditions } from './adaptiveSchema';
import { siteSettings, siteSpaceSettings } from './customization';
import { siteForRead } from './siteAccess';
import { readSiteStructure } from './structureRead';
import type { PageRequest } from '../../store/paginate';
import * as sites from '../../store/sites';

/*
 * The reads of the `/v1` site operations. Members with a role read every site of their
 * organization; anyone else reads a published site open to its audience (siteAccess.ts).
 */

type SiteRef = { organizationId: string; siteId: string };

/** A page of an organization's sites (members with a role read them all), with their counts of site spaces. */
export async function listSites(ctx: CommandContext, input: { organizationId: string; query: sites.SiteFilters & PageRequest }) {
  const { db } = ctx.deps;
  const { org, access } = await orgSeenBy(db, ctx.access, input.organizationId, 'readContent');
  const page = await sites.listSites(db, org.id, input.query, input.query);
  const counts = await sites.siteSpaceCounts(
    db,
    page.rows.map((s) => s.id),
  );
  const manager = mayOrganization(access, 'manageSites');
  return envelope(page, (s) => presentSite(s, { base: ctx.baseUrl, manager, member: true, siteSpaces: counts.get(s.id) ?? 0 }));
}

export async function getSite(ctx: CommandContext, input: SiteRef) {
  const { db } = ctx.deps;
  const { site, manager, access } = await siteForRead(db, ctx.access, input.organizationId, input.siteId);
  const counts = await sites.siteSpaceCounts(db, [site.id]);
  return presentSite(site, { base: ctx.baseUrl, manager, member: access.isMember, siteSpaces: counts.get(site.id) ?? 0 });
}

/** The visitor schema of a site; 404 when it has none. */
export async function getAdaptiveSchema(ctx: CommandContext, input: SiteRef) {
  const { site, manager } = await siteForRead(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
  if (!site.adaptive_schema) throw notFound('visitor attributes schema');
  return presentAdaptiveSchema(site, ctx.baseUrl, manager);
}

/** The conditions a page can be shown on, from the site's visitor schema, in its order of claims. */
export async function listTemplateConditions(ctx: CommandContext, input: SiteRef & { page: PageRequest }) {
  const { site } = await siteForRead(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
  const conditions = site.adaptive_schema ? templateConditions(site.adaptive_schema) : [];
  // Keyed by position, so pages follow the schema's order of claims.
  const page = memoryPage(
    conditions.map((condition, i) => ({ condition, key: String(i).padStart(6, '0') })),
    (x) => x.key,
    input.page,
  );
  return envelope(page, (x) => x.condition);
}

/** The site as published: its structure and customization, as its reader (a member or its audience) sees them. */
export async function getPublishedSite(ctx: CommandContext, input: SiteRef & { shareKey?: string }) {
  const { db } = ctx.deps;
  const base = ctx.baseUrl;
  const { site, access, manager } = await siteForRead(db, ctx.access, input.organizationId, input.siteId, input.shareKey);
  const [read, counts] = await Promise.all([readSiteStructure(db, site, access), sites.siteSpaceCounts(db, [site.id])]);
  const structure = new SiteStructure(read, access, base);
  const siteSpaces: Record<string, SiteCustomizationSettings> = {};
  for (const ss of structure.siteSpaces) siteSpaces[ss.id] = siteSpaceSettings(site.customization, ss.customization);
  return {
    object: 'published-content-site' as const,
    site: presentSite(site, { base, manager, member: access.isMember, siteSpaces: counts.get(site.id) ?? 0 }),
    structure: structure.published(),
    customizations: { site: siteSettings(site.customization), siteSpaces },
    scripts: [],
    urls: {
      location: `${base}/v1/orgs/${site.org_id}/sites/${site.id}/published`,
      published: `${publishedBase(base, site)}/`,
    },
    permissions: { view: true, edit: manager },
  };
}
