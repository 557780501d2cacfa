import { z } from 'zod';
import { text } from './common';

/**
 * Signing a native app in through the system browser (RFC 8252) with PKCE (RFC 7636, S256).
 * The app listens on a loopback port, opens `GET /v1/auth/desktop/authorize` in the
 * browser, receives a one-time `code` at its redirect URI and exchanges it, with the
 * verifier only it knows, at `POST /v1/auth/desktop/token`.
 */

/**
 * Loopback IP literals only (RFC 8252 §7.3 and §8.3): any port, since the app takes an
 * ephemeral one. `localhost` is refused, as a name may resolve elsewhere.
 */
export function isLoopbackRedirect(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'http:' &&
    (url.hostname === '127.0.0.1' || url.hostname === '[::1]') &&
    url.username === '' &&
    url.password === '' &&
    url.hash === '' &&
    // The port is the app's own listener; the URL must name it.
    url.port !== ''
  );
}

export const LoopbackRedirectUriSchema = z
  .string()
  .max(2048)
  .refine(isLoopbackRedirect, 'must be a loopback redirect: http://127.0.0.1:<port>/… or http://[::1]:<port>/…')
  .meta({ example: 'http://127.0.0.1:49152/callback' });

/** BASE64URL(SHA-256(code_verifier)), unpadded: always 43 characters. */
export const CodeChallengeSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the base64url SHA-256 of the verifier (43 characters)');

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export const CodeVerifierSchema = z
  .string()
  .regex(/^[A-Za-z0-9._~-]{43,128}$/, 'must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~"');

export const DesktopAuthorizeQuery = z.object({
  redirect_uri: LoopbackRedirectUriSchema,
  code_challenge: CodeChallengeSchema,
  code_challenge_method: z.literal('S256', { error: 'must be "S256"' }),
  /** Returned unchanged with the code: the app checks it is the one it sent. */
  state: text(512, 1).regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
});
export type DesktopAuthorizeQuery = z.infer<typeof DesktopAuthorizeQuery>;

/** The sign-in page's form: the authorization request carried along, then who signs in. */
export const DesktopSignInForm = DesktopAuthorizeQuery.extend({
  email: text(320, 1).regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address'),
  password: text(1024).optional(),
});
export type DesktopSignInForm = z.infer<typeof DesktopSignInForm>;

export const DesktopTokenBody = z
  .strictObject({
    code: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'must be the code the redirect carried'),
    code_verifier: CodeVerifierSchema,
    redirect_uri: LoopbackRedirectUriSchema,
    /** The token's name in the user's token list, e.g. "Quire desktop on ada-laptop". */
    device_name: text(100, 1).optional(),
  })
  .meta({ id: 'DesktopTokenRequest' });
export type DesktopTokenBody = z.infer<typeof DesktopTokenBody>;

export const DesktopTokenSchema = z
  .object({
    object: z.literal('desktop-token'),
    /** A new API token of the user who signed in, shown this once. */
    token: z.string(),
    user: z.object({ id: z.string(), email: z.string(), displayName: z.string() }),
    /** Set when the sign-in went through an organization's identity provider: the token reaches that organization alone. */
    organization: z.string().nullable(),
  })
  .meta({ id: 'DesktopToken' });
export type DesktopToken = z.infer<typeof DesktopTokenSchema>;
