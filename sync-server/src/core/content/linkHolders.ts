import { DomainError, notFound } from '@quire/shared/domainErrors';
import { Access } from '../access/callerAccess';
import type { Queryable } from '../../store/db';
import { publishedSiteShowsSpace } from '../../store/sites';
import { getSpace } from '../../store/spaces';
import { tokenOwner } from '../../store/tokens';
import { type LinkHolder, verify } from './exports';

const forbiddenLink = () => new DomainError('forbidden', 'This link is not valid: it was not issued by this server or was altered.');
const expiredLink = () =>
  new DomainError('forbidden', 'This link has expired: read the file or the page again (API or site) for a fresh link.');

/**
 * Whether whoever a link was handed to may still read the space: the API token still
 * exists and opens it (its organization's rules of today, SSO included), or the site is
 * still published and still shows it.
 */
async function holderReaches(db: Queryable, holder: LinkHolder, spaceId: string): Promise<boolean> {
  const space = await getSpace(db, spaceId);
  if (!space || space.deleted_at) return false;
  const id = holder.slice(2);
  if (holder.startsWith('t.')) {
    const userId = await tokenOwner(db, id);
    return !!userId && !!(await new Access(db, userId, id).org(space.org_id)).roleOn(space);
  }
  return publishedSiteShowsSpace(db, id, spaceId);
}

/** The link's holder when it is genuine, current and still has access to the space; otherwise the refusal. */
export async function checkLink(db: Queryable, payload: string, spaceId: string, q: Record<string, string>): Promise<LinkHolder> {
  const checked = await verify(db, payload, q);
  if (!checked.ok) throw checked.reason === 'expired' ? expiredLink() : forbiddenLink();
  // Lost access looks like a file that is not there, as it would through the API.
  if (!(await holderReaches(db, checked.holder, spaceId))) throw notFound('file');
  return checked.holder;
}
