import type { Logger } from '../logger';
import type { RoomPolicy, SyncRefused } from './access';
import type { Admission, RoomStorage, StoreOutcome, StoringRoom } from './RoomStorage';

/**
 * Appends one row to a document's log; resolves with its seq, or with undefined when the
 * branch takes no edits any more (checked in the statement that writes the row).
 */
export type AppendRow = (docId: string, update: Uint8Array) => Promise<number | undefined>;

/**
 * A room's batches through the log writer (`LogWriter`: PostgreSQL, and the embedded
 * database with `SYNC_JOURNAL=off`): the statement storing the row hands out its seq and
 * checks the write policy, so nothing is waited for or checked before a batch.
 */
export class LogWriterStorage implements RoomStorage {
  constructor(
    private readonly append: AppendRow,
    private readonly log: Logger,
  ) {}

  beforeBatch(): undefined {
    return undefined;
  }

  admit(): Admission {
    return 'store';
  }

  async store(room: StoringRoom, row: Uint8Array): Promise<StoreOutcome> {
    let seq: number | undefined;
    try {
      seq = await this.append(room.docId, row);
    } catch (err) {
      this.log.error({ err, docId: room.docId }, 'could not store a sync update');
      return 'failed';
    }
    if (seq === undefined) return 'refused';
    // Rows other writers appended before ours come first, so `lastSeq` stays gap-free.
    if (seq > room.lastSeq + 1) await room.catchUp(seq - 1);
    if (room.lastSeq === seq - 1) room.lastSeq = seq;
    else room.requestCatchUp();
    return 'stored';
  }

  keepsPolicyRead(): boolean {
    return true;
  }

  policyKnown(_policy: RoomPolicy | SyncRefused) {}

  /** Sections are the journal's: the statement storing a row reads the policy and the seqs itself. */
  markStale() {}

  logEndsAt() {}
}
