import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../testing/apiExpect';
import { TestServer } from '../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start({ rateLimitPerToken: 5 });
});
afterAll(async () => t?.close());

describe('rate limiting per token', () => {
  it('answers 429 with the error body, Retry-After and X-RateLimit-* past the limit', async () => {
    const u = await t.user();
    for (let i = 1; i <= 5; i++) {
      const ok = await t.get('/v1/user', u.token);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-ratelimit-limit')).toBe('5');
      expect(ok.headers.get('x-ratelimit-remaining')).toBe(String(5 - i));
      expect(Number(ok.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    }
    const limited = await t.get('/v1/user', u.token);
    expectError(limited, 429, /^Rate limit exceeded: retry in \d+ s\.$/);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('5');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBe(retryAfter);
    expect(limited.body.error.message).toBe(`Rate limit exceeded: retry in ${retryAfter} s.`);
  });

  it('counts writes too, and a refused request changes nothing', async () => {
    const u = await t.user();
    for (let i = 0; i < 5; i++) expect((await t.post('/v1/orgs', u.token, { title: `Org ${i}` })).status).toBe(201);
    expectError(await t.post('/v1/orgs', u.token, { title: 'Sixth' }), 429);
    const rows = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM organizations WHERE title = 'Sixth'");
    expect(rows[0]!.n).toBe(0);
  });

  it('keeps a separate budget for each token', async () => {
    const a = await t.user();
    const b = await t.user();
    for (let i = 0; i < 5; i++) await t.get('/v1/user', a.token);
    expect((await t.get('/v1/user', a.token)).status).toBe(429);
    expect((await t.get('/v1/user', b.token)).status).toBe(200);
  });
});
