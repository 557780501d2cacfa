import type { DesktopAuthorizeQuery, DesktopToken, DesktopTokenBody } from '@quire/shared/schemas/desktopAuth';
import { badRequest } from '@quire/shared/domainErrors';
import type { Db, Queryable } from '../../store/db';
import type { PublicContext } from '../platform/deps';
import * as store from '../../store/desktopSignIns';
import { getProviderById, recordSsoToken } from '../../store/saml';
import { createToken } from '../../store/tokens';
import { getUser, getUserByEmail } from '../../store/users';
import { activeProvider, signInUrl } from '../sso/providers';
import type { SamlSignedIn } from '../sso/signIn';
import { countWrongPassword, forgetWrongPasswords, passwordLockedUntil } from './lockout';
import { type ScryptCost, verifyPassword } from './passwords';
import { codeHash, randomCode, verifierMatches } from './pkce';

/** How long the person has to get through their identity provider. */
export const PENDING_MAX_AGE_MS = 10 * 60 * 1000;
/** How long a code waits for the app to exchange it: the app does so at once. */
export const CODE_MAX_AGE_MS = 60 * 1000;

/** Where the browser goes once someone signed in: the app's loopback redirect, with the code. */
export interface SignedIn {
  redirect: string;
}

function redirectWithCode(redirectUri: string, code: string, state: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set('code', code);
  url.searchParams.set('state', state);
  return url.toString();
}

function newSignIn(q: DesktopAuthorizeQuery, maxAgeMs: number): store.NewDesktopSignIn {
  return {
    id: randomCode(),
    redirectUri: q.redirect_uri,
    codeChallenge: q.code_challenge,
    state: q.state,
    expiresAt: new Date(Date.now() + maxAgeMs),
  };
}

/** What the sign-in page does with what the person sent. */
export type SignInStep =
  | { kind: 'redirect'; url: string }
  | { kind: 'providers'; providers: store.RequiredProvider[] }
  /** `mismatch`: wrong password or unknown address, alike; `locked`: too many wrong ones lately (see `lockout.ts`). */
  | { kind: 'password'; refused?: 'mismatch' | 'locked' };

/**
 * One step of the sign-in page. An identity provider picked on the page is used; an address
 * whose organization enforces single sign-on goes through its provider (several: the person
 * picks), never a password; anyone else signs in with a password. A wrong password and an
 * unknown address are refused alike.
 */
export async function signInStep(
  ctx: PublicContext,
  input: { request: DesktopAuthorizeQuery; who: { email: string; password?: string; provider?: string } },
): Promise<SignInStep> {
  const { db, config } = ctx.deps;
  const { request: q, who } = input;
  const base = ctx.baseUrl;
  await store.purgeOld(db);
  if (who.provider) return { kind: 'redirect', url: await startSamlSignIn(db, q, who.provider, base) };
  const required = await store.requiredProviders(db, who.email);
  const only = required.length === 1 ? required[0] : undefined;
  if (only) return { kind: 'redirect', url: await startSamlSignIn(db, q, only.id, base) };
  if (required.length > 1) return { kind: 'providers', providers: required };
  if (who.password === undefined) return { kind: 'password' };
  const signedIn = await signInWithPassword(db, q, who.email, who.password, config.passwordCost);
  return typeof signedIn === 'string' ? { kind: 'password', refused: signedIn } : { kind: 'redirect', url: signedIn.redirect };
}

/**
 * Email and password: the app's redirect with a new code, or why not. A locked address is
 * refused before its password is checked; a wrong password counts towards the lock, a right
 * one clears the count.
 */
async function signInWithPassword(
  db: Db,
  q: DesktopAuthorizeQuery,
  email: string,
  password: string,
  cost: ScryptCost,
): Promise<SignedIn | 'mismatch' | 'locked'> {
  if (await passwordLockedUntil(db, email)) return 'locked';
  const user = await getUserByEmail(db, email);
  // Unknown accounts are hashed against a decoy: they take as long as wrong passwords.
  const ok = await verifyPassword(password, user ? await store.passwordHash(db, user.id) : undefined, cost);
  if (!user || !ok) return (await countWrongPassword(db, email)) ? 'locked' : 'mismatch';
  await forgetWrongPasswords(db, email);
  const code = randomCode();
  await store.insertCompleted(db, newSignIn(q, PENDING_MAX_AGE_MS), {
    userId: user.id,
    orgId: null,
    providerId: null,
    codeHash: codeHash(code),
    expiresAt: new Date(Date.now() + CODE_MAX_AGE_MS),
  });
  return { redirect: redirectWithCode(q.redirect_uri, code, q.state) };
}

/**
 * Starts a sign-in through an identity provider: remembers the app's request under a new
 * id, which travels to the provider and back as the SAML RelayState. Answers the
 * provider's sign-in URL.
 */
async function startSamlSignIn(db: Db, q: DesktopAuthorizeQuery, providerId: string, base: string): Promise<string> {
  const provider = await activeProvider(db, providerId);
  const pending = newSignIn(q, PENDING_MAX_AGE_MS);
  await store.insertPending(db, pending, provider.id);
  return signInUrl(db, provider, base, pending.id);
}

/** The desktop sign-in a SAML response's RelayState names, while it waits for that provider's answer. */
export async function pendingSignIn(db: Db, relayState: unknown, providerId: string): Promise<store.DesktopSignInRow | undefined> {
  if (typeof relayState !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(relayState)) return undefined;
  return store.getPending(db, relayState, providerId);
}

/**
 * Completes a desktop sign-in once its identity provider signed the person in (inside the
 * SAML sign-in's transaction): issues its code, bound to the organization and provider so
 * the token it gives is an SSO token of that organization alone.
 */
export async function completeSamlSignIn(tx: Queryable, pending: store.DesktopSignInRow, who: SamlSignedIn): Promise<SignedIn> {
  const code = randomCode();
  const row = await store.complete(tx, pending.id, {
    userId: who.user.id,
    orgId: who.orgId,
    providerId: pending.provider_id,
    codeHash: codeHash(code),
    expiresAt: new Date(Date.now() + CODE_MAX_AGE_MS),
  });
  if (!row) throw badRequest('This desktop sign-in has expired or was already completed; start it again from the app.');
  return { redirect: redirectWithCode(row.redirect_uri, code, row.state) };
}

/**
 * Exchanges a code for a new API token of the person who signed in, named for the device.
 * The code is spent by this call whatever follows, so a stolen code tried with a wrong
 * verifier is gone; a code presented again revokes the token it gave (RFC 6749 §4.1.2).
 */
export async function exchangeCode(ctx: PublicContext, body: DesktopTokenBody): Promise<DesktopToken> {
  const { db } = ctx.deps;
  const { spent, replayed } = await store.spendCode(db, codeHash(body.code));
  if (replayed) {
    if (replayed.token_id) await store.revokeIssuedToken(db, replayed.token_id);
    throw badRequest('Invalid body field "code": it was already used; the token it gave is revoked. Sign in again.');
  }
  if (!spent?.user_id) throw badRequest('Invalid body field "code": unknown; sign in again.');
  if (spent.expires_at.getTime() <= Date.now()) throw badRequest('Invalid body field "code": expired; sign in again.');
  if (spent.redirect_uri !== body.redirect_uri) {
    throw badRequest('Invalid body field "redirect_uri": it is not the redirect URI the sign-in was started with.');
  }
  if (!verifierMatches(body.code_verifier, spent.code_challenge)) {
    throw badRequest('Invalid body field "code_verifier": it does not match the code challenge of the sign-in.');
  }
  const userId = spent.user_id;
  return db.transaction(async (tx) => {
    const user = await getUser(tx, userId);
    if (!user) throw badRequest('Invalid body field "code": its account no longer exists.');
    const provider = spent.provider_id ? await getProviderById(tx, spent.provider_id) : undefined;
    const via = provider ? ` (through ${provider.label})` : '';
    const name = `${body.device_name ?? 'Quire desktop'}${via}`.slice(0, 200);
    const token = await createToken(tx, user.id, undefined, name);
    if (spent.org_id && spent.provider_id) await recordSsoToken(tx, token, spent.org_id, spent.provider_id, user.id);
    await store.recordToken(tx, spent.id, token);
    return {
      object: 'desktop-token' as const,
      token,
      user: { id: user.id, email: user.email, displayName: user.display_name },
      organization: spent.org_id,
    };
  });
}
