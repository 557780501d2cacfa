import { type ServerType, serve } from '@hono/node-server';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../testing/apiExpect';
import { TestServer } from '../testing/harness';
import { createApp } from './app';

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

describe('rate limiting per address, over a real socket', () => {
  let server: ServerType;
  let port: number;
  beforeAll(async () => {
    const app = createApp({ ...t.deps, config: { ...t.deps.config, rateLimitPerToken: 0, rateLimitPerAddress: 4 } });
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  /** GET /v1/user from a chosen loopback address (all of 127/8 reaches the server on Linux). */
  const from = (localAddress: string, token?: string) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: any }>((resolve, reject) => {
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/user', localAddress, headers, agent: false }, (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end();
    });

  it('counts every request of an address, with or without a valid token, and limits each address alone', async () => {
    const u = await t.user();
    expect((await from('127.0.0.1')).status).toBe(401);
    expect((await from('127.0.0.1', 'not-a-token')).status).toBe(401);
    const ok = await from('127.0.0.1', u.token);
    expect(ok.status).toBe(200);
    expect(ok.headers['x-ratelimit-limit']).toBe('4');
    expect(ok.headers['x-ratelimit-remaining']).toBe('1');
    expect((await from('127.0.0.1', u.token)).status).toBe(200);
    const limited = await from('127.0.0.1', u.token);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: { code: 429, message: expect.stringMatching(/^Rate limit exceeded/) } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The same token from another address has that address's budget.
    expect((await from('127.0.0.2', u.token)).status).toBe(200);
  });
});
