import type { OpenAPIHono } from '@hono/zod-openapi';
import { ID_PATTERN } from '@quire/shared';
import type { SsoSignIn } from '@quire/shared/schemas/saml';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { consumeSamlResponse, SamlRefused } from '../../core/sso/signIn';
import { REQUEST_MAX_AGE_MS, samlFor, serviceProviderMetadata, serviceUrls } from '../../core/sso/serviceProvider';
import { normalizeCertificate } from '../../core/sso/x509';
import type { DbHandle } from '../../core/deps';
import * as saml from '../../store/saml';
import type { SamlProviderFields, SamlProviderRow } from '../../store/saml';
import { getTeam } from '../../store/teams';
import { ApiError, badRequest, notFound } from '@quire/shared/apiErrors';
import type { AppEnv } from '../env';
import { requireOrg } from '../guards';
import { envelope } from '../listing';
import { baseUrl } from '../urls';
import { presentProvider } from '../presenters/saml';
import * as r from './routes';

type Ctx = Context<AppEnv>;

/** Largest SAML response accepted: signed assertions with certificates are a few tens of kB. */
const MAX_ACS_BODY = 512 * 1024;

async function teamOf(db: DbHandle, orgId: string, teamId: string | null) {
  return teamId ? getTeam(db, orgId, teamId) : undefined;
}

async function present(c: Ctx, p: SamlProviderRow) {
  const { access } = await requireOrg(c, p.org_id);
  return presentProvider(p, await teamOf(c.get('deps').db, p.org_id, p.default_team_id), access, baseUrl(c));
}

/** Checks what zod cannot: the certificate parses, and the team belongs to this organization. */
async function checkedFields(db: DbHandle, orgId: string, f: SamlProviderFields): Promise<SamlProviderFields> {
  // Not given yet: the provider stays pending until it is.
  const certificate = f.certificate ? normalizeCertificate(f.certificate) : '';
  if (certificate === undefined) throw badRequest('Invalid body field "certificate": must be an X.509 certificate in PEM or base64.');
  if (f.defaultTeamId && !(await getTeam(db, orgId, f.defaultTeamId))) throw notFound('team');
  return { ...f, certificate };
}

async function requireProvider(c: Ctx, orgId: string, id: string) {
  await requireOrg(c, orgId, 'admin');
  const p = await saml.getProvider(c.get('deps').db, orgId, id);
  if (!p) throw notFound('provider');
  return p;
}

/** A provider for the browser-facing endpoints: unknown ids and malformed ones look the same. */
async function serviceProvider(c: Ctx): Promise<SamlProviderRow> {
  const id = c.req.param('providerId') ?? '';
  const p = ID_PATTERN.test(id) ? await saml.getProviderById(c.get('deps').db, id) : undefined;
  if (!p || p.status !== 'active') throw notFound('identity provider');
  return p;
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
  app.openapi(r.listProviders, async (c) => {
    const { db } = c.get('deps');
    const { organizationId } = c.req.valid('param');
    const { access } = await requireOrg(c, organizationId, 'admin');
    const page = await saml.listProviders(db, organizationId, c.req.valid('query'));
    const teams = new Map(
      await Promise.all(
        [...new Set(page.rows.map((p) => p.default_team_id).filter((t): t is string => !!t))].map(
          async (id) => [id, await getTeam(db, organizationId, id)] as const,
        ),
      ),
    );
    const base = baseUrl(c);
    return c.json(
      {
        items: page.rows.map((p) => presentProvider(p, p.default_team_id ? teams.get(p.default_team_id) : undefined, access, base)),
        count: page.count,
        ...(page.next ? { next: { page: page.next } } : {}),
      },
      200,
    );
  });

  app.openapi(r.createProvider, async (c) => {
    const { db } = c.get('deps');
    const { organizationId } = c.req.valid('param');
    await requireOrg(c, organizationId, 'admin');
    const b = c.req.valid('json');
    const fields = await checkedFields(db, organizationId, {
      label: b.label,
      entityId: b.entityID ?? '',
      certificate: b.certificate ?? '',
      ssoUrl: b.ssoURL ?? '',
      defaultTeamId: b.defaultTeam ?? null,
      defaultRole: b.defaultRole === undefined ? 'read' : b.defaultRole,
    });
    return c.json(await present(c, await saml.insertProvider(db, organizationId, fields)), 200);
  });

  app.openapi(r.getProvider, async (c) => {
    const { organizationId, samlProviderId } = c.req.valid('param');
    return c.json(await present(c, await requireProvider(c, organizationId, samlProviderId)), 200);
  });

  app.openapi(r.deleteProvider, async (c) => {
    const { organizationId, samlProviderId } = c.req.valid('param');
    await requireOrg(c, organizationId, 'admin');
    await saml.deleteProvider(c.get('deps').db, organizationId, samlProviderId);
    return c.body(null, 204);
  });

  app.openapi(r.updateProvider, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, samlProviderId } = c.req.valid('param');
    const p = await requireProvider(c, organizationId, samlProviderId);
    const b = c.req.valid('json');
    const fields = await checkedFields(db, organizationId, {
      label: b.label ?? p.label,
      entityId: b.entityID ?? p.entity_id,
      certificate: b.certificate ?? p.certificate,
      ssoUrl: b.ssoURL ?? p.sso_url,
      defaultTeamId: b.defaultTeam === undefined ? p.default_team_id : b.defaultTeam,
      defaultRole: b.defaultRole === undefined ? p.default_role : b.defaultRole,
    });
    return c.json(await present(c, await saml.updateProvider(db, p.id, fields)), 200);
  });

  app.openapi(r.listSso, async (c) => {
    const { organizationId } = c.req.valid('param');
    await requireOrg(c, organizationId);
    const base = baseUrl(c);
    const page = await saml.listActiveProviders(c.get('deps').db, organizationId, c.req.valid('query'));
    return c.json(
      envelope(page, (p) => ({ id: p.id, label: p.label, startURL: serviceUrls(base, p.id).startURL })),
      200,
    );
  });

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
    const p = await serviceProvider(c);
    const xml = await serviceProviderMetadata(c.get('deps').db, p, baseUrl(c));
    return c.body(xml, 200, { 'content-type': 'application/samlmetadata+xml; charset=utf-8' });
  });

  app.get('/sso/saml/:providerId/start', async (c) => {
    const { db } = c.get('deps');
    const p = await serviceProvider(c);
    await saml.purgeExpired(db, REQUEST_MAX_AGE_MS);
    const url = await (await samlFor(db, p, baseUrl(c))).getAuthorizeUrlAsync('', undefined, {});
    c.header('cache-control', 'no-store');
    return c.redirect(url, 302);
  });

  app.post('/sso/saml/:providerId/acs', async (c) => {
    const p = await serviceProvider(c);
    const type = c.req.header('content-type') ?? '';
    if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
      throw new ApiError(415, 'The SAML response must be posted as a form (HTTP-POST binding), with a SAMLResponse field.');
    }
    const form = await c.req.parseBody();
    const samlResponse = form.SAMLResponse;
    if (typeof samlResponse !== 'string' || samlResponse.trim() === '') throw badRequest('Missing form field "SAMLResponse".');
    let signedIn: SsoSignIn;
    try {
      signedIn = await consumeSamlResponse(c.get('deps').db, p, baseUrl(c), samlResponse);
    } catch (err) {
      if (err instanceof SamlRefused) throw new ApiError(err.status, err.message);
      throw err;
    }
    c.header('cache-control', 'no-store');
    c.header('referrer-policy', 'no-referrer');
    if (/application\/json/i.test(c.req.header('accept') ?? '')) return c.json(signedIn, 200);
    c.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    return c.html(tokenPage(signedIn), 200);
  });
}
