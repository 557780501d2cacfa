import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress, RateLimiter, rateLimit, rateLimiters } from './rateLimit';

/** A caller who used up the budget gets it back when the window ends, not at restart. */
describe('RateLimiter windows', () => {
  function limiterAt(start: number, limit = 3) {
    let now = start;
    const limiter = new RateLimiter(limit, () => now);
    return { limiter, advance: (ms: number) => (now += ms) };
  }

  it('refuses past the limit within a minute and allows again after it', () => {
    const { limiter, advance } = limiterAt(1_000_000);
    for (let i = 0; i < 3; i++) expect(limiter.hit('token').allowed).toBe(true);
    expect(limiter.hit('token').allowed).toBe(false);
    advance(59_000);
    expect(limiter.hit('token').allowed).toBe(false);
    advance(1_000);
    const fresh = limiter.hit('token');
    expect(fresh.allowed).toBe(true);
    expect(fresh.remaining).toBe(2);
  });

  it('tells how many seconds are left in the window', () => {
    const { limiter, advance } = limiterAt(0);
    expect(limiter.hit('a').resetSeconds).toBe(60);
    advance(45_500);
    expect(limiter.hit('a').resetSeconds).toBe(15);
  });

  it('keeps keys apart', () => {
    const { limiter } = limiterAt(0, 1);
    expect(limiter.hit('a').allowed).toBe(true);
    expect(limiter.hit('a').allowed).toBe(false);
    expect(limiter.hit('b').allowed).toBe(true);
  });

  it('forgets old windows when the table grows, without losing current counts', () => {
    const { limiter, advance } = limiterAt(0, 1);
    limiter.hit('busy');
    advance(61_000);
    limiter.hit('busy');
    for (let i = 0; i <= 100_000; i++) limiter.hit(`k${i}`);
    expect(limiter.hit('busy').allowed).toBe(false);
  });
});

describe('RateLimiter memory', () => {
  it('drops windows that ended once it tracks more than 100,000 keys', () => {
    let now = 0;
    const limiter = new RateLimiter(5, () => now);
    for (let i = 0; i < 100_000; i++) limiter.hit(`old${i}`);
    expect(limiter.trackedKeys).toBe(100_000);
    now = 60_000;
    limiter.hit('fresh');
    expect(limiter.trackedKeys).toBe(1);
  });

  it('keeps ended windows while it tracks exactly 100,000 keys', () => {
    let now = 0;
    const limiter = new RateLimiter(5, () => now);
    for (let i = 0; i < 99_999; i++) limiter.hit(`old${i}`);
    now = 60_000;
    limiter.hit('fresh');
    expect(limiter.trackedKeys).toBe(100_000);
  });
});

describe('rateLimiters', () => {
  it('makes one limiter per address and one per token, with their own limits', () => {
    const l = rateLimiters({ rateLimitPerAddress: 300, rateLimitPerToken: 120 });
    expect([l.perAddress.limitPerMinute, l.perToken.limitPerMinute]).toEqual([300, 120]);
    expect(l.perAddress).not.toBe(l.perToken);
  });
});

describe('rateLimit middleware', () => {
  function app(limit: number, key: string | undefined) {
    const a = new Hono();
    a.onError((err, c) => c.json({ status: (err as { status?: number }).status ?? 500 }, 429));
    a.use('*', rateLimit(new RateLimiter(limit), () => key) as never);
    a.get('/', (c) => c.text('ok'));
    return a;
  }

  it('a limit of 0 turns it off', async () => {
    const a = app(0, 'k');
    for (let i = 0; i < 5; i++) {
      const res = await a.request('/');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });

  it('lets a request without a key through uncounted, however many come', async () => {
    const a = app(1, undefined);
    for (let i = 0; i < 3; i++) {
      const res = await a.request('/');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });

  it('counts requests under their key and refuses past the limit', async () => {
    const a = app(2, 'k');
    expect((await a.request('/')).headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await a.request('/')).status).toBe(200);
    expect((await a.request('/')).status).toBe(429);
  });
});

describe('clientAddress', () => {
  it("names a request without a socket 'unknown', so it is still counted", async () => {
    const a = new Hono();
    a.get('/', (c) => c.text(clientAddress(c)));
    expect(await (await a.request('/')).text()).toBe('unknown');
  });

  it("names a socket that lost its address 'unknown', so the request is still counted", async () => {
    const a = new Hono();
    a.get('/', (c) => c.text(clientAddress(c)));
    // A socket already closed by the peer reports no remote address.
    expect(await (await a.request('/', {}, { incoming: { socket: {} } })).text()).toBe('unknown');
  });
});
