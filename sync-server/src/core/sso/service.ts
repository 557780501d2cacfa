import type { SsoSignIn } from '@quire/shared/schemas/saml';
import { completeSamlSignIn, pendingSignIn } from '../desktopSignIn/signIn';
import type { PublicContext } from '../platform/deps';
import { activeProvider, signInUrl } from './providers';
import { serviceProviderMetadata } from './serviceProvider';
import { consumeSamlResponse, signInWithSamlResponse } from './signIn';

/**
 * The browser-facing service endpoints of a provider (`/sso/saml/{providerId}…`, see the
 * README): no caller, as the person has no token yet. An unknown, disabled or malformed
 * provider id is not found, whatever else was sent.
 */

/** The service provider's SAML metadata, to register in the identity provider. */
export async function providerMetadata(ctx: PublicContext, input: { providerId: string }): Promise<string> {
  const provider = await activeProvider(ctx.deps.db, input.providerId);
  return serviceProviderMetadata(ctx.deps.db, provider, ctx.baseUrl);
}

/** Where the browser goes to sign in: the provider's sign-in URL with a signed request. */
export async function startSignIn(ctx: PublicContext, input: { providerId: string }): Promise<string> {
  const provider = await activeProvider(ctx.deps.db, input.providerId);
  return signInUrl(ctx.deps.db, provider, ctx.baseUrl);
}

/** A SAML response as posted to the ACS URL (HTTP-POST binding). */
export interface PostedSamlResponse {
  samlResponse: string;
  relayState: unknown;
}

/** What a verified response gave: a desktop app's sign-in goes back to the app; anyone else gets a token. */
export type SamlResponseOutcome = { kind: 'desktop'; redirect: string } | { kind: 'token'; signedIn: SsoSignIn };

/**
 * A response posted to a provider's ACS URL. `form` reads what was posted; it is read only
 * once the provider is known. A RelayState naming a desktop sign-in waiting for this
 * provider completes it (the browser goes back to the app with a one-time code); otherwise
 * the person gets a new API token (`consumeSamlResponse`).
 */
export async function receiveSamlResponse(
  ctx: PublicContext,
  input: { providerId: string; form: () => Promise<PostedSamlResponse> },
): Promise<SamlResponseOutcome> {
  const { db } = ctx.deps;
  const provider = await activeProvider(db, input.providerId);
  const { samlResponse, relayState } = await input.form();
  const desktop = await pendingSignIn(db, relayState, provider.id);
  if (desktop) {
    const { redirect } = await signInWithSamlResponse(db, provider, ctx.baseUrl, samlResponse, (tx, who) =>
      completeSamlSignIn(tx, desktop, who),
    );
    return { kind: 'desktop', redirect };
  }
  return { kind: 'token', signedIn: await consumeSamlResponse(db, provider, ctx.baseUrl, samlResponse) };
}
