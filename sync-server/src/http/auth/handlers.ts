import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { DesktopAuthorizeQuery } from '@quire/shared/schemas/desktopAuth';
import type { z } from 'zod';
import { replacePassword } from '../../core/desktopSignIn/changePassword';
import { describeIssue } from '../../web/issues';
import { LOCKED_MESSAGE } from '../../core/desktopSignIn/lockout';
import { exchangeCode, signInStep } from '../../core/desktopSignIn/signIn';
import { ApiError } from '../errorStatus';
import type { AppEnv } from '../env';
import { publicContext } from '../../web/commandContext';
import { changePasswordPage, emailPage, passwordPage, providersPage } from './pages';
import * as r from './routes';

type Ctx = Context<AppEnv>;

/** A page that hands out credentials: never cached, never framed, no script, no referrer. */
function secure(c: Ctx) {
  c.header('cache-control', 'no-store');
  c.header('referrer-policy', 'no-referrer');
  c.header('x-frame-options', 'DENY');
  c.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
}

/** The form's fields as strings; a field sent twice counts as malformed. */
async function formFields(c: Ctx): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
    throw new ApiError(415, 'The sign-in form must be posted as application/x-www-form-urlencoded.');
  }
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(await c.req.parseBody({ all: true }))) {
    if (typeof v === 'string') fields[k] = v;
  }
  return fields;
}

/** The change-password form of the sign-in page: the form again with what went wrong, or the sign-in with a notice. */
async function changeOnPage(c: Ctx, q: DesktopAuthorizeQuery, f: z.infer<typeof r.SignInFormFields>) {
  const { email, password, new_password: next } = f;
  if (password === undefined || next === undefined) return c.html(changePasswordPage(q, email), 200);
  if (next !== f.new_password_again) return c.html(changePasswordPage(q, email, 'The two new passwords differ.'), 400);
  const result = await replacePassword(publicContext(c), { email, currentPassword: password, newPassword: next });
  if (result.kind === 'locked') return c.html(changePasswordPage(q, email, LOCKED_MESSAGE), 429);
  if (result.kind === 'mismatch') return c.html(changePasswordPage(q, email, 'The email and current password do not match.'), 401);
  if (result.kind === 'weak') return c.html(changePasswordPage(q, email, `The new password ${result.reason}.`), 400);
  return c.html(passwordPage(q, email, undefined, 'Your password is changed. Sign in with the new one.'), 200);
}

export function registerDesktopAuth(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.authorize, async (c) => {
    secure(c);
    return c.html(emailPage(c.req.valid('query')), 200);
  });

  // Parsed here rather than by the route: a mistake in what the person typed shows the page
  // again, while a broken request from the app is a 400 naming the field, as anywhere else.
  app.openAPIRegistry.registerPath(r.authorizeForm);
  app.post(r.AUTHORIZE_PATH, async (c) => {
    const fields = await formFields(c);
    const request = DesktopAuthorizeQuery.safeParse(fields);
    if (!request.success) throw new ApiError(400, describeIssue('form', request.error.issues[0] as never, fields));
    const q = request.data;
    const parsed = r.SignInFormFields.safeParse(fields);
    secure(c);
    if (!parsed.success) return c.html(emailPage(q, 'Enter your email address.', fields.email ?? ''), 400);
    const { email } = parsed.data;
    if (parsed.data.change) return changeOnPage(c, q, parsed.data);
    const step = await signInStep(publicContext(c), { request: q, who: parsed.data });
    if (step.kind === 'redirect') return c.redirect(step.url, 303);
    if (step.kind === 'providers') return c.html(providersPage(q, email, step.providers), 200);
    if (step.refused === 'locked') return c.html(passwordPage(q, email, LOCKED_MESSAGE), 429);
    if (step.refused) return c.html(passwordPage(q, email, 'The email and password do not match.'), 401);
    return c.html(passwordPage(q, email), 200);
  });

  app.openapi(r.token, async (c) => {
    c.header('cache-control', 'no-store');
    return c.json(await exchangeCode(publicContext(c), c.req.valid('json')), 200);
  });
}
