/**
 * Shares database reads between concurrent requests without ever answering from before a
 * request arrived. A request that finds a read in flight (started before it arrived, so
 * possibly stale for it) waits for the next read, which starts when that one ends and is
 * shared by everyone who arrived meanwhile. Under load this turns N reads into about one
 * per round trip; alone, a request pays exactly one read.
 */
export class FreshLoader<V> {
  private running = new Map<string, Promise<V>>();
  private queued = new Map<string, Promise<V>>();

  load(key: string, read: () => Promise<V>): Promise<V> {
    const current = this.running.get(key);
    if (!current) return this.start(key, read);
    let next = this.queued.get(key);
    if (!next) {
      next = current.then(
        () => this.promote(key, read),
        () => this.promote(key, read),
      );
      this.queued.set(key, next);
    }
    return next;
  }

  private promote(key: string, read: () => Promise<V>): Promise<V> {
    this.queued.delete(key);
    return this.start(key, read);
  }

  private start(key: string, read: () => Promise<V>): Promise<V> {
    const p = read().finally(() => {
      if (this.running.get(key) === p) this.running.delete(key);
    });
    this.running.set(key, p);
    return p;
  }
}
