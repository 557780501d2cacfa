import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../../core/platform/admin';
import { PRODUCTION_COST } from '../../core/desktopSignIn/passwords';
import { s256 } from '../../core/desktopSignIn/pkce';
import { TestServer, type TestUser } from '../../testing/harness';
import { TestIdp, authnRequestOf } from '../../testing/testIdp';

let t: TestServer;
let idp: TestIdp;
beforeAll(async () => {
  t = await TestServer.start();
  idp = new TestIdp();
});
afterAll(async () => t?.close());

const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'http://127.0.0.1:49152/callback';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

function request(overrides: Record<string, string> = {}) {
  return { redirect_uri: REDIRECT, code_challenge: s256(VERIFIER), code_challenge_method: 'S256', state: 'xyz-123', ...overrides };
}
const authorizeUrl = (q: Record<string, string>) => `/v1/auth/desktop/authorize?${new URLSearchParams(q)}`;
const postForm = (fields: Record<string, string>) =>
  t.request('POST', '/v1/auth/desktop/authorize', {
    raw: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
const exchange = (body: Record<string, unknown>) => t.request('POST', '/v1/auth/desktop/token', { body });

async function userWithPassword(): Promise<TestUser> {
  const u = await t.user('ada');
  await setPassword(t.db, u.email, PASSWORD, t.deps.config.passwordCost);
  return u;
}

/** Signs in on the page with a password; answers the code and state the app's redirect received. */
async function passwordCode(email: string, q = request()) {
  const res = await postForm({ ...q, email, password: PASSWORD });
  expect(res.status).toBe(303);
  const location = new URL(res.headers.get('location') as string);
  expect(`${location.origin}${location.pathname}`).toBe(q.redirect_uri);
  return { code: location.searchParams.get('code') as string, state: location.searchParams.get('state') };
}

// Each password check is scrypt's work (tenths of a second, seconds on a loaded machine).
describe('desktop sign-in page', { timeout: 90_000 }, () => {
  it('shows the sign-in page for a loopback redirect, never cached or framed', async () => {
    const page = await t.get(authorizeUrl(request()));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.body).toContain('Sign in to the desktop app');
    expect(page.body).toContain(`name="redirect_uri" value="${REDIRECT}"`);
    expect((await t.get(authorizeUrl(request({ redirect_uri: 'http://[::1]:5000/cb' })))).status).toBe(200);
  });

  it('refuses any redirect but a loopback IP with a port, and anything but S256, naming the field', async () => {
    const redirectRefusal =
      'Invalid query parameter field "redirect_uri": must be a loopback redirect: http://127.0.0.1:<port>/… or http://[::1]:<port>/….';
    for (const redirect_uri of [
      'http://evil.example:49152/callback',
      'http://localhost:49152/callback',
      'https://127.0.0.1:49152/callback',
      'http://127.0.0.1/callback',
      'http://127.0.0.1.evil.example:49152/callback',
      'http://user@127.0.0.1:49152/callback',
      'quire://callback',
    ]) {
      const res = await t.get(authorizeUrl(request({ redirect_uri })));
      expect(res.status, redirect_uri).toBe(400);
      expect(res.body.error.message, redirect_uri).toBe(redirectRefusal);
    }
    const plain = await t.get(authorizeUrl(request({ code_challenge_method: 'plain' })));
    expect(plain.body.error.message).toBe('Invalid query parameter field "code_challenge_method": must be "S256".');
    const { code_challenge: _, ...noChallenge } = request();
    expect((await t.get(authorizeUrl(noChallenge))).body.error.message).toBe('Missing query parameter field "code_challenge".');
    // The form refuses the same, so a tampered page cannot send the code elsewhere.
    const u = await userWithPassword();
    const form = await postForm({ ...request({ redirect_uri: 'http://evil.example:49152/callback' }), email: u.email, password: PASSWORD });
    expect(form.status).toBe(400);
    expect(form.body.error.message).toMatch(/^Invalid form field "redirect_uri": must be a loopback redirect/);
    expect(form.headers.get('location')).toBeNull();
  });

  it('asks for the password after the email, and refuses a wrong one or an unknown account alike', async () => {
    const u = await userWithPassword();
    const step = await postForm({ ...request(), email: u.email });
    expect(step.status).toBe(200);
    expect(step.body).toContain('name="password"');
    for (const email of [u.email, 'nobody@example.com']) {
      const wrong = await postForm({ ...request(), email, password: 'not the password at all' });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toContain('The email and password do not match.');
      expect(wrong.headers.get('location')).toBeNull();
    }
  });

  it('signs in with a password set at the production cost on a server that hashes new ones more cheaply', async () => {
    expect(t.deps.config.passwordCost.N).toBeLessThan(PRODUCTION_COST.N);
    const u = await t.user('hopper');
    await setPassword(t.db, u.email, PASSWORD, PRODUCTION_COST);
    const [row] = await t.db.query<{ hash: string }>('SELECT hash FROM user_passwords WHERE user_id = $1', [u.id]);
    expect(row?.hash).toMatch(/^scrypt\$32768\$8\$3\$/);
    const wrong = await postForm({ ...request(), email: u.email, password: 'not the password at all' });
    expect(wrong.status).toBe(401);
    const { code } = await passwordCode(u.email);
    const res = await exchange({ code, code_verifier: VERIFIER, redirect_uri: REDIRECT, device_name: 'Quire desktop' });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(u.id);
  });
});

describe('desktop code exchange (PKCE)', { timeout: 90_000 }, () => {
  it('exchanges the code with its verifier for a token of the user, named for the device', async () => {
    const u = await userWithPassword();
    const { code, state } = await passwordCode(u.email);
    expect(state).toBe('xyz-123');
    const res = await exchange({ code, code_verifier: VERIFIER, redirect_uri: REDIRECT, device_name: 'Quire desktop on ada-laptop' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ object: 'desktop-token', user: { id: u.id, email: u.email }, organization: null });
    const me = await t.get('/v1/user', res.body.token);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(u.id);
    const labels = await t.db.query<{ label: string }>('SELECT label FROM api_tokens WHERE user_id = $1 ORDER BY created_at', [u.id]);
    expect(labels.map((l) => l.label)).toContain('Quire desktop on ada-laptop');
  });

  it('refuses a wrong verifier, and the code is spent by the attempt', async () => {
    const u = await userWithPassword();
    const { code } = await passwordCode(u.email);
    const wrong = await exchange({ code, code_verifier: `${VERIFIER.slice(0, -1)}A`, redirect_uri: REDIRECT });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe('Invalid body field "code_verifier": it does not match the code challenge of the sign-in.');
    const after = await exchange({ code, code_verifier: VERIFIER, redirect_uri: REDIRECT });
    expect(after.status).toBe(400);
    expect(after.body.error.message).toMatch(/^Invalid body field "code": it was already used/);
  });

  it('refuses a replayed code and revokes the token it gave', async () => {
    const u = await userWithPassword();
    const { code } = await passwordCode(u.email);
    const first = await exchange({ code, code_verifier: VERIFIER, redirect_uri: REDIRECT });
    expect(first.status).toBe(200);
    const again = await exchange({ code, code_verifier: VERIFIER, redirect_uri: REDIRECT });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe('Invalid body field "code": it was already used; the token it gave is revoked. Sign in again.');
    expect((await t.get('/v1/user', first.body.token)).status).toBe(401);
  });

  it('refuses an expired code, an unknown one and another redirect URI', async () => {
    const u = await userWithPassword();
    const { code } = await passwordCode(u.email);
    await t.db.query(`UPDATE desktop_sign_ins SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`);
    const expired = await exchange({ code, code_verifier: VERIFIER, redirect_uri: REDIRECT });
    expect(expired.status).toBe(400);
    expect(expired.body.error.message).toBe('Invalid body field "code": expired; sign in again.');

    const unknown = await exchange({ code: 'A'.repeat(43), code_verifier: VERIFIER, redirect_uri: REDIRECT });
    expect(unknown.body.error.message).toBe('Invalid body field "code": unknown; sign in again.');

    const other = await passwordCode(u.email);
    const elsewhere = await exchange({ code: other.code, code_verifier: VERIFIER, redirect_uri: 'http://127.0.0.1:49153/callback' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.message).toBe(
      'Invalid body field "redirect_uri": it is not the redirect URI the sign-in was started with.',
    );
    const foreign = await exchange({ code: other.code, code_verifier: VERIFIER, redirect_uri: 'http://evil.example:1/callback' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toMatch(/^Invalid body field "redirect_uri": must be a loopback redirect/);
    expect((await exchange({ code: other.code, redirect_uri: REDIRECT })).body.error.message).toBe('Missing body field "code_verifier".');
  });
});

describe('desktop sign-in where the organization requires SAML', { timeout: 90_000 }, () => {
  it('sends the member through the identity provider, even with a password, and the token is the organization’s SSO token', async () => {
    const { orgId, admin } = await t.org();
    const provider = (
      await t.post(`/v1/orgs/${orgId}/saml`, admin.token, {
        label: 'Okta',
        entityID: idp.entityId,
        certificate: idp.certificate,
        ssoURL: 'https://idp.example.test/sso',
      })
    ).body;
    expect((await t.patch(`/v1/orgs/${orgId}`, admin.token, { sso: true })).status).toBe(200);
    const member = await t.member(orgId, 'edit');
    await setPassword(t.db, member.email, PASSWORD, t.deps.config.passwordCost);

    for (const fields of [{ email: member.email }, { email: member.email, password: PASSWORD }] as Record<string, string>[]) {
      const res = await postForm({ ...request(), ...fields });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toMatch(/^https:\/\/idp\.example\.test\/sso\?/);
    }
    const toIdp = await postForm({ ...request({ state: 'saml-state' }), email: member.email });
    const { id: requestId, url } = authnRequestOf(toIdp.headers.get('location') as string);
    const relayState = url.searchParams.get('RelayState') as string;
    expect(relayState).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const samlResponse = idp.response({
      email: member.email,
      acsURL: provider.service.acsURL,
      audience: provider.service.entityID,
      inResponseTo: requestId,
    });
    const acs = await t.request('POST', `/sso/saml/${provider.id}/acs`, {
      raw: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(acs.status).toBe(303);
    const back = new URL(acs.headers.get('location') as string);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('saml-state');

    const res = await exchange({ code: back.searchParams.get('code'), code_verifier: VERIFIER, redirect_uri: REDIRECT });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { id: member.id }, organization: orgId });
    // An SSO token of the organization: it opens the organization, where the member's other tokens do not.
    expect((await t.get(`/v1/orgs/${orgId}`, res.body.token)).status).toBe(200);
    expect((await t.get(`/v1/orgs/${orgId}`, member.token)).status).toBe(403);
  });
});
