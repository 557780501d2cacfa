import type { Logger } from '../logger';
import type { Db } from '../store/db';
import { compactDoc } from '../store/ydocs';

/**
 * Folds a document's log into its snapshot in the background, one run per document at a
 * time. Safe while the room takes edits: the merge is built from one read of the snapshot
 * and the rows after it, and stored under the document row's lock only if no other fold
 * moved the snapshot meanwhile (`compactDoc`); appends never wait for the merge. Readers
 * get the snapshot and the rows after it in one statement.
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

  compact(docId: string) {
    if (this.running.has(docId) || this.stopped) return;
    const run = compactDoc(this.db, docId)
      .then(() => this.compacted(docId))
      .catch((err) => this.log.error({ err, docId }, 'compacting a document log failed'))
      .finally(() => this.running.delete(docId));
    this.running.set(docId, run);
  }

  /** Takes no more runs and waits for those under way. */
  async stop() {
    this.stopped = true;
    await Promise.allSettled([...this.running.values()]);
  }
}
