import type { Logger } from '../logger';
import type { Db } from '../store/db';
import { journalOf } from '../store/journal/journaledDb';
import { compactDoc, compactDocTo } from '../store/ydocs';

/** A loaded room, which can hand its document over as the snapshot (see `Room.stateAtLastSeq`). */
export interface CompactionSource {
  stateAtLastSeq(): CompactionState | Promise<CompactionState> | undefined;
}

/** A document as one update, holding every row up to `seq`. */
export interface CompactionState {
  update: Uint8Array;
  seq: number;
}

/**
 * Folds a document's log into its snapshot in the background, one run per document at a
 * time. A loaded room's document already is the merge of the snapshot and the rows it
 * applied, so its state is stored as the snapshot: nothing is read back or merged, which
 * keeps a busy room's event loop free. A document no room holds is merged from one read
 * of the snapshot and the rows after it (`compactDoc`). Either way the snapshot is stored
 * under the document row's lock, only if no other fold moved it meanwhile; appends never
 * wait for the merge, and readers get the snapshot and the rows after it in one statement.
 */
export class Compactor {
  private running = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private db: Db,
    private log: Logger,
    /** Called after a document was compacted (its loaded room resets its row count). */
    private compacted: (docId: string) => void,
  ) {}

  compact(docId: string, loaded?: CompactionSource) {
    if (this.running.has(docId) || this.stopped) return;
    const state = loaded?.stateAtLastSeq();
    const run = (state ? Promise.resolve(state).then((s) => this.store(docId, s)) : compactDoc(this.db, docId))
      .then(() => this.compacted(docId))
      .catch((err) => this.log.error({ err, docId }, 'compacting a document log failed'))
      .finally(() => this.running.delete(docId));
    this.running.set(docId, run);
  }

  /**
   * With the journal the snapshot waits for the records up to its seq to reach the
   * database, and holds no room: it changes no row a room reads past its position, and
   * no policy.
   */
  private store(docId: string, state: CompactionState) {
    const journal = journalOf(this.db);
    const db = journal ? { transaction: journal.transactionWithoutHold } : this.db;
    return compactDocTo(db, docId, state.update, state.seq);
  }

  /** Takes no more runs and waits for those under way. */
  async stop() {
    this.stopped = true;
    await Promise.allSettled([...this.running.values()]);
  }
}
