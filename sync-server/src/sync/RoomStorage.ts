import type { RoomPolicy, SyncRefused } from './access';

/** What a storage sees of the room it stores for, and may ask of it. */
export interface StoringRoom {
  readonly docId: string;
  /** The last log seq the document holds, with every seq before it. */
  lastSeq: number;
  readonly destroyed: boolean;
  /** Reads and applies the rows other writers appended after `lastSeq`, up to `upTo`. */
  catchUp(upTo: number): Promise<void>;
  /** Queues a catch-up behind the room's other work. */
  requestCatchUp(): void;
  /** Reads the write policy again; the read is dropped when a section started meanwhile (`keepsPolicyRead`). */
  readPolicy(epoch: number): Promise<void>;
}

/**
 * Whether a batch may be stored, decided right before it is applied: `store`; `closed` (the
 * room is gone); `refuse` (the branch takes no edits: locked, merged, closed); or the refusal
 * that the branch itself is gone. A storage that checks the write policy as it stores
 * (the log writer's statement) always answers `store`.
 */
export type Admission = 'store' | 'closed' | 'refuse' | SyncRefused;

/**
 * How storing a batch's row ended: `stored` (on disk, `lastSeq` moved past it); `refused`
 * (the branch took no edits by the time the row was written, nothing stored); `failed`
 * (nothing stored, the room reads its document back); `lost` (the storage cannot promise
 * anything more and stops the process: nothing is relayed or acknowledged, nothing read back).
 */
export type StoreOutcome = 'stored' | 'refused' | 'failed' | 'lost';

/**
 * Where a room's batches are stored, one per room: the append-only journal of the embedded
 * database in a data directory (`JournalStorage`), or the group-committing log writer on
 * PostgreSQL and on the embedded database with `SYNC_JOURNAL=off` (`LogWriterStorage`). The
 * room applies, relays and acknowledges the same way over either; what differs (who hands
 * out seqs, where the write policy is checked, what must be waited for first) is here.
 */
export interface RoomStorage {
  /**
   * What to wait for before a batch may be applied and stored, or undefined when it may be
   * now. The room waits and asks again until undefined; from then until `store` hands the
   * row over it runs without a break.
   */
  beforeBatch(room: StoringRoom): Promise<void> | undefined;
  /** Whether the batch may be stored, read synchronously right before it is applied. */
  admit(room: StoringRoom): Admission;
  /** Stores the batch's row after `room.lastSeq`, and moves `room.lastSeq` past it when stored. */
  store(room: StoringRoom, row: Uint8Array): Promise<StoreOutcome>;
  /** Whether a policy read that started at `readAtEpoch` may be kept (undefined: read with no section in view). */
  keepsPolicyRead(readAtEpoch?: number): boolean;
  /** The write policy as last known for sure. */
  policyKnown(policy: RoomPolicy | SyncRefused): void;
  /** A section may have written: the log and the policy are to be read again before the next batch. */
  markStale(): void;
  /** After a section: the log of the room's document ends at `lastSeq`. */
  logEndsAt(room: StoringRoom, lastSeq: number): void;
}
