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
