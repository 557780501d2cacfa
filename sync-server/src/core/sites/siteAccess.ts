import { forbidden, notFound } from '@quire/shared/domainErrors';
import { type Access, OrgAccess } from '../access/callerAccess';
import { sameSecret } from '../security/secrets';
import { SITE_MANAGER_ROLE } from './structureRead';
import type { Db } from '../../store/db';
import { getSite, type SiteRow } from '../../store/sites';
import { mayOrganization } from '../policies/organizations';

/** Who reads a site: a member of its organization, or an outsider let in by its audience. */
export interface SiteReader {
  site: SiteRow;
  access: OrgAccess;
  /** May change the site (create role or more in its organization). */
  manager: boolean;
}

/**
 * A site the caller may read. Members of its organization (read role or more) read every
 * site; anyone else reads a published site open to its audience (public, unlisted, or
 * share-link with the right `shareKey`), and gets 404, as for an unknown id, otherwise.
 */
export async function siteForRead(db: Db, access: Access, orgId: string, siteId: string, shareKey?: string): Promise<SiteReader> {
  const [site, orgAccess] = await Promise.all([getSite(db, orgId, siteId), access.org(orgId)]);
  if (!site) throw notFound('site');
  if (mayOrganization(orgAccess, 'readContent')) {
    return { site, access: orgAccess, manager: mayOrganization(orgAccess, 'manageSites') };
  }
  const open =
    site.visibility === 'public' ||
    site.visibility === 'unlisted' ||
    (site.visibility === 'share-link' && !!shareKey && sameSecret(shareKey, site.share_key));
  if (!site.published || !open) throw notFound('site');
  return { site, access: new OrgAccess(orgId, access.userId, undefined, [], new Map()), manager: false };
}

/**
 * A site the caller may change: 404 when they cannot see the organization or the site,
 * 403 when they can but lack the create role.
 */
export async function siteForWrite(db: Db, access: Access, orgId: string, siteId: string): Promise<{ site: SiteRow; access: OrgAccess }> {
  const orgAccess = await access.org(orgId);
  if (!orgAccess.isMember) throw notFound('organization');
  const site = await getSite(db, orgId, siteId);
  if (!site) throw notFound('site');
  if (!mayOrganization(orgAccess, 'manageSites')) throw forbidden(`This needs the ${SITE_MANAGER_ROLE} role in the organization.`);
  return { site, access: orgAccess };
}

/**
 * The site a delete acts on, or undefined when there is nothing the caller could delete (not
 * a member, or no such site): a delete of something already gone answers 204 either way.
 * A member without the create role is refused (403).
 */
export async function siteForDelete(db: Db, access: Access, orgId: string, siteId: string): Promise<SiteRow | undefined> {
  const orgAccess = await access.org(orgId);
  if (!orgAccess.isMember || !(await getSite(db, orgId, siteId))) return undefined;
  return (await siteForWrite(db, access, orgId, siteId)).site;
}
