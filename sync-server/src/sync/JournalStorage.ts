import type { Logger } from '../logger';
import type { SyncJournal } from '../store/journal/journaledDb';
import { type RoomPolicy, SyncRefused } from './access';
import type { Admission, RoomStorage, StoreOutcome, StoringRoom } from './RoomStorage';

/**
 * A room's batches on the journal of the embedded database in a data directory: the room
 * hands out seqs itself and checks its write policy itself, synchronously, right before the
 * record is appended. A journaled record is acknowledged and never refused later, so
 * nothing may sit between the last check and the append: a section (a REST write, a lock,
 * a merge) may start at any await, so the checks run again after each one
 * (`beforeBatch`), on a policy every section that may have written refreshes before the
 * gate opens.
 */
export class JournalStorage implements RoomStorage {
  /** The policy as last known for sure, read synchronously right before a batch is journaled. */
  private policyNow?: RoomPolicy | SyncRefused;
  /** Whether `policyNow` is known current (set by the end of every section that may have written, or by a read no section overlapped). */
  private policyFresh = false;
  /** Rows another writer appended may be in the log past the room's `lastSeq` (the next seq must come after them). */
  private stale = false;

  constructor(
    private readonly journal: SyncJournal,
    private readonly log: Logger,
  ) {}

  beforeBatch(room: StoringRoom): Promise<void> | undefined {
    const gate = this.journal.gate;
    if (room.destroyed) return undefined;
    if (gate.closed) return gate.whenOpen();
    if (this.stale) {
      this.stale = false;
      return room.catchUp(Number.POSITIVE_INFINITY);
    }
    if (!this.policyFresh || !this.policyNow) return room.readPolicy(gate.epoch);
    return undefined;
  }

  admit(room: StoringRoom): Admission {
    if (room.destroyed) return 'closed';
    const policy = this.policyNow as RoomPolicy | SyncRefused;
    if (policy instanceof SyncRefused) return policy;
    return policy.refusal ? 'refuse' : 'store';
  }

  async store(room: StoringRoom, row: Uint8Array): Promise<StoreOutcome> {
    const seq = room.lastSeq + 1;
    const durable = this.journal.append({ docId: room.docId, seq, update: row });
    room.lastSeq = seq;
    try {
      await durable;
    } catch (err) {
      // The process stops (a journal that failed cannot promise anything more).
      this.log.error({ err, docId: room.docId }, 'could not journal a sync update');
      return 'lost';
    }
    return 'stored';
  }

  keepsPolicyRead(readAtEpoch?: number): boolean {
    const gate = this.journal.gate;
    return readAtEpoch === undefined || (readAtEpoch === gate.epoch && !gate.closed);
  }

  policyKnown(policy: RoomPolicy | SyncRefused) {
    this.policyNow = policy;
    this.policyFresh = true;
  }

  markStale() {
    this.stale = true;
    this.policyFresh = false;
  }

  logEndsAt(room: StoringRoom, lastSeq: number) {
    if (lastSeq <= room.lastSeq) this.stale = false;
  }
}
