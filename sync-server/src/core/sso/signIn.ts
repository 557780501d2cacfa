import { DomainError } from '@quire/shared/domainErrors';
import type { Profile } from '@node-saml/node-saml';
import type { Role } from '@quire/shared';
import type { SsoSignIn } from '@quire/shared/schemas/saml';
import type { Db, Queryable } from '../../store/db';
import { addMember, getMembership } from '../../store/members';
import { getOrg } from '../../store/organizations';
import * as saml from '../../store/saml';
import type { SamlProviderRow } from '../../store/saml';
import { upsertTeamMember } from '../../store/teams';
import { createToken } from '../../store/tokens';
import { type UserRow, getUserByEmail, insertUnverifiedUser } from '../../store/users';
import { REQUEST_MAX_AGE_MS, samlFor } from './serviceProvider';

/** A SAML response that does not sign anyone in; the message says why, for the person at the browser. */
export class SamlRefused extends DomainError {
  constructor(kind: 'invalid' | 'unauthenticated' | 'forbidden', message: string) {
    super(kind, message);
  }
}

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'Email',
  'emailAddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = [
  'displayName',
  'name',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
  'urn:oid:2.16.840.1.113730.3.1.241',
];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function first(profile: Profile, names: string[]): string | undefined {
  for (const n of names) {
    const v = profile[n];
    const s = Array.isArray(v) ? v[0] : v;
    if (typeof s === 'string' && s.trim()) return s.trim();
  }
  return undefined;
}

/** node-saml's reasons, reworded for a person who only wanted to sign in. */
function explain(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  if (/signature/i.test(m)) return "its signature does not verify against the identity provider's certificate";
  if (/expired|NotOnOrAfter|NotBefore|not yet valid|clock/i.test(m)) return 'it is outside its validity window (expired or not yet valid)';
  if (/audience/i.test(m)) return 'it is meant for another service (audience mismatch)';
  if (/InResponseTo/i.test(m)) return 'it does not answer a pending sign-in request of this server (already used, expired or never sent)';
  if (/provider returned/i.test(m)) return `the identity provider reports an error (${m.replace(/^SAML provider returned /, '')})`;
  if (/subject confirmation/i.test(m)) return 'its subject confirmation is expired or invalid';
  return m.replace(/\.$/, '');
}

interface AssertionFacts {
  id: string;
  notOnOrAfter: Date;
}

/** The verified assertion's id and end of validity: replay protection needs both. */
function assertionFacts(profile: Profile): AssertionFacts {
  const assertion = (profile.getAssertion?.() as { Assertion?: { $?: { ID?: string }; Conditions?: { $?: { NotOnOrAfter?: string } }[] } })
    ?.Assertion;
  const id = assertion?.$?.ID;
  const end = assertion?.Conditions?.[0]?.$?.NotOnOrAfter;
  if (!id) throw new SamlRefused('unauthenticated', 'The SAML response was refused: its assertion has no ID.');
  if (!end || Number.isNaN(Date.parse(end))) {
    throw new SamlRefused(
      'unauthenticated',
      'The SAML response was refused: its assertion has no Conditions NotOnOrAfter, so it would never expire.',
    );
  }
  return { id, notOnOrAfter: new Date(end) };
}

/** Who a verified SAML response signed in, inside the transaction that recorded it. */
export interface SamlSignedIn {
  user: UserRow;
  orgId: string;
  /** The account joined the organization with this sign-in. */
  joined: boolean;
}

/**
 * Consumes a SAML response posted to a provider's ACS URL and answers with a new API token
 * of the person it signs in (see `signInWithSamlResponse`). The token is recorded as an SSO
 * token of the provider's organization, which is the only one it reaches (see enforcement.ts).
 */
export function consumeSamlResponse(db: Db, provider: SamlProviderRow, base: string, samlResponse: string): Promise<SsoSignIn> {
  return signInWithSamlResponse(db, provider, base, samlResponse, async (tx, { user, orgId, joined }) => {
    const token = await createToken(tx, user.id, undefined, `SSO sign-in through ${provider.label}`.slice(0, 200));
    await saml.recordSsoToken(tx, token, orgId, provider.id, user.id);
    return {
      object: 'sso-sign-in' as const,
      token,
      user: { id: user.id, email: user.email, displayName: user.display_name },
      organization: orgId,
      created: joined,
    };
  });
}

/**
 * Verifies a SAML response posted to a provider's ACS URL and signs its subject in:
 * checks it (signature against the provider's certificate, issuer, audience, time
 * window, the request it answers), refuses an assertion already consumed, then signs in
 * a member of the provider's organization or creates a new account there (the provider's
 * default role and team; its address unverified, as only the provider vouches for it).
 * An existing account that is not a member is refused: a provider cannot speak for users
 * of other organizations. `then` runs in the same transaction with who signed in: it
 * issues what that sign-in is for (a token, or a desktop app's one-time code).
 */
export async function signInWithSamlResponse<T>(
  db: Db,
  provider: SamlProviderRow,
  base: string,
  samlResponse: string,
  then: (tx: Queryable, signedIn: SamlSignedIn) => Promise<T>,
): Promise<T> {
  const instance = await samlFor(db, provider, base);
  let profile: Profile | null;
  try {
    ({ profile } = await instance.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (err) {
    throw new SamlRefused('unauthenticated', `The SAML response was refused: ${explain(err)}.`);
  }
  if (!profile) throw new SamlRefused('unauthenticated', 'The SAML response was refused: it carries no assertion.');
  if (profile.issuer !== provider.entity_id) {
    throw new SamlRefused(
      'unauthenticated',
      `The SAML response was refused: it was issued by "${profile.issuer ?? 'nobody'}", not by this provider's entity id.`,
    );
  }
  const facts = assertionFacts(profile);
  const email = first(profile, EMAIL_ATTRIBUTES) ?? profile.nameID;
  if (!email || !EMAIL.test(email)) {
    throw new SamlRefused('invalid', 'The SAML response names no email address (an email attribute, or an email-format NameID).');
  }
  const displayName = first(profile, NAME_ATTRIBUTES);

  return db.transaction(async (tx) => {
    // Kept past the assertion's own expiry plus the tolerated skew, after which the window check refuses it anyway.
    const keepUntil = new Date(Math.max(facts.notOnOrAfter.getTime(), Date.now()) + REQUEST_MAX_AGE_MS);
    if (!(await saml.consumeAssertion(tx, provider.id, facts.id, keepUntil))) {
      throw new SamlRefused('unauthenticated', 'The SAML response was refused: its assertion was already used to sign in (replay).');
    }
    const org = await getOrg(tx, provider.org_id);
    if (!org) throw new SamlRefused('forbidden', 'The organization of this identity provider no longer exists.');
    // The provider speaks for its own organization only: it may sign in that organization's
    // members, or create a new account there, but never an account that exists elsewhere.
    const address = email.toLowerCase();
    const known = await getUserByEmail(tx, address);
    const user = known ?? (await insertUnverifiedUser(tx, address, displayName));
    const existing = user && (await getMembership(tx, org.id, user.id));
    if (!user || (known && !existing)) {
      throw new SamlRefused(
        'forbidden',
        `The account ${address} is not a member of this organization, so its identity provider cannot sign it in; an administrator of the organization can invite it first.`,
      );
    }
    if (existing?.disabled) throw new SamlRefused('forbidden', 'Your membership of this organization is disabled; ask an administrator.');
    if (!existing) {
      await addMember(tx, org.id, user.id, provider.default_role as Role | null);
      if (provider.default_team_id) await upsertTeamMember(tx, provider.default_team_id, user.id, undefined);
    }
    await tx.query('UPDATE org_members SET sso = true, last_seen_at = now() WHERE org_id = $1 AND user_id = $2', [org.id, user.id]);
    return then(tx, { user, orgId: org.id, joined: !existing });
  });
}
