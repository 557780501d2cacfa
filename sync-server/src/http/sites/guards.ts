import type { Context } from 'hono';
import {
  siteForDelete as deletableOf,
  siteForRead as readerOf,
  siteForWrite as writerOf,
  type SiteReader,
} from '../../core/sites/siteAccess';
import type { AppEnv } from '../env';

type Ctx = Context<AppEnv>;

/** A site the caller may read (members, or the site's audience): 404 otherwise. */
export function siteForRead(c: Ctx, orgId: string, siteId: string, shareKey?: string): Promise<SiteReader> {
  return readerOf(c.get('deps').db, c.get('access'), orgId, siteId, shareKey);
}

/** A site the caller may change: 404 when they cannot see it, 403 without the create role. */
export function siteForWrite(c: Ctx, orgId: string, siteId: string) {
  return writerOf(c.get('deps').db, c.get('access'), orgId, siteId);
}

/** The site a delete acts on; undefined when there is nothing the caller could delete (204). */
export function siteForDelete(c: Ctx, orgId: string, siteId: string) {
  return deletableOf(c.get('deps').db, c.get('access'), orgId, siteId);
}
