import { badRequest, notFound } from '@quire/shared/domainErrors';
import type { CreateSiteBody, Site, UpdateSiteBody } from '@quire/shared/schemas/site';
import type { CommandContext } from '../platform/deps';
import { orgSeenBy } from '../access/resourceAccess';
import { presentAdaptiveSchema, presentSite, publishedBase } from '../views/site';
import { spaceForSite } from './newSpace';
import { siteForDelete, siteForWrite } from './siteAccess';
import { adaptiveSchemaError } from './adaptiveSchema';
import { recordWebhookEvent } from '../webhooks/events';
import { hostnameProven, isReservedHostname } from './hostnameOwnership';
import { addSiteSpace, slugify } from './structure';
import { clearDefaultContentSite } from '../../store/organizations';
import * as sites from '../../store/sites';
import { getSection, getSiteSpace, setSectionDefaultSiteSpace } from '../../store/sitesStructure';
import type { SpaceRow } from '../../store/spaces';
import type { Db } from '../../store/db';

/*
 * The writes of the `/v1` site operations (the site itself, its settings, its visitor
 * schema, publishing), one function each, taking the caller's context and the operation's
 * input and answering the site as a manager sees it. Sites are managed with the create
 * role in their organization (core/policies/organizations.ts, `manageSites`).
 */

/** The site presented to its manager, with its count of site spaces read now. */
export async function presentedSite(db: Db, site: sites.SiteRow, base: string): Promise<Site> {
  const counts = await sites.siteSpaceCounts(db, [site.id]);
  return presentSite(site, { base, manager: true, member: true, siteSpaces: counts.get(site.id) ?? 0 });
}

/** Replaces the JSON schema of a site's visitor attributes; 400 when it is not one the site can use. */
export async function putAdaptiveSchema(
  ctx: CommandContext,
  input: { organizationId: string; siteId: string; jsonSchema: Record<string, unknown> },
) {
  const { db } = ctx.deps;
  const { site } = await siteForWrite(db, ctx.access, input.organizationId, input.siteId);
  const problem = adaptiveSchemaError(input.jsonSchema);
  if (problem) throw badRequest(`Invalid body field "jsonSchema": ${problem}.`);
  const updated = await sites.updateSite(db, site.id, { adaptiveSchema: input.jsonSchema });
  return presentAdaptiveSchema(updated, ctx.baseUrl, true);
}

/**
 * Creates an unpublished site publishing `spaces` (each one the caller can see in the
 * organization, 404 otherwise), under a basename free in the organization.
 */
export async function createSite(ctx: CommandContext, input: { organizationId: string; fields: CreateSiteBody }): Promise<Site> {
  const { db } = ctx.deps;
  const { organizationId, fields } = input;
  const { access } = await orgSeenBy(db, ctx.access, organizationId, 'manageSites');
  const spaces: SpaceRow[] = [];
  for (const id of new Set(fields.spaces ?? [])) spaces.push(await spaceForSite(db, organizationId, id, access));
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
  return presentedSite(db, site, ctx.baseUrl);
}

/**
 * Deletes a site; the organization's default content no longer points at it. Answers
 * whether a site was deleted: one the caller cannot see, or that is gone, is not.
 */
export async function deleteSite(ctx: CommandContext, input: { organizationId: string; siteId: string }): Promise<boolean> {
  const { db } = ctx.deps;
  const site = await siteForDelete(db, ctx.access, input.organizationId, input.siteId);
  if (!site) return false;
  await db.transaction(async (tx) => {
    await clearDefaultContentSite(tx, site.org_id, site.id);
    await sites.deleteSite(tx, site.org_id, site.id);
  });
  return true;
}

/**
 * Changes a site's settings. Every check runs first, so a refused write changes nothing: a
 * basename free in the organization, a hostname that is not the server's own and that no
 * other site holds unless this site proves it (a DNS record asked on every write of the
 * hostname: a proven claim takes the name from any other site, so nobody can squat a name
 * they do not control), default site space and section of this site.
 */
export async function updateSite(
  ctx: CommandContext,
  input: { organizationId: string; siteId: string; changes: UpdateSiteBody },
): Promise<Site> {
  const { db, config } = ctx.deps;
  const { site } = await siteForWrite(db, ctx.access, input.organizationId, input.siteId);
  const b = input.changes;
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
  return presentedSite(db, updated, ctx.baseUrl);
}

/** Publishes a site (once: publishing a published site changes nothing), with its `site.published` event. */
export async function publishSite(ctx: CommandContext, input: { organizationId: string; siteId: string }): Promise<Site> {
  const { db } = ctx.deps;
  const { site } = await siteForWrite(db, ctx.access, input.organizationId, input.siteId);
  const updated = site.published
    ? site
    : await db.transaction(async (tx) => {
        const row = await sites.updateSite(tx, site.id, { published: true });
        await recordWebhookEvent(tx, {
          type: 'site.published',
          orgId: site.org_id,
          data: (base) => ({
            site: { id: site.id, url: `${base}/v1/orgs/${site.org_id}/sites/${site.id}`, published: `${publishedBase(base, row)}/` },
            actor: { id: ctx.userId },
          }),
        });
        return row;
      });
  return presentedSite(db, updated, ctx.baseUrl);
}
