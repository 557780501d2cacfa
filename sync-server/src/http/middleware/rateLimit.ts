import type { Context, MiddlewareHandler } from 'hono';
import { tooManyRequests } from '@quire/shared/domainErrors';
import type { AppEnv } from '../env';

export { clientAddress } from '../../web/clientAddress';

/**
 * Fixed one-minute windows per key, in memory. Good enough for one process; each
 * instance behind a balancer keeps its own count.
 */
export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  constructor(
    readonly limitPerMinute: number,
    private now: () => number = Date.now,
  ) {}

  hit(key: string): { allowed: boolean; remaining: number; resetSeconds: number } {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t - w.start >= 60_000) {
      w = { start: t, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 100_000) this.sweep(t);
    }
    w.count++;
    const resetSeconds = Math.max(1, Math.ceil((w.start + 60_000 - t) / 1000));
    return { allowed: w.count <= this.limitPerMinute, remaining: Math.max(0, this.limitPerMinute - w.count), resetSeconds };
  }

  /** Keys with a window in memory; bounded by sweeping windows that ended. */
  get trackedKeys(): number {
    return this.windows.size;
  }

  private sweep(t: number) {
    for (const [k, w] of this.windows) if (t - w.start >= 60_000) this.windows.delete(k);
  }
}

/** The two limiters of a server: per client address, then per API token. */
export interface RateLimiters {
  perAddress: RateLimiter;
  perToken: RateLimiter;
}

export function rateLimiters(config: { rateLimitPerAddress: number; rateLimitPerToken: number }): RateLimiters {
  return { perAddress: new RateLimiter(config.rateLimitPerAddress), perToken: new RateLimiter(config.rateLimitPerToken) };
}

/** Limits by a key taken from the request; a limit of 0 turns the limiter off. */
export function rateLimit(limiter: RateLimiter, keyOf: (c: Context<AppEnv>) => string | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (limiter.limitPerMinute === 0) return next();
    const key = keyOf(c);
    if (!key) return next();
    const r = limiter.hit(key);
    c.header('X-RateLimit-Limit', String(limiter.limitPerMinute));
    c.header('X-RateLimit-Remaining', String(r.remaining));
    c.header('X-RateLimit-Reset', String(r.resetSeconds));
    if (!r.allowed) throw tooManyRequests(r.resetSeconds);
    await next();
  };
}
