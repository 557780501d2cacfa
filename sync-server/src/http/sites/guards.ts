import type { Context } from 'hono';
import { OrgAccess } from '../../core/access';
import { atLeast } from '../../core/roles';
import { sameSecret } from '../../sites/gate';
import { getSite, type SiteRow } from '../../store/sites';
import { spaceForSite as spaceInOrg } from '../../core/sites/newSpace';
import type { AppEnv } from '../env';
import { forbidden, notFound } from '@quire/shared/apiErrors';

type Ctx = Context<AppEnv>;

/** Who reads a site: a member of its organization, or an outsider let in by its audience. */
export interface SiteReader {
  site: SiteRow;
  access: OrgAccess;
  /** May change the site (create role or more in its organization). */
  manager: boolean;
}

/** Organization roles that manage sites. */
export { SITE_MANAGER_ROLE } from '../../core/sites/structureRead';
import { SITE_MANAGER_ROLE } from '../../core/sites/structureRead';

/**
 * A site the caller may read. Members of its organization (read role or more) read every
 * site; anyone else reads a published site open to its audience (public, unlisted, or
 * share-link with the right `shareKey`), and gets 404, as for an unknown id, otherwise.
 */
export async function siteForRead(c: Ctx, orgId: string, siteId: string, shareKey?: string): Promise<SiteReader> {
  const { db } = c.get('deps');
  const [site, access] = await Promise.all([getSite(db, orgId, siteId), c.get('access').org(orgId)]);
  if (!site) throw notFound('site');
  if (access.isMember && atLeast(access.orgRole, 'read')) return { site, access, manager: atLeast(access.orgRole, SITE_MANAGER_ROLE) };
  const open =
    site.visibility === 'public' ||
    site.visibility === 'unlisted' ||
    (site.visibility === 'share-link' && !!shareKey && sameSecret(shareKey, site.share_key));
  if (!site.published || !open) throw notFound('site');
  return { site, access: new OrgAccess(orgId, c.get('caller').user.id, undefined, [], new Map()), manager: false };
}

/**
 * A site the caller may change: 404 when they cannot see the organization or the site,
 * 403 when they can but lack the create role.
 */
export async function siteForWrite(c: Ctx, orgId: string, siteId: string): Promise<{ site: SiteRow; access: OrgAccess }> {
  const { db } = c.get('deps');
  const access = await c.get('access').org(orgId);
  if (!access.isMember) throw notFound('organization');
  const site = await getSite(db, orgId, siteId);
  if (!site) throw notFound('site');
  if (!atLeast(access.orgRole, SITE_MANAGER_ROLE)) throw forbidden(`This needs the ${SITE_MANAGER_ROLE} role in the organization.`);
  return { site, access };
}

/** A space of the same organization the caller can see, named in a body; 404 otherwise. */
export function spaceForSite(c: Ctx, orgId: string, spaceId: string, access: OrgAccess) {
  return spaceInOrg(c.get('deps').db, orgId, spaceId, access);
}
