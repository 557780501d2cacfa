import { notFound } from '@quire/shared/domainErrors';
import type { Db } from '../../store/db';
import { ssoTokenOrg } from '../../store/saml';
import { hashToken, userForTokenHash } from '../../store/tokens';
import { getUserSeenBy, type UserRow } from '../../store/users';
import { readModelOf, tags } from '../readModel/readModel';

/** Who a request acts as: the token's user and the token itself. */
export interface Caller {
  user: UserRow;
  tokenId: string;
}

/**
 * What a token is known by once it is stored (its SHA-256): the read model files what it
 * keeps for the token's caller under it, and its invalidations name it.
 */
export function tokenHashOf(token: string): string {
  return hashToken(token);
}

/**
 * The caller of an API token, from the read model when it is there. Only known tokens are
 * kept: revoking one (or changing its user) drops it before the revocation is acknowledged.
 */
export async function callerForToken(db: Db, token: string): Promise<Caller | undefined> {
  const hash = hashToken(token);
  return readModelOf(db).through(`token:${hash}`, async () => {
    const found = await userForTokenHash(db, hash);
    return found && { value: found, tags: [tags.token(hash), tags.user(found.user.id)] };
  });
}

/**
 * A user the caller shares an organization with (or the caller): anyone else answers as an
 * unknown id, so user ids of other organizations reveal nothing. A token an organization's
 * SSO issued sees only that organization.
 */
export async function userSeenBy(db: Db, caller: Caller, userId: string): Promise<UserRow> {
  const scope = await ssoTokenOrg(db, caller.tokenId);
  const user = await getUserSeenBy(db, userId, caller.user.id, scope);
  if (!user) throw notFound('user');
  return user;
}
