import type { Role } from '@quire/shared';
import { badRequest, notFound } from '@quire/shared/domainErrors';
import { SignJWT } from 'jose';
import type { Access, OrgAccess } from '../access/callerAccess';
import { loadOrgAccess } from '../access/callerAccess';
import type { Caller } from '../access/callers';
import { serverSecret } from '../security/secrets';
import type { Db } from '../../store/db';
import { addMember, getMembership, markMemberSeen } from '../../store/members';
import { deleteLinkInvite, getOrg, listOrgsOfUser, type OrgRow, orgsWithEmailDomain } from '../../store/organizations';
import type { Page, PageRequest } from '../../store/paginate';
import { allProviders, ssoTokenOrg } from '../../store/saml';
import { ensureUser } from '../../store/users';

/**
 * The caller joins an organization that opens itself to their verified email domain, with
 * its default role. Already a member: nothing changes. Not opened to them: it answers as
 * an unknown id (a 403 would confirm it exists).
 */
export async function joinOrganization(db: Db, caller: Caller, organizationId: string): Promise<void> {
  const org = await getOrg(db, organizationId);
  if (!org) throw notFound('organization');
  const user = caller.user;
  // A token from a SAML sign-in acts in its own organization only. Elsewhere it is a stranger,
  // even to an organization its user belongs to: asked first, so this route answers it as
  // every other route of that organization does.
  const scope = await ssoTokenOrg(db, caller.tokenId);
  if (scope && scope !== org.id) throw notFound('organization');
  if (await getMembership(db, org.id, user.id)) return;
  // Nor does it join anything: its own organization made its user a member at sign-in.
  if (scope) throw notFound('organization');
  const domain = user.email.split('@')[1]?.toLowerCase() ?? '';
  if (!user.email_verified || !org.email_domains.includes(domain)) throw notFound('organization');
  await addMember(db, org.id, user.id, org.default_role ?? 'read');
}

/** Withdraws an invitation link of the organization (nothing to do when it is gone). */
export async function withdrawLinkInvite(db: Db, organizationId: string, inviteId: string): Promise<void> {
  await deleteLinkInvite(db, organizationId, inviteId);
}

export interface Invitation {
  emails: (string | { email: string; role: Role | null })[];
  role?: Role | null;
  sso?: boolean;
}

/**
 * Makes each address a member (creating its user when unknown), with its own role, else the
 * invitation's, else the organization's default; all or none. SSO invitations need a SAML
 * provider to sign them in. Answers the users' ids in the order of the addresses.
 */
export async function inviteMembers(db: Db, org: OrgRow, invitation: Invitation): Promise<string[]> {
  if (invitation.sso && (await allProviders(db, org.id)).length === 0) {
    throw badRequest('Invalid body field "sso": the organization has no SAML provider to sign these members in.');
  }
  const fallback = invitation.role === undefined ? (org.default_role ?? 'read') : invitation.role;
  return db.transaction(async (tx) => {
    const out: string[] = [];
    for (const entry of invitation.emails) {
      const { email, role } = typeof entry === 'string' ? { email: entry, role: fallback } : entry;
      const u = await ensureUser(tx, email.toLowerCase());
      await addMember(tx, org.id, u.id, role);
      out.push(u.id);
    }
    return out;
  });
}

/** An organization with the caller's access in it. */
export interface OrgWithAccess {
  org: OrgRow;
  access: OrgAccess;
}

/** The organizations of the caller, a page at a time, each with the caller's access. */
export async function organizationsOf(
  db: Db,
  caller: Caller,
  callerAccess: Access,
  query: PageRequest,
): Promise<{ page: Page<OrgRow>; items: OrgWithAccess[] }> {
  const page = await listOrgsOfUser(db, caller.user.id, caller.tokenId, query);
  const items = await Promise.all(page.rows.map(async (org) => ({ org, access: await callerAccess.org(org.id) })));
  return { page, items };
}

/**
 * The organizations open to an email domain: answered for the caller's own verified domain
 * only, so this cannot be used to map other companies.
 */
export async function organizationsOfOwnDomain(db: Db, caller: Caller, emailDomain: string): Promise<OrgWithAccess[]> {
  const domain = emailDomain.toLowerCase();
  const user = caller.user;
  const own = user.email_verified && user.email.toLowerCase().endsWith(`@${domain}`);
  const orgs = own ? await orgsWithEmailDomain(db, domain) : [];
  return Promise.all(orgs.map(async (org) => ({ org, access: await loadOrgAccess(db, org.id, user.id) })));
}

/**
 * Notes the caller as seen in the organization and answers visitor claims signed for an
 * hour, which the organization's sites accept as a signed-in member's.
 */
export async function pingOrganization(db: Db, caller: Caller, org: OrgRow, issuer: string): Promise<string> {
  const user = caller.user;
  await markMemberSeen(db, org.id, user.id);
  const key = await serverSecret(db, 'visitor-claims');
  return new SignJWT({ email: user.email, name: user.display_name, organization: org.id })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime('1h')
    .setIssuer(issuer)
    .sign(key);
}
