import { badRequest, notFound } from '@quire/shared/domainErrors';
import type { UpdateSiteBody } from '@quire/shared/schemas/site';
import type { Access, OrgAccess } from '../access/callerAccess';
import type { Deps } from '../platform/deps';
import { orgSeenBy } from '../access/resourceAccess';
import { adaptiveSchemaError } from './adaptiveSchema';
import { recordWebhookEvent } from '../webhooks/events';
import { hostnameProven, isReservedHostname } from './hostnameOwnership';
import { addSiteSpace, slugify } from './structure';
import { clearDefaultContentSite } from '../../store/organizations';
import * as sites from '../../store/sites';
import { getSection, getSiteSpace, setSectionDefaultSiteSpace } from '../../store/sitesStructure';
import type { SpaceRow } from '../../store/spaces';
import type { Db } from '../../store/db';
import type { PageRequest } from '../../store/paginate';
import { mayOrganization } from '../policies/organizations';

/** Where the server publishes a site: `/s/<organization>/<basename>`, no trailing slash. */
export function publishedBase(base: string, site: Pick<sites.SiteRow, 'org_id' | 'basename'>): string {
  return `${base}/s/${site.org_id}/${site.basename}`;
}

/** A site as it is presented: its row and how many site spaces it has. */
export interface SiteWithCount {
  site: sites.SiteRow;
  siteSpaces: number;
}

/** The site with its count of site spaces, read now. */
export async function withSiteSpaceCount(db: Db, site: sites.SiteRow): Promise<SiteWithCount> {
  const counts = await sites.siteSpaceCounts(db, [site.id]);
  return { site, siteSpaces: counts.get(site.id) ?? 0 };
}

/**
 * A page of an organization's sites (members with a role read them all), with their counts
 * of site spaces and whether the caller manages sites there.
 */
export async function sitesOf(
  db: Db,
  access: Access,
  orgId: string,
  filters: sites.SiteFilters,
  page: PageRequest,
): Promise<{ page: Awaited<ReturnType<typeof sites.listSites>>; counts: Map<string, number>; manager: boolean; access: OrgAccess }> {
  const { access: orgAccess } = await orgSeenBy(db, access, orgId, 'readContent');
  const found = await sites.listSites(db, orgId, filters, page);
  const counts = await sites.siteSpaceCounts(
    db,
    found.rows.map((s) => s.id),
  );
  return { page: found, counts, manager: mayOrganization(orgAccess, 'manageSites'), access: orgAccess };
}

/** Replaces the JSON schema of a site's visitor attributes; 400 when it is not one the site can use. */
export async function replaceAdaptiveSchema(db: Db, site: sites.SiteRow, jsonSchema: Record<string, unknown>): Promise<sites.SiteRow> {
  const problem = adaptiveSchemaError(jsonSchema);
  if (problem) throw badRequest(`Invalid body field "jsonSchema": ${problem}.`);
  return sites.updateSite(db, site.id, { adaptiveSchema: jsonSchema });
}

/** Creates an unpublished site publishing `spaces` (already checked readable), under a basename free in the organization. */
export async function createSite(
  db: Db,
  organizationId: string,
  fields: { title?: string; type?: sites.SiteRow['type']; visibility?: sites.SiteRow['visibility'] },
  spaces: SpaceRow[],
): Promise<SiteWithCount> {
  const title = fields.title ?? spaces[0]?.title ?? 'Untitled site';
  const site = await db.transaction(async (tx) => {
    const basename = await sites.freeBasename(tx, organizationId, slugify(title, 'docs'));
    const created = await sites.createSite(tx, organizationId, {
      title,
      type: fields.type ?? 'basic',
      visibility: fields.visibility ?? 'public',
      basename,
    });
    for (const space of spaces) await addSiteSpace(tx, created, space, null);
    return (await sites.getSite(tx, organizationId, created.id)) as sites.SiteRow;
  });
  return withSiteSpaceCount(db, site);
}

/** Deletes a site; the organization's default content no longer points at it. */
export async function deleteSite(db: Db, organizationId: string, siteId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await clearDefaultContentSite(tx, organizationId, siteId);
    await sites.deleteSite(tx, organizationId, siteId);
  });
}

/**
 * Changes a site's settings. Every check runs first, so a refused write changes nothing: a
 * basename free in the organization, a hostname that is not the server's own and that no
 * other site holds unless this site proves it (a DNS record asked on every write of the
 * hostname: a proven claim takes the name from any other site, so nobody can squat a name
 * they do not control), default site space and section of this site.
 */
export async function updateSiteSettings(deps: Deps, site: sites.SiteRow, b: UpdateSiteBody): Promise<SiteWithCount> {
  const { db, config } = deps;
  if (b.basename && (await sites.freeBasename(db, site.org_id, b.basename, site.id)) !== b.basename) {
    throw badRequest('Invalid body field "basename": already used by another site of the organization.');
  }
  if (b.hostname && isReservedHostname(config, b.hostname)) {
    throw badRequest('Invalid body field "hostname": it is a name of this server itself, which no site may take.');
  }
  const proven = b.hostname ? await hostnameProven(config, b.hostname, site.id) : false;
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
  return withSiteSpaceCount(db, updated);
}

/** Publishes a site (once: publishing a published site changes nothing), with its `site.published` event. */
export async function publishSite(db: Db, site: sites.SiteRow, actorId: string): Promise<SiteWithCount> {
  const updated = site.published
    ? site
    : await db.transaction(async (tx) => {
        const row = await sites.updateSite(tx, site.id, { published: true });
        await recordWebhookEvent(tx, {
          type: 'site.published',
          orgId: site.org_id,
          data: (base) => ({
            site: { id: site.id, url: `${base}/v1/orgs/${site.org_id}/sites/${site.id}`, published: `${publishedBase(base, row)}/` },
            actor: { id: actorId },
          }),
        });
        return row;
      });
  return withSiteSpaceCount(db, updated);
}
