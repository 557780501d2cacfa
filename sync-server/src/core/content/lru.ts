/** A small least-recently-used map: caches keyed by immutable ids (revisions) never go stale, only cold. */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: K, value: V) {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.max) {
      const oldest = this.map.keys().next().value as K;
      this.map.delete(oldest);
    }
  }

  /** Removes and returns an entry (a caller that is about to mutate it). */
  take(key: K): V | undefined {
    const v = this.map.get(key);
    this.map.delete(key);
    return v;
  }

  clear() {
    this.map.clear();
  }
}
