import type { OpenAPIHono } from '@hono/zod-openapi';
import type { SsoSignIn } from '@quire/shared/schemas/saml';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as commands from '../../core/sso/commands';
import * as queries from '../../core/sso/queries';
import { type PostedSamlResponse, providerMetadata, receiveSamlResponse, startSignIn } from '../../core/sso/service';
import { badRequest } from '@quire/shared/domainErrors';
import { ApiError } from '../errorStatus';
import type { AppEnv } from '../env';
import { commandContext, publicContext } from '../../web/commandContext';
import * as r from './routes';

type Ctx = Context<AppEnv>;

/** Largest SAML response accepted: signed assertions with certificates are a few tens of kB. */
const MAX_ACS_BODY = 512 * 1024;

/** The provider a browser-facing endpoint names: unknown ids and malformed ones look the same. */
function providerRef(c: Ctx) {
  return { providerId: c.req.param('providerId') ?? '' };
}

/** The SAML response posted to the ACS URL, read once its provider is known. */
async function postedResponse(c: Ctx): Promise<PostedSamlResponse> {
  const type = c.req.header('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
    throw new ApiError(415, 'The SAML response must be posted as a form (HTTP-POST binding), with a SAMLResponse field.');
  }
  const form = await c.req.parseBody();
  const samlResponse = form.SAMLResponse;
  if (typeof samlResponse !== 'string' || samlResponse.trim() === '') throw badRequest('Missing form field "SAMLResponse".');
  c.header('cache-control', 'no-store');
  c.header('referrer-policy', 'no-referrer');
  return { samlResponse, relayState: form.RelayState };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);

/** The one-time page that shows the new token to the person who signed in. */
function tokenPage(s: SsoSignIn): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Signed in</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem">
<h1>Signed in as ${escapeHtml(s.user.email)}</h1>
<p>Your API token for this server is below. It is shown only this once: copy it now and keep it secret.</p>
<pre style="padding: 1rem; background: #f4f4f4; overflow-wrap: anywhere; white-space: pre-wrap">${escapeHtml(s.token)}</pre>
<p>Use it as <code>Authorization: Bearer &lt;token&gt;</code>.</p>
</body></html>`;
}

export function registerSaml(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listProviders, async (c) =>
    c.json(await queries.listProviders(commandContext(c), { ...c.req.valid('param'), page: c.req.valid('query') }), 200),
  );

  app.openapi(r.createProvider, async (c) =>
    c.json(await commands.createProvider(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 200),
  );

  app.openapi(r.getProvider, async (c) => c.json(await queries.getProvider(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.deleteProvider, async (c) => {
    await commands.deleteProvider(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.updateProvider, async (c) =>
    c.json(await commands.updateProvider(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.listSso, async (c) =>
    c.json(await queries.listSignInChoices(commandContext(c), { ...c.req.valid('param'), page: c.req.valid('query') }), 200),
  );

  // Browser-facing service endpoints: no API token (the person has none yet), so outside /v1.
  app.use(
    '/sso/*',
    bodyLimit({
      maxSize: MAX_ACS_BODY,
      onError: () => {
        throw new ApiError(413, `Request body is larger than ${MAX_ACS_BODY} bytes.`);
      },
    }),
  );

  app.get('/sso/saml/:providerId', async (c) => {
    const xml = await providerMetadata(publicContext(c), providerRef(c));
    return c.body(xml, 200, { 'content-type': 'application/samlmetadata+xml; charset=utf-8' });
  });

  app.get('/sso/saml/:providerId/start', async (c) => {
    const url = await startSignIn(publicContext(c), providerRef(c));
    c.header('cache-control', 'no-store');
    return c.redirect(url, 302);
  });

  app.post('/sso/saml/:providerId/acs', async (c) => {
    const outcome = await receiveSamlResponse(publicContext(c), { ...providerRef(c), form: () => postedResponse(c) });
    // A desktop app's sign-in (RelayState named it): the browser goes back to the app with a one-time code.
    if (outcome.kind === 'desktop') return c.redirect(outcome.redirect, 303);
    const { signedIn } = outcome;
    if (/application\/json/i.test(c.req.header('accept') ?? '')) return c.json(signedIn, 200);
    c.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    return c.html(tokenPage(signedIn), 200);
  });
}
