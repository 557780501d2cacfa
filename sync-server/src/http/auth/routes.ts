import { createRoute } from '@hono/zod-openapi';
import { ErrorBodySchema, IdSchema } from '@quire/shared';
import { DesktopAuthorizeQuery, DesktopSignInForm, DesktopTokenBody, DesktopTokenSchema } from '@quire/shared/schemas/desktopAuth';
import { z } from 'zod';
import { body, json } from '../openapi';

const tags = ['Desktop sign-in'];
const error = (description: string) => ({ content: { 'application/json': { schema: ErrorBodySchema } }, description });
const html = (description: string) => ({ content: { 'text/html': { schema: z.string() } }, description });
const ERRORS = { 400: error('Bad input; the message names the field.'), 429: error('Rate limited; see Retry-After.') } as const;

export const AUTHORIZE_PATH = '/v1/auth/desktop/authorize';

/** The sign-in form's fields: the app's request, who signs in, and the identity provider picked. */
export const SignInFormFields = DesktopSignInForm.extend({
  provider: IdSchema.optional(),
  /** Present: the person changes their password (`password` the current one) rather than signing in. */
  change: z.literal('1').optional(),
  new_password: z.string().max(1024).optional(),
  new_password_again: z.string().max(1024).optional(),
});

// These operations are how a person without a token gets one: no bearer token.
export const authorize = createRoute({
  method: 'get',
  path: AUTHORIZE_PATH,
  tags,
  summary: 'Sign a desktop app in (system browser, PKCE)',
  description:
    'Opened by the app in the system browser (RFC 8252), with a loopback `redirect_uri` (`http://127.0.0.1:<port>/…` or `http://[::1]:<port>/…`) and an S256 `code_challenge` (RFC 7636). ' +
    "The page signs the person in (through the organization's identity provider where single sign-on is required, otherwise with a password), then redirects to `redirect_uri` with a one-time `code` and the `state` sent.",
  request: { query: DesktopAuthorizeQuery },
  responses: { 200: html('The sign-in page.'), ...ERRORS },
});

export const authorizeForm = createRoute({
  method: 'post',
  path: AUTHORIZE_PATH,
  tags,
  summary: 'Submit the desktop sign-in page',
  request: { body: { content: { 'application/x-www-form-urlencoded': { schema: SignInFormFields } }, required: true } },
  responses: {
    200: html('The next step of the sign-in: a password, or the identity providers to pick from.'),
    303: { description: "To the app's `redirect_uri` with `code` and `state`, or to the identity provider." },
    401: html('The email and password do not match.'),
    ...ERRORS,
    429: {
      content: { 'text/html': { schema: z.string() }, 'application/json': { schema: ErrorBodySchema } },
      description:
        'Ten wrong passwords within 15 minutes lock the address (known or not) for 15 minutes: the page says so. Past the rate limit: the error, with Retry-After.',
    },
  },
});

export const token = createRoute({
  method: 'post',
  path: '/v1/auth/desktop/token',
  tags,
  summary: 'Exchange a desktop sign-in code for an API token',
  description:
    "The code is single use and lives a minute; `code_verifier` must hash to the sign-in's `code_challenge` and `redirect_uri` must be the one it started with. " +
    'The answer is a new API token of the person who signed in, named for the device (`device_name`). A code presented twice is refused and the token it gave is revoked.',
  request: { body: body(DesktopTokenBody) },
  responses: { 200: json(DesktopTokenSchema), ...ERRORS },
});
