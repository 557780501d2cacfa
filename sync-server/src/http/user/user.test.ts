import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, revokeToken } from '../../store/tokens';
import { UNKNOWN_ID, expectError } from '../../testing/apiExpect';
import { TestServer } from '../../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

describe('GET /v1/user', () => {
  it('answers the caller', async () => {
    const u = await t.user('Grace');
    const res = await t.get('/v1/user', u.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'user',
      id: u.id,
      displayName: 'Grace',
      email: u.email,
      urls: { location: `http://quire.test/v1/users/${u.id}` },
      permissions: { view: true },
    });
    // Stable: the same bytes twice.
    expect(JSON.stringify((await t.get('/v1/user', u.token)).body)).toBe(JSON.stringify(res.body));
  });

  it('answers 401 without a token, with a malformed header, and with a revoked token', async () => {
    const u = await t.user();
    expectError(await t.get('/v1/user'), 401, 'A valid API token is required: send Authorization: Bearer <token>.');
    const basic = await t.request('GET', '/v1/user', { headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } });
    expectError(basic, 401, 'A valid API token is required: send Authorization: Bearer <token>.');
    expect(basic.headers.get('www-authenticate')).toBe('Bearer');
    await revokeToken(t.db, u.token);
    expectError(await t.get('/v1/user', u.token), 401, 'The API token is not valid (unknown or revoked).');
  });

  it('ignores query parameters it does not know, as every read does', async () => {
    const u = await t.user();
    const res = await t.request('GET', '/v1/user?unexpected=1', { token: u.token });
    expect(res.status).toBe(200);
  });
});

describe('GET /v1/users/{userId}', () => {
  it("answers the user every User's urls.location names, to the user and to members of a shared organization", async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const reader = members[0]!;
    const self = await t.get('/v1/user', reader.token);
    const location = new URL(self.body.urls.location);
    expect((await t.get(location.pathname, reader.token)).body).toEqual(self.body);
    expect((await t.get(location.pathname, admin.token)).body).toEqual(self.body);
    // A member's user links to the same place.
    const member = await t.get(`/v1/orgs/${orgId}/members/${reader.id}`, admin.token);
    expect(member.body.user.urls.location).toBe(self.body.urls.location);
  });

  it('answers 404 for an unknown user and for one the caller shares no organization with, alike', async () => {
    const { members } = await t.org(['read']);
    const stranger = await t.user();
    const unknown = await t.get(`/v1/users/${UNKNOWN_ID}`, stranger.token);
    expectError(unknown, 404, 'No matching user found.');
    const hidden = await t.get(`/v1/users/${members[0]!.id}`, stranger.token);
    expect({ status: hidden.status, body: hidden.body }).toEqual({ status: unknown.status, body: unknown.body });
    expectError(await t.get('/v1/users/a..b', stranger.token), 400, /^Invalid path parameter field "userId"/);
  });
});

describe('API tokens', () => {
  it('are stored hashed: the database never holds the token itself', async () => {
    const u = await t.user();
    const rows = await t.db.query<Record<string, unknown>>('SELECT * FROM api_tokens WHERE user_id = $1', [u.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(hashToken(u.token));
    expect(hashToken(u.token)).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(u.token);
  });
});
