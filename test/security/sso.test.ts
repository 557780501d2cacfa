import { SyncClose, SyncCloseReason } from '@quire/shared/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient } from '../../sync-server/src/testing/syncClients';
import { TestIdp } from '../../sync-server/src/testing/testIdp';
import { World } from './world';

/**
 * SAML sign-in is scoped to the provider's organization: an admin of B, who may register
 * any identity provider with any certificate, must not reach A through it.
 */
let w: World;
let mallory: TestIdp;
let provider: { id: string; service: { entityID: string; acsURL: string } };
let aSpace: string;
let bSpace: string;

beforeAll(async () => {
  w = await World.start({ RATE_LIMIT_SSO_PER_ADDRESS: '30' });
  mallory = new TestIdp('https://idp.b-corp.test/metadata');
  const created = await w.post(`/v1/orgs/${w.b.orgId}/saml`, w.b.admin.token, {
    label: 'B corp IdP',
    entityID: mallory.entityId,
    certificate: mallory.certificate,
    ssoURL: 'https://idp.b-corp.test/sso',
    defaultRole: 'read',
  });
  expect(created.status).toBe(200);
  provider = created.body;
  aSpace = await w.space(w.a, 'A: acquisition plans');
  bSpace = await w.space(w.b, 'B: roadmap');
  // A lets in whoever proves an @a-corp.test address.
  expect((await w.patch(`/v1/orgs/${w.a.orgId}`, w.a.admin.token, { emailDomains: ['a-corp.test'] })).status).toBe(200);
});
afterAll(async () => w?.stop());

async function signIn(email: string) {
  const samlResponse = mallory.response({ email, acsURL: provider.service.acsURL, audience: provider.service.entityID });
  return w.request('POST', `/sso/saml/${provider.id}/acs`, {
    raw: `SAMLResponse=${encodeURIComponent(samlResponse)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
  });
}

describe('SAML of one organization', () => {
  it("cannot sign in a user of another organization: B's provider asserting A's writer gets no token", async () => {
    const res = await signIn(w.a.writer.email);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/not a member of this organization/);
    expect(res.text).not.toMatch(/qt_/);
  });

  it('creates a new account in its own organization only, with an address that opens nothing else', async () => {
    const res = await signIn('newcomer@a-corp.test');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ organization: w.b.orgId, created: true });
    const token = res.body.token as string;
    expect((await w.get(`/v1/spaces/${bSpace}`, token)).status).toBe(200);
    // A's email-domain rule takes only verified addresses: one asserted by B's provider is not.
    expect((await w.post(`/v1/orgs/${w.a.orgId}/join`, token)).status).toBe(404);
    expect((await w.get(`/v1/spaces/${aSpace}`, token)).status).toBe(404);
    expect((await w.get('/v1/orgs', token)).body.items.map((o: { id: string }) => o.id)).toEqual([w.b.orgId]);
  });

  it("gives a member of both organizations a token that reaches only the provider's", async () => {
    const res = await signIn(w.both.email);
    expect(res.status).toBe(200);
    const token = res.body.token as string;
    expect((await w.get(`/v1/spaces/${bSpace}`, token)).status).toBe(200);
    // The same user's own token opens A; the one B's provider issued does not.
    expect((await w.get(`/v1/spaces/${aSpace}`, w.both.token)).status).toBe(200);
    const fromB = await w.get(`/v1/spaces/${aSpace}`, token);
    expect(fromB.status).toBe(404);
    expect((await w.get(`/v1/orgs/${w.a.orgId}/spaces`, token)).status).toBe(404);
    // Joining answers as every other route of A does, though the user is a member there.
    const join = await w.post(`/v1/orgs/${w.a.orgId}/join`, token);
    expect(join.status).toBe(404);
    expect(join.body.error).toEqual({ code: 404, message: (await w.get(`/v1/orgs/${w.a.orgId}`, token)).body.error.message });
    expect((await w.post(`/v1/orgs/${w.b.orgId}/join`, token)).status).toBe(204);
    // Nor does it show the people of A the user happens to share it with.
    expect((await w.get(`/v1/users/${w.a.writer.id}`, w.both.token)).status).toBe(200);
    expect((await w.get(`/v1/users/${w.a.writer.id}`, token)).status).toBe(404);
    expect((await w.get('/v1/orgs', token)).body.items.map((o: { id: string }) => o.id)).toEqual([w.b.orgId]);

    // Sync asks the same access function: A's rooms refuse that token before sending anything.
    const wsBase = `${w.server.url.replace(/^http/, 'ws')}/v1/sync/spaces`;
    const intoA = await rawClient(`${wsBase}/${aSpace}`, token);
    expect(await intoA.closed).toEqual({ code: SyncClose.notFound, reason: SyncCloseReason.noAccess });
    expect(intoA.messages).toEqual([]);
    const intoB = await rawClient(`${wsBase}/${bSpace}`, token);
    await new Promise((r) => setTimeout(r, 300));
    expect(intoB.messages.length).toBeGreaterThan(0);
    intoB.ws.close();
  });

  it('rate-limits the browser-facing SSO endpoints per client address', async () => {
    let limited: Response | undefined;
    for (let i = 0; i < 40 && !limited; i++) {
      const res = await fetch(`${w.url}/sso/saml/${provider.id}`);
      await res.arrayBuffer();
      if (res.status === 429) limited = res;
    }
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
