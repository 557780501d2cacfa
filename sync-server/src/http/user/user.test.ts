import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeToken } from '../../store/tokens';
import { expectError } from '../../testing/apiExpect';
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
