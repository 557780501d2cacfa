import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '../logger';
import type { Db } from '../store/db';
import { YDOC_CHANNEL, logNotice, parseLogNotice } from '../store/ydocs';
import type { BusHandlers, LogRows, SyncBus } from './SyncBus';

/** Entries a shard's stream keeps (approximately: `MAXLEN ~`); a reader further behind catches up from the database. */
const MAX_LEN = 10_000;
/** Entries one read takes per stream. */
const READ_COUNT = 1000;
/** Longest one blocking read waits (a change of the shards read interrupts it sooner). */
const BLOCK_MS = 5000;

/** The shard of a room among `shards` streams. */
export const shardOf = (docId: string, shards: number) =>
  shards === 1 ? 0 : createHash('sha1').update(docId).digest().readUInt16BE(0) % shards;
/** The stream of a shard; `prefix` keeps deployments (or tests) sharing one Redis apart. */
export const streamKey = (shard: number, prefix = 'quire:sync') => `${prefix}:${shard}`;

/**
 * Redis Streams (the y-redis design, with rooms spread over `SYNC_BUS_SHARDS` streams): a
 * stored group is one XADD per shard its rows fall in (one with a single shard, the
 * default), all in one round trip, each entry listing its rows as the NOTIFY payload does;
 * an instance XREAD BLOCKs the shards of the rooms it holds, from the last entry it read,
 * and drops entries of rooms it does not hold.
 * Streams are trimmed to about `MAX_LEN` entries. PostgreSQL stays the store: an entry only
 * says which rows to read, and whatever may have been missed (a connection that dropped, a
 * stream trimmed past a reader, an instance that died between its commit and its XADD) is
 * caught up from the database, at once or at the service's sweep.
 *
 * Writes outside the rooms (REST writes, merges, forks) are still announced by their
 * transaction's NOTIFY on commit, which this bus keeps listening to: they are few.
 */
export class RedisBus implements SyncBus {
  readonly kind = 'redis';
  readonly announcedInStatement = false;
  readonly sent = { groups: 0, awareness: 0 };
  private pub: Redis;
  private reader: Redis;
  private readerId: number | undefined;
  private handlers?: BusHandlers;
  /** Rooms held, per shard. */
  private held = new Map<number, Set<string>>();
  /** Where each shard read is: the id of the last entry read. */
  private lastIds = new Map<number, string>();
  private stopped = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private readerWasReady = false;
  private unlisten?: () => Promise<void>;
  private warnedAt = 0;
  /** The name of this bus's connections (`CLIENT LIST`): `<name>` publishes, `<name>-reader` reads. */
  readonly name = `quire-bus-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  constructor(
    private db: Db,
    private url: string,
    private shards: number,
    private log: Logger,
    private prefix?: string,
  ) {
    // No offline queue: an announcement Redis cannot take now is dropped (readers catch up from the database).
    const opts = { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 } as const;
    this.pub = new Redis(url, { ...opts, connectionName: this.name });
    this.reader = new Redis(url, { ...opts, connectionName: `${this.name}-reader` });
    for (const c of [this.pub, this.reader]) c.on('error', (err) => this.warn(err, 'the sync bus lost Redis'));
    this.reader.on('ready', () => {
      this.readerId = undefined;
      // Entries added while the reader was away may be gone (a restarted Redis keeps none): every room catches up.
      if (this.readerWasReady) this.handlers?.missed();
      this.readerWasReady = true;
      this.wake?.();
    });
  }

  async start(h: BusHandlers) {
    this.handlers = h;
    this.unlisten = await this.db.listen(YDOC_CHANNEL, (payload) => h.rows(parseLogNotice(payload)));
    try {
      await Promise.all([this.pub.connect(), this.reader.connect()]);
    } catch (err) {
      await this.stop();
      // A bus that never worked is a setting to fix, not an outage to ride out: say so and stop.
      throw new Error(`SYNC_BUS=redis, but no Redis answers at REDIS_URL (${shownRedis(this.url)}): ${(err as Error).message}`);
    }
    this.loop = this.read();
  }

  announce(notice: LogRows) {
    const byShard = new Map<number, LogRows['rows']>();
    for (const row of notice.rows) {
      const shard = shardOf(row.docId, this.shards);
      const rows = byShard.get(shard);
      if (rows) rows.push(row);
      else byShard.set(shard, [row]);
    }
    const batch = this.pub.pipeline();
    for (const [shard, rows] of byShard) batch.xadd(this.key(shard), 'MAXLEN', '~', MAX_LEN, '*', 'n', logNotice(notice.origin, rows));
    this.sent.groups += byShard.size;
    batch.exec().catch((err) => this.warn(err, 'announcing stored updates on Redis failed'));
  }

  relayAwareness(docId: string, payload: string) {
    this.sent.awareness++;
    this.pub
      .xadd(this.key(shardOf(docId, this.shards)), 'MAXLEN', '~', MAX_LEN, '*', 'a', payload)
      .catch((err) => this.warn(err, 'relaying awareness on Redis failed'));
  }

  private key(shard: number) {
    return streamKey(shard, this.prefix);
  }

  hold(docId: string) {
    const shard = shardOf(docId, this.shards);
    let rooms = this.held.get(shard);
    if (!rooms) {
      rooms = new Set();
      this.held.set(shard, rooms);
    }
    rooms.add(docId);
    if (!this.lastIds.has(shard)) void this.follow(shard);
  }

  release(docId: string) {
    const shard = shardOf(docId, this.shards);
    const rooms = this.held.get(shard);
    rooms?.delete(docId);
    if (rooms?.size === 0) {
      this.held.delete(shard);
      this.lastIds.delete(shard);
    }
  }

  /**
   * Starts reading a shard from its newest entry, then has its rooms catch up from the
   * database: whatever was announced before that entry was committed before the catch-up.
   */
  private async follow(shard: number) {
    this.lastIds.set(shard, '$');
    let last = '0-0';
    try {
      const [newest] = (await this.pub.xrevrange(this.key(shard), '+', '-', 'COUNT', 1)) as [string, string[]][];
      last = newest?.[0] ?? '0-0';
    } catch (err) {
      this.warn(err, 'reading where a Redis stream stands failed');
    }
    if (this.lastIds.get(shard) !== '$') return;
    this.lastIds.set(shard, last);
    this.handlers?.missed([...(this.held.get(shard) ?? [])]);
    await this.interrupt();
  }

  /** Ends the blocking read under way, so the next one reads the shards held now. */
  private async interrupt() {
    this.wake?.();
    if (this.readerId === undefined) return;
    await this.pub.client('UNBLOCK', this.readerId).catch(() => {});
  }

  private async read() {
    while (!this.stopped) {
      const shards = [...this.lastIds].filter(([, id]) => id !== '$');
      if (shards.length === 0 || this.reader.status !== 'ready') {
        await new Promise<void>((r) => {
          this.wake = r;
          setTimeout(r, 1000).unref();
        });
        this.wake = undefined;
        continue;
      }
      try {
        this.readerId ??= Number(await this.reader.client('ID'));
        const keys = shards.map(([s]) => this.key(s));
        const ids = shards.map(([, id]) => id);
        const reply = (await this.reader.xread('COUNT', READ_COUNT, 'BLOCK', BLOCK_MS, 'STREAMS', ...keys, ...ids)) as
          [string, [string, string[]][]][] | null;
        for (const [key, entries] of reply ?? []) await this.take(Number(key.slice(key.lastIndexOf(':') + 1)), entries);
      } catch (err) {
        if (this.stopped) return;
        this.warn(err, 'reading the sync bus on Redis failed');
        await new Promise((r) => setTimeout(r, 500).unref());
      }
    }
  }

  private async take(shard: number, entries: [string, string[]][]) {
    const before = this.lastIds.get(shard);
    if (before === undefined || before === '$' || entries.length === 0) return;
    const h = this.handlers;
    for (const [, fields] of entries) {
      for (let i = 0; i + 1 < fields.length; i += 2) {
        const [name, value] = [fields[i], fields[i + 1] ?? ''];
        if (name === 'n') h?.rows(parseLogNotice(value));
        else if (name === 'a') h?.awareness(value);
      }
    }
    this.lastIds.set(shard, entries[entries.length - 1]?.[0] ?? before);
    // A full read means this reader is behind: if the stream was trimmed past where it stood, its rooms catch up.
    if (entries.length === READ_COUNT && (await this.trimmedPast(shard, before))) h?.missed([...(this.held.get(shard) ?? [])]);
  }

  /**
   * Whether entries after `id` may have been trimmed away: trimming removes the oldest entries,
   * so nothing after `id` is gone while the stream still holds `id` or an older entry. (Trimming
   * leaves `max-deleted-entry-id` alone: only XDEL moves it.)
   */
  private async trimmedPast(shard: number, id: string): Promise<boolean> {
    try {
      const [first] = (await this.pub.xrange(this.key(shard), '-', '+', 'COUNT', 1)) as [string, string[]][];
      return first === undefined || compareIds(first[0], id) > 0;
    } catch {
      return true;
    }
  }

  private warn(err: unknown, msg: string) {
    if (this.stopped) return;
    // At most one warning every ten seconds: a Redis that is down fails every call.
    const now = Date.now();
    if (now - this.warnedAt < 10_000) return;
    this.warnedAt = now;
    this.log.warn({ err }, msg);
  }

  async stop() {
    this.stopped = true;
    await this.unlisten?.().catch(() => {});
    this.reader.disconnect();
    this.wake?.();
    await this.loop?.catch(() => {});
    await this.pub.quit().catch(() => this.pub.disconnect());
  }
}

function compareIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am - bm || as - bs;
}

/** The address of a Redis URL without its password, for messages. */
function shownRedis(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return 'an unreadable URL';
  }
}
