import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Db } from '../store/db';
import { YDOC_CHANNEL, parseLogNotice } from '../store/ydocs';
import { AWARENESS_CHANNEL } from './AwarenessRelay';

/** Rows appended to the log, as one message announces them. */
export interface LogRows {
  origin: string;
  rows: { docId: string; seq: number }[];
}

/** What an instance hears from the others. */
export interface BusHandlers {
  /** Rows another writer appended: the rooms holding them catch up from the database. */
  rows(notice: LogRows): void;
  /** An awareness relay (`AwarenessRelay`'s payload). */
  awareness(payload: string): void;
  /** Messages may have been missed (a dropped connection, a trimmed stream): these rooms, or every room, catch up. */
  missed(docIds?: string[]): void;
}

/**
 * What carries the sync fan-out between instances sharing one PostgreSQL. The database stays
 * the store and the source of truth: a message only says which rows to read, so a room that
 * hears nothing (a lost message) catches up from the log at the next sweep, or at once when
 * the bus knows it missed something.
 */
export interface SyncBus {
  readonly kind: 'postgres' | 'redis';
  /**
   * Whether the log writer's statement announces its group itself (a NOTIFY sent on commit);
   * otherwise the writer hands the group to `announce` once it committed.
   */
  readonly announcedInStatement: boolean;
  start(handlers: BusHandlers): Promise<void>;
  /** Announces a stored group: one message (on Redis with shards, one per shard it touches). Never throws. */
  announce(notice: LogRows): void;
  /** Relays awareness of a room. Never throws. */
  relayAwareness(docId: string, payload: string): void;
  /** This instance now holds (or no longer holds) the room: a bus that can, reads only the rooms held. */
  hold(docId: string): void;
  release(docId: string): void;
  /** Messages this process sent on the bus (announcements and awareness), for the metrics. */
  readonly sent: { groups: number; awareness: number };
  stop(): Promise<void>;
}

/**
 * LISTEN/NOTIFY: one NOTIFY per stored group, sent by the statement that stores it, so it
 * goes out on commit; every listening instance hears every notice.
 */
export class PostgresBus implements SyncBus {
  readonly kind = 'postgres';
  readonly announcedInStatement = true;
  readonly sent = { groups: 0, awareness: 0 };
  private unlisten: (() => Promise<void>)[] = [];

  constructor(
    private db: Db,
    private log: Logger,
  ) {}

  async start(h: BusHandlers) {
    this.unlisten.push(await this.db.listen(YDOC_CHANNEL, (payload) => h.rows(parseLogNotice(payload))));
    this.unlisten.push(await this.db.listen(AWARENESS_CHANNEL, (payload) => h.awareness(payload)));
    // Notices sent while the LISTEN connection was down are lost for good: every room catches up.
    const off = this.db.onListening((up) => up && h.missed());
    this.unlisten.push(async () => void off());
  }

  announce() {
    // Sent by the statement (`appendGrouped`); counted here for the metrics.
    this.sent.groups++;
  }

  relayAwareness(_docId: string, payload: string) {
    this.sent.awareness++;
    this.db.notify(AWARENESS_CHANNEL, payload).catch((err) => this.log.warn({ err }, 'relaying awareness failed'));
  }

  hold() {}
  release() {}

  async stop() {
    for (const un of this.unlisten) await un().catch(() => {});
  }
}

/** The bus the settings ask for; none on the embedded database (one process, nothing to fan out to). */
export async function busFor(db: Db, config: Config, log: Logger): Promise<SyncBus | undefined> {
  if (db.kind !== 'postgres') return undefined;
  if (config.syncBus === 'postgres') return new PostgresBus(db, log);
  // Loaded only when asked for: the default setup never needs the Redis client.
  const { RedisBus } = await import('./RedisBus');
  return new RedisBus(db, config.redisUrl, config.syncBusShards, log);
}
