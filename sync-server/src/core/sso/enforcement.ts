import { OrgAccess } from '../access/orgAccess';
import type { Queryable } from '../../store/db';
import { ssoTokenOrg } from '../../store/saml';

export const SSO_REQUIRED_MESSAGE =
  'This organization requires single sign-on: sign in through one of its identity providers (GET /v1/orgs/{organizationId}/sso lists them) and use the token that sign-in gives.';

/**
 * What the caller's token allows in an organization, applied on top of membership.
 *
 * Scope: a token issued by a SAML sign-in reaches only the organization of that identity
 * provider. Anywhere else the caller stands as a stranger (no membership, no grants), so
 * other organizations answer 404 exactly as for an unknown id: a provider, configured by
 * one organization's admin, can never open another organization.
 *
 * SSO enforcement. With `sso` on, members act in the organization only with an API token
 * that a SAML sign-in into it issued; tokens made any other way (the admin command line,
 * the bootstrap token) no longer open it, whether or not the member is an SSO member.
 * Admins are exempt so that a broken identity provider cannot lock everyone out: they can
 * still fix the configuration. A kept-out caller is marked on its `OrgAccess`, which then
 * counts as no membership at all; the guards answer 403 with `SSO_REQUIRED_MESSAGE`.
 */
export async function applySsoEnforcement(db: Queryable, access: OrgAccess, tokenId: string | undefined): Promise<OrgAccess> {
  const scope = tokenId ? await ssoTokenOrg(db, tokenId) : undefined;
  if (scope && scope !== access.orgId) return new OrgAccess(access.orgId, access.userId, undefined, [], new Map());
  const member = access.member;
  if (!member || member.disabled || member.role === 'admin') return access;
  const rows = await db.query<{ sso: boolean }>('SELECT sso FROM organizations WHERE id = $1', [access.orgId]);
  if (!rows[0]?.sso) return access;
  // A token scoped to this organization came from a sign-in into it.
  if (scope !== access.orgId) access.blockedBySso = true;
  return access;
}
