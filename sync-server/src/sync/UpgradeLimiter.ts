/**
 * WebSocket upgrades allowed per client address and minute, in fixed one-minute windows.
 * An upgrade costs a token lookup, an access check and possibly a document load: without
 * a limit one address could keep the server busy opening connections. Each instance
 * counts its own, as the REST rate limits do.
 */
export class UpgradeLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly perMinute: number,
    private now: () => number = Date.now,
  ) {}

  /** Counts an upgrade from `address`; returns the seconds to wait when it is over the limit, else 0. */
  take(address: string): number {
    const t = this.now();
    let w = this.windows.get(address);
    if (!w || t - w.start >= 60_000) {
      if (this.windows.size >= 100_000) this.sweep(t);
      w = { start: t, count: 0 };
      this.windows.set(address, w);
    }
    w.count++;
    return w.count <= this.perMinute ? 0 : Math.max(1, Math.ceil((w.start + 60_000 - t) / 1000));
  }

  private sweep(t: number) {
    for (const [k, w] of this.windows) if (t - w.start >= 60_000) this.windows.delete(k);
  }
}
