import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rateLimit';

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
