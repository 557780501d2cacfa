import { LRUCache } from 'lru-cache';
import type { Db } from '../../store/db';

/** The channel the database's triggers tag changes on (migration 012). */
export const INVALIDATION_CHANNEL = 'quire_cache';

/** What a kept answer was computed from: `t:<token hash>`, `a:<org>`, `s:<space>`… (see migration 012). */
export type Tag = string;

export const tags = {
  token: (hash: string) => `t:${hash}`,
  user: (id: string) => `u:${id}`,
  org: (id: string) => `o:${id}`,
  access: (orgId: string) => `a:${orgId}`,
  memberUsers: (orgId: string) => `m:${orgId}`,
  space: (id: string) => `s:${id}`,
  spacesOf: (orgId: string) => `sp:${orgId}`,
};

export interface ReadModelOptions {
  /** Entries kept at most (each kind of entry counts against it; 0 turns the read model off). */
  maxEntries?: number;
  /** Bytes of cached responses kept at most. */
  maxResponseBytes?: number;
}

interface Entry {
  value: unknown;
  tags: Tag[];
}

/** A response kept as bytes: what the HTTP layer needs to send it again without routing. */
export interface CachedResponse {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
  /** The caller it was computed for, for the per-token rate limit and the log line. */
  tokenId: string;
  userId: string;
}

/** Counters of the read model, for benchmarks and tests. */
export interface ReadModelStats {
  hits: number;
  misses: number;
  /** Requests answered from cached response bytes, and those that looked and found none. */
  responseHits: number;
  responseMisses: number;
  invalidations: number;
  /** Reads that raced a write and were not kept. */
  discarded: number;
}

/**
 * The read model: answers that every request needs (the caller of a token, a caller's
 * access in an organization, hot rows and counters, whole responses), kept in memory and
 * dropped exactly when the database says a row they were computed from changed.
 *
 * - **Invalidation.** Triggers tag every change on `quire_cache` (migration 012). PGlite
 *   delivers the notification inside the statement that commits, before it resolves, so
 *   the very next read in this process sees the write. On PostgreSQL every instance
 *   listens; see `fence` for reading one's writes across instances.
 * - **Reads racing writes.** `begin()` notes the generation before the database is read;
 *   an answer is kept only if no change touching its tags arrived since. A read that saw
 *   the old row and finished after the write's notification is never kept.
 * - **Unknown answers are never kept** (an unknown token, a missing row): nothing would
 *   invalidate them, and keeping them would let anyone fill the cache.
 * - **Listener down** (PostgreSQL): everything is dropped and every read goes to the
 *   database until the LISTEN connection is back; it is dropped again then, because
 *   notifications sent meanwhile are lost.
 */
export class ReadModel {
  private entries: LRUCache<string, Entry>;
  private responses: LRUCache<string, CachedResponse & { tags: Tag[] }>;
  /** Keys of entries and responses per tag, for exact invalidation. */
  private byTag = new Map<Tag, Set<string>>();
  /** Generation of the last invalidation of each tag, since `floor`. */
  private tagGen = new Map<Tag, number>();
  private gen = 0;
  /** Reads begun before this generation are never kept (everything was dropped then). */
  private floor = 0;
  private readonly enabled: boolean;
  readonly stats: ReadModelStats = { hits: 0, misses: 0, responseHits: 0, responseMisses: 0, invalidations: 0, discarded: 0 };
  /** The adapter's count of this process's writes that the last fence covered. */
  private fencedWrites = 0;
  /** Resolves once invalidations are heard (the read model stays inactive until then). */
  readonly ready: Promise<void>;
  private started = false;

  constructor(
    private db: Db,
    opts: ReadModelOptions = {},
  ) {
    const max = opts.maxEntries ?? 50_000;
    this.enabled = max > 0;
    const dispose = (kind: 'e' | 'r') => (value: { tags: Tag[] }, key: string) => this.unindex(`${kind}${key}`, value.tags);
    this.entries = new LRUCache<string, Entry>({ max: Math.max(1, max), dispose: dispose('e') });
    this.responses = new LRUCache<string, CachedResponse & { tags: Tag[] }>({
      max: Math.max(1, max),
      maxSize: opts.maxResponseBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (r) => r.body.byteLength + 256,
      dispose: dispose('r'),
    });
    db.onListening(() => this.dropAll());
    this.ready = this.enabled
      ? db
          .listen(INVALIDATION_CHANNEL, (payload) => this.invalidate(payload))
          .then(
            () => {
              this.dropAll();
              this.started = true;
            },
            // Without invalidations nothing may be kept: every read goes to the database.
            () => {},
          )
      : Promise.resolve();
  }

  /** Whether answers may be kept and served now. */
  get active(): boolean {
    return this.started && this.db.listening;
  }

  /**
   * Waits until this process has heard every invalidation of a write acknowledged before
   * the call (a no-op on PGlite). False when that cannot be known: read the database.
   */
  async fence(): Promise<boolean> {
    if (!this.active) return false;
    const writes = this.db.writes;
    const ok = await this.db.fence();
    if (ok) this.fencedWrites = Math.max(this.fencedWrites, writes);
    return ok && this.active;
  }

  /**
   * Whether a write of this process committed since the last fence: on PostgreSQL its
   * notification may not have come back yet, so the next cached read fences first (read
   * your own writes, within one request too).
   */
  private get unfencedWrites(): boolean {
    return this.db.writes !== this.fencedWrites;
  }

  /** The generation to pass to `keep`: note it before reading the database. */
  begin(): number {
    return this.gen;
  }

  /** A kept value, or undefined (also while the read model is inactive). */
  async get<T>(key: string): Promise<T | undefined> {
    if (!this.active) return undefined;
    if (this.unfencedWrites && !(await this.fence())) return undefined;
    const e = this.entries.get(key);
    if (e) this.stats.hits++;
    else this.stats.misses++;
    return e?.value as T | undefined;
  }

  /** Keeps a value read since `since`, unless a change to one of its tags arrived meanwhile. */
  keep(key: string, value: unknown, entryTags: Tag[], since: number): void {
    if (!this.active || !this.fresh(entryTags, since)) return;
    this.entries.set(key, { value, tags: entryTags });
    this.index(`e${key}`, entryTags);
  }

  /**
   * The one way to read through the model: a kept answer, or `load` (never kept when it
   * answers undefined).
   */
  async through<T>(key: string, load: () => Promise<{ value: T; tags: Tag[] } | undefined>): Promise<T | undefined> {
    const kept = await this.get<T>(key);
    if (kept !== undefined) return kept;
    const since = this.begin();
    const loaded = await load();
    if (!loaded) return undefined;
    this.keep(key, loaded.value, loaded.tags, since);
    return loaded.value;
  }

  /** Cached bytes for a request that has just been fenced (nothing is read before this). */
  response(key: string): CachedResponse | undefined {
    if (!this.active) return undefined;
    const r = this.responses.get(key);
    if (r) this.stats.responseHits++;
    else this.stats.responseMisses++;
    return r;
  }

  keepResponse(key: string, response: CachedResponse, responseTags: Tag[], since: number): void {
    if (!this.active || !this.fresh(responseTags, since)) return;
    this.responses.set(key, { ...response, tags: responseTags });
    this.index(`r${key}`, responseTags);
  }

  /** A change arrived: drop every entry computed from the tagged rows. */
  invalidate(tag: Tag): void {
    this.gen++;
    this.stats.invalidations++;
    if (tag === '*') {
      this.dropAll();
      return;
    }
    this.tagGen.set(tag, this.gen);
    // Bounded: forgetting old generations only makes reads in flight not keep their answer.
    if (this.tagGen.size > 100_000) {
      this.tagGen.clear();
      this.floor = this.gen;
    }
    const keys = this.byTag.get(tag);
    if (!keys) return;
    this.byTag.delete(tag);
    for (const k of keys) {
      if (k[0] === 'e') this.entries.delete(k.slice(1));
      else this.responses.delete(k.slice(1));
    }
  }

  /** Drops everything (listener lost or back, TRUNCATE); reads in flight will not be kept. */
  dropAll(): void {
    this.gen++;
    this.floor = this.gen;
    this.tagGen.clear();
    this.byTag.clear();
    this.entries.clear();
    this.responses.clear();
  }

  get size(): number {
    return this.entries.size + this.responses.size;
  }

  private fresh(entryTags: Tag[], since: number): boolean {
    if (since < this.floor) {
      this.stats.discarded++;
      return false;
    }
    if (since === this.gen) return true;
    for (const t of entryTags) {
      if ((this.tagGen.get(t) ?? 0) > since) {
        this.stats.discarded++;
        return false;
      }
    }
    return true;
  }

  private index(key: string, entryTags: Tag[]) {
    for (const t of entryTags) {
      let set = this.byTag.get(t);
      if (!set) this.byTag.set(t, (set = new Set()));
      set.add(key);
    }
  }

  private unindex(key: string, entryTags: Tag[]) {
    for (const t of entryTags) {
      const set = this.byTag.get(t);
      if (!set) continue;
      set.delete(key);
      if (set.size === 0) this.byTag.delete(t);
    }
  }
}

const models = new WeakMap<Db, ReadModel>();

/** The read model of a database: one per opened database, shared by everything that reads it. */
export function readModelOf(db: Db, opts?: ReadModelOptions): ReadModel {
  let m = models.get(db);
  if (!m) {
    m = new ReadModel(db, opts);
    models.set(db, m);
  }
  return m;
}
