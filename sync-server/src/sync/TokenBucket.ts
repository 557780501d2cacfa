/**
 * A token bucket: `burst` messages at once, then `rate` a second. `take` never refuses;
 * it says how long to wait, so a flooding client is slowed down instead of disconnected.
 */
export class TokenBucket {
  private tokens: number;
  private last = performance.now();

  constructor(
    private rate: number,
    private burst: number,
  ) {
    this.tokens = burst;
  }

  /** Takes one token and returns 0, or returns the milliseconds until one is available. */
  take(): number {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.rate) / 1000);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 1000) / this.rate);
  }
}
