import { createPublicKey, createVerify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer, type TestUser } from '../../testing/harness';
import { TestIdp, authnRequestOf } from '../../testing/testIdp';

let t: TestServer;
let idp: TestIdp;
beforeAll(async () => {
  t = await TestServer.start();
  idp = new TestIdp();
});
afterAll(async () => t?.close());

const BASE = 'http://quire.test';

async function setup(extra: Record<string, unknown> = {}) {
  const org = await t.org(['edit']);
  const team = await t.put(`/v1/orgs/${org.orgId}/teams`, org.admin.token, { title: 'Engineering' });
  const created = await t.post(`/v1/orgs/${org.orgId}/saml`, org.admin.token, {
    label: 'Okta',
    entityID: idp.entityId,
    certificate: idp.certificate,
    ssoURL: 'https://idp.example.test/sso',
    defaultTeam: team.body.id,
    defaultRole: 'comment',
    ...extra,
  });
  expect(created.status).toBe(200);
  return { ...org, teamId: team.body.id as string, provider: created.body };
}

function postAcs(providerId: string, samlResponse: string | undefined, accept = 'application/json') {
  return t.request('POST', `/sso/saml/${providerId}/acs`, {
    raw: samlResponse === undefined ? 'RelayState=x' : `SAMLResponse=${encodeURIComponent(samlResponse)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
  });
}

describe('SAML providers', () => {
  it('creates a provider with its service URLs, lists, gets, patches and deletes it', async () => {
    const { orgId, admin, teamId, provider } = await setup();
    const id = provider.id as string;
    expect(provider).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      entityID: idp.entityId,
      ssoURL: 'https://idp.example.test/sso',
      defaultRole: 'comment',
      defaultTeam: { object: 'team', id: teamId, title: 'Engineering' },
      status: 'active',
      service: {
        entityID: `${BASE}/sso/saml/${id}`,
        startURL: `${BASE}/sso/saml/${id}/start`,
        acsURL: `${BASE}/sso/saml/${id}/acs`,
      },
      urls: { location: `${BASE}/v1/orgs/${orgId}/saml/${id}` },
    });
    expect(provider.certificate).toBe(idp.certificate);

    const list = await t.get(`/v1/orgs/${orgId}/saml`, admin.token);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, items: [{ id }] });
    const got = await t.get(`/v1/orgs/${orgId}/saml/${id}`, admin.token);
    expect(got.body).toEqual(provider);

    const patched = await t.patch(`/v1/orgs/${orgId}/saml/${id}`, admin.token, {
      label: 'Okta EU',
      defaultTeam: null,
      defaultRole: 'read',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ label: 'Okta EU', defaultRole: 'read' });
    expect(patched.body.defaultTeam).toBeUndefined();

    const sso = await t.get(`/v1/orgs/${orgId}/sso`, admin.token);
    expect(sso.status).toBe(200);
    expect(sso.body).toEqual({ items: [{ id, label: 'Okta EU', startURL: `${BASE}/sso/saml/${id}/start` }], count: 1 });

    expect((await t.delete(`/v1/orgs/${orgId}/saml/${id}`, admin.token)).status).toBe(204);
    expect((await t.delete(`/v1/orgs/${orgId}/saml/${id}`, admin.token)).status).toBe(204);
    const gone = await t.get(`/v1/orgs/${orgId}/saml/${id}`, admin.token);
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe('No matching provider found.');
    expect((await t.get(`/sso/saml/${id}/start`)).status).toBe(404);
  });

  it('refuses a bad certificate, a bad URL, unknown fields and a team of another organization', async () => {
    const { orgId, admin } = await t.org();
    const other = await t.org();
    const foreignTeam = await t.put(`/v1/orgs/${other.orgId}/teams`, other.admin.token, { title: 'Theirs' });
    const base = { label: 'IdP', entityID: idp.entityId, certificate: idp.certificate, ssoURL: 'https://idp.example.test/sso' };
    const post = (b: unknown) => t.post(`/v1/orgs/${orgId}/saml`, admin.token, b);
    const cert = await post({ ...base, certificate: 'not a certificate' });
    expect(cert.status).toBe(400);
    expect(cert.body.error.message).toBe('Invalid body field "certificate": must be an X.509 certificate in PEM or base64.');
    const url = await post({ ...base, ssoURL: 'javascript:alert(1)' });
    expect(url.status).toBe(400);
    expect(url.body.error.message).toMatch(/^Invalid body field "ssoURL"/);
    expect((await post({ ...base, extra: 1 })).body.error.message).toBe('Unknown body field: "extra".');
    expect((await post({ entityID: 'e' })).body.error.message).toBe('Missing body field "label".');
    const team = await post({ ...base, defaultTeam: foreignTeam.body.id });
    expect(team.status).toBe(404);
    expect(team.body.error.message).toBe('No matching team found.');
    expect((await t.get(`/v1/orgs/${orgId}/saml`, admin.token)).body.count).toBe(0);

    // Base64 without PEM armour, as many IdPs show it, is accepted and stored as PEM.
    const bare = await post({ ...base, certificate: idp.certificate.replace(/-----[A-Z ]+-----|\n/g, '') });
    expect(bare.status).toBe(200);
    expect(bare.body.certificate).toBe(idp.certificate);
    const empty = await t.patch(`/v1/orgs/${orgId}/saml/${bare.body.id}`, admin.token, {});
    expect(empty.status).toBe(400);
    const badPatch = await t.patch(`/v1/orgs/${orgId}/saml/${bare.body.id}`, admin.token, { certificate: 'AAAA' });
    expect(badPatch.status).toBe(400);
    expect((await t.get(`/v1/orgs/${orgId}/saml/${bare.body.id}`, admin.token)).body.certificate).toBe(idp.certificate);
  });

  it('adds a provider by its label alone, pending until its IdP details are set, signing nobody in meanwhile', async () => {
    const { orgId, admin } = await t.org();
    const created = await t.post(`/v1/orgs/${orgId}/saml`, admin.token, { label: 'Later' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      label: 'Later',
      status: 'pending',
      entityID: '',
      certificate: '',
      ssoURL: '',
      defaultRole: 'read',
    });
    const id = created.body.id as string;
    expect((await t.get(`/v1/orgs/${orgId}/sso`, admin.token)).body.items).toEqual([]);
    expect((await t.get(`/sso/saml/${id}/start`)).status).toBe(404);
    expect((await t.get(`/sso/saml/${id}`)).status).toBe(404);

    const partial = await t.patch(`/v1/orgs/${orgId}/saml/${id}`, admin.token, {
      entityID: idp.entityId,
      ssoURL: 'https://idp.example.test/sso',
    });
    expect(partial.body.status).toBe('pending');
    const complete = await t.patch(`/v1/orgs/${orgId}/saml/${id}`, admin.token, { certificate: idp.certificate });
    expect(complete.body).toMatchObject({ status: 'active', certificate: idp.certificate });
    expect((await t.get(`/v1/orgs/${orgId}/sso`, admin.token)).body.items.map((x: { id: string }) => x.id)).toEqual([id]);
    expect((await t.get(`/sso/saml/${id}/start`)).status).toBe(302);
  });

  it('lets only admins manage providers; members see the start URLs; strangers see nothing', async () => {
    const { orgId, members, provider } = await setup();
    const editor = members[0] as TestUser;
    const body = { label: 'x', entityID: 'e', certificate: idp.certificate, ssoURL: 'https://a.example/sso' };
    const denied = await t.post(`/v1/orgs/${orgId}/saml`, editor.token, body);
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe('This needs the admin role in the organization.');
    expect((await t.get(`/v1/orgs/${orgId}/saml`, editor.token)).status).toBe(403);
    expect((await t.get(`/v1/orgs/${orgId}/saml/${provider.id}`, editor.token)).status).toBe(403);
    expect((await t.patch(`/v1/orgs/${orgId}/saml/${provider.id}`, editor.token, { label: 'y' })).status).toBe(403);
    expect((await t.delete(`/v1/orgs/${orgId}/saml/${provider.id}`, editor.token)).status).toBe(403);
    expect((await t.get(`/v1/orgs/${orgId}/sso`, editor.token)).body.items).toHaveLength(1);
    const stranger = await t.user();
    const foreign = await t.get(`/v1/orgs/${orgId}/saml/${provider.id}`, stranger.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe('No matching organization found.');
    expect((await t.get(`/v1/orgs/${orgId}/sso`, stranger.token)).status).toBe(404);
    expect((await t.get(`/v1/orgs/${orgId}/sso`)).status).toBe(401);
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/orgs/${orgId}/saml`],
      ['POST', `/v1/orgs/${orgId}/saml`, body],
      ['GET', `/v1/orgs/${orgId}/saml/${provider.id}`],
      ['PATCH', `/v1/orgs/${orgId}/saml/${provider.id}`, { label: 'y' }],
      ['DELETE', `/v1/orgs/${orgId}/saml/${provider.id}`],
      ['GET', `/v1/orgs/${orgId}/sso`],
    ];
    for (const [method, path, b] of calls) {
      expect((await t.request(method, path, { body: b })).status, `${method} ${path} without a token`).toBe(401);
      // DELETE answers 204 whether or not there was anything the caller could delete.
      const hidden = method === 'DELETE' ? 204 : 404;
      expect((await t.request(method, path, { body: b, token: stranger.token })).status, `${method} ${path} by a stranger`).toBe(hidden);
    }
    // A provider id of another organization is unknown there, even to its admin.
    const other = await setup();
    const elsewhere = await t.get(`/v1/orgs/${other.orgId}/saml/${provider.id}`, other.admin.token);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.message).toBe('No matching provider found.');
    expect((await t.patch(`/v1/orgs/${other.orgId}/saml/${provider.id}`, other.admin.token, { label: 'z' })).status).toBe(404);
  });
});

describe('SAML sign-in', () => {
  it('redirects to the IdP with a signed AuthnRequest and publishes metadata', async () => {
    const { provider } = await setup();
    const start = await t.get(`/sso/saml/${provider.id}/start`);
    expect(start.status).toBe(302);
    const location = start.headers.get('location') as string;
    expect(location.startsWith('https://idp.example.test/sso?')).toBe(true);
    const { id, xml, url } = authnRequestOf(location);
    expect(id).toMatch(/^_/);
    expect(xml).toContain(`AssertionConsumerServiceURL="${provider.service.acsURL}"`);
    expect(xml).toContain(`<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${provider.service.entityID}</saml:Issuer>`);
    expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');

    const metadata = await t.get(`/sso/saml/${provider.id}`);
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const certB64 = /<(?:ds:)?X509Certificate>([^<]+)</.exec(metadata.body as string)?.[1] as string;
    const spKey = createPublicKey(`-----BEGIN CERTIFICATE-----\n${certB64.replace(/\s+/g, '')}\n-----END CERTIFICATE-----`);
    // The Redirect-binding signature covers SAMLRequest, RelayState and SigAlg exactly as sent.
    const raw = location.split('?')[1] as string;
    const signed = raw
      .split('&')
      .filter((p) => !p.startsWith('Signature='))
      .join('&');
    const verifier = createVerify('RSA-SHA256');
    verifier.update(signed);
    const signature = decodeURIComponent(/Signature=([^&]+)/.exec(raw)?.[1] ?? '');
    expect(verifier.verify(spKey, signature, 'base64')).toBe(true);
  });

  it('signs a new user in from an answer to our request: member with the default role and team, SSO member, token works', async () => {
    const { orgId, admin, teamId, provider } = await setup();
    const { id: requestId } = authnRequestOf((await t.get(`/sso/saml/${provider.id}/start`)).headers.get('location') as string);
    const response = idp.response({
      email: 'Grace@Example.com',
      acsURL: provider.service.acsURL,
      audience: provider.service.entityID,
      inResponseTo: requestId,
      attributes: { displayName: 'Grace Hopper' },
    });
    const res = await postAcs(provider.id, response);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      object: 'sso-sign-in',
      organization: orgId,
      created: true,
      user: { email: 'grace@example.com', displayName: 'Grace Hopper' },
    });
    const token = res.body.token as string;
    const me = await t.get(`/v1/orgs/${orgId}/members/${res.body.user.id}`, token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ role: 'comment', sso: true });
    const teamMembers = await t.get(`/v1/orgs/${orgId}/teams/${teamId}/members`, admin.token);
    expect(teamMembers.body.items.map((m: { organization: { user: { id: string } } }) => m.organization.user.id)).toContain(
      res.body.user.id,
    );

    // The same response again: the request it answered is used up.
    const replay = await postAcs(provider.id, response);
    expect(replay.status).toBe(401);
    expect(replay.body.error.message).toBe(
      'The SAML response was refused: it does not answer a pending sign-in request of this server (already used, expired or never sent).',
    );
  });

  it('accepts an IdP-initiated response once and refuses its replay', async () => {
    const { provider } = await setup();
    const response = idp.response({ email: 'ada@example.com', acsURL: provider.service.acsURL, audience: provider.service.entityID });
    const first = await postAcs(provider.id, response, 'text/html');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain('text/html');
    expect(first.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(first.body).toContain('Signed in as ada@example.com');
    expect(first.body).toMatch(/qt_[A-Za-z0-9_-]{40,}/);
    const replay = await postAcs(provider.id, response);
    expect(replay.status).toBe(401);
    expect(replay.body.error.message).toBe('The SAML response was refused: its assertion was already used to sign in (replay).');
  });

  it('refuses forged, tampered, expired, misaddressed and foreign-issuer responses', async () => {
    const { provider } = await setup();
    const common = { email: 'eve@example.com', acsURL: provider.service.acsURL, audience: provider.service.entityID };
    const refused = async (response: string) => {
      const res = await postAcs(provider.id, response);
      expect(res.status).toBe(401);
      return res.body.error.message as string;
    };
    const other = new TestIdp();
    expect(await refused(idp.response({ ...common, signWith: other.privateKeyPem }))).toBe(
      "The SAML response was refused: its signature does not verify against the identity provider's certificate.",
    );
    expect(await refused(idp.response({ ...common, tamper: (x) => x.replace('eve@example.com', 'admin@example.com') }))).toMatch(
      /signature/,
    );
    expect(await refused(idp.response({ ...common, now: new Date(Date.now() - 3600_000) }))).toBe(
      'The SAML response was refused: it is outside its validity window (expired or not yet valid).',
    );
    expect(await refused(idp.response({ ...common, audience: 'https://other-service.example' }))).toBe(
      'The SAML response was refused: it is meant for another service (audience mismatch).',
    );
    expect(await refused(idp.response({ ...common, inResponseTo: '_never-sent' }))).toMatch(/does not answer a pending sign-in request/);
    expect(await refused(idp.response({ ...common, issuer: 'https://evil.example' }))).toBe(
      'The SAML response was refused: it was issued by "https://evil.example", not by this provider\'s entity id.',
    );
    expect(await refused(Buffer.from('<not-saml/>').toString('base64'))).toMatch(/^The SAML response was refused/);
  });

  it('answers 400 without a SAMLResponse, 415 for JSON and 404 for an unknown provider', async () => {
    const { provider } = await setup();
    const missing = await postAcs(provider.id, undefined);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('Missing form field "SAMLResponse".');
    const json = await t.request('POST', `/sso/saml/${provider.id}/acs`, { raw: '{}', headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(415);
    const unknown = await postAcs('AAAAAAAAAAAAAAAAAAAAAA', 'x');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('No matching identity provider found.');
  });

  it('enforces SSO for non-admin members when the organization turns it on', async () => {
    const { orgId, admin, members, provider } = await setup();
    const editor = members[0] as TestUser;
    expect((await t.patch(`/v1/orgs/${orgId}`, admin.token, { sso: true })).status).toBe(200);
    const blocked = await t.get(`/v1/orgs/${orgId}`, editor.token);
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.message).toBe(
      'This organization requires single sign-on: sign in through one of its identity providers (GET /v1/orgs/{organizationId}/sso lists them) and use the token that sign-in gives.',
    );
    // Admins keep access with any token, so a broken IdP cannot lock the organization out.
    expect((await t.get(`/v1/orgs/${orgId}`, admin.token)).status).toBe(200);
    const signIn = await postAcs(
      provider.id,
      idp.response({ email: editor.email, acsURL: provider.service.acsURL, audience: provider.service.entityID }),
    );
    expect(signIn.body.created).toBe(false);
    const viaSso = await t.get(`/v1/orgs/${orgId}`, signIn.body.token);
    expect(viaSso.status).toBe(200);
    expect((await t.get(`/v1/orgs/${orgId}/members/${editor.id}`, admin.token)).body).toMatchObject({ role: 'edit', sso: true });
    expect((await t.patch(`/v1/orgs/${orgId}`, admin.token, { sso: false })).status).toBe(200);
    expect((await t.get(`/v1/orgs/${orgId}`, editor.token)).status).toBe(200);
  });
});
