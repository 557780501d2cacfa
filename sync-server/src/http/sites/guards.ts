import type { Context } from 'hono';
import type { OrgAccess } from '../../core/access/callerAccess';
import {
  siteForDelete as deletableOf,
  siteForRead as readerOf,
  siteForWrite as writerOf,
  type SiteReader,
} from '../../core/sites/siteAccess';
import { spaceForSite as spaceInOrg } from '../../core/sites/newSpace';
import type { SiteRow } from '../../store/sites';
import type { AppEnv } from '../env';

type Ctx = Context<AppEnv>;

export type { SiteReader } from '../../core/sites/siteAccess';

/** Organization roles that manage sites. */
export { SITE_MANAGER_ROLE } from '../../core/sites/structureRead';

/** A site the caller may read (members, or the site's audience): 404 otherwise. */
export function siteForRead(c: Ctx, orgId: string, siteId: string, shareKey?: string): Promise<SiteReader> {
  return readerOf(c.get('deps').db, c.get('access'), orgId, siteId, shareKey);
}

/** A site the caller may change: 404 when they cannot see it, 403 without the create role. */
export function siteForWrite(c: Ctx, orgId: string, siteId: string): Promise<{ site: SiteRow; access: OrgAccess }> {
  return writerOf(c.get('deps').db, c.get('access'), orgId, siteId);
}

/** The site a delete acts on; undefined when there is nothing the caller could delete (204). */
export function siteForDelete(c: Ctx, orgId: string, siteId: string): Promise<SiteRow | undefined> {
  return deletableOf(c.get('deps').db, c.get('access'), orgId, siteId);
}

/** A space of the same organization the caller can see, named in a body; 404 otherwise. */
export function spaceForSite(c: Ctx, orgId: string, spaceId: string, access: OrgAccess) {
  return spaceInOrg(c.get('deps').db, orgId, spaceId, access);
}
