import type { Logger } from '../logger';
import { type Db, DurabilityUnknownError } from '../store/db';
import { appendGrouped } from '../store/syncRooms';

interface Pending {
  docId: string;
  update: Uint8Array;
  resolve: (seq: number | undefined) => void;
  reject: (err: unknown) => void;
}

/** Appends gathered into one transaction, at most: bounds how long one commit takes. */
const MAX_GROUP = 256;

/**
 * Appends updates to the log with group commit: what every room hands in while a commit is
 * under way goes into the next transaction together. A commit (and its fsync) is the cost
 * of durability, so sharing one among many rooms is what lets hundreds of documents take
 * edits at once; on the embedded database, which runs one transaction at a time, it is
 * what keeps rooms from queueing behind each other's commits.
 *
 * A group is a handful of statements whatever its size (`appendGrouped`): the same rows
 * and notifications `appendUpdate` writes, with rows locked in document id order so two
 * instances committing groups that share documents cannot deadlock.
 */
export class LogWriter {
  private queue: Pending[] = [];
  private running?: Promise<void>;

  constructor(
    private db: Db,
    private origin: string,
    private log: Logger,
    /** The disk may have lost a commit: the process must stop (it recovers on restart). */
    private onDurabilityLost: (err: DurabilityUnknownError) => void,
  ) {}

  /**
   * Resolves with the update's seq once its transaction committed (and its NOTIFY went
   * out), or with undefined when the branch takes no edits (locked, merged, deleted).
   */
  append(docId: string, update: Uint8Array): Promise<number | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ docId, update, resolve, reject });
      this.running ??= this.drain().finally(() => {
        this.running = undefined;
      });
    });
  }

  private async drain() {
    while (this.queue.length > 0) {
      // One turn of the event loop first: messages that arrived during the last commit join this group.
      await new Promise((r) => setImmediate(r));
      const group = this.takeGroup();
      try {
        const seqs = await this.commit(group);
        group.forEach((p, i) => p.resolve(seqs[i]));
      } catch (err) {
        if (err instanceof DurabilityUnknownError) {
          // Committing again would write the rows twice, and nothing is known to be on disk.
          for (const p of [...group, ...this.queue]) p.reject(err);
          this.queue = [];
          this.onDurabilityLost(err);
          return;
        }
        if (group.length === 1) {
          group[0]?.reject(err);
          continue;
        }
        // The group was rolled back; one failing document must not fail the others: commit each on its own.
        this.log.warn({ err }, 'a grouped log append failed; appending one by one');
        for (const p of group) {
          try {
            const [seq] = await this.commit([p]);
            p.resolve(seq);
          } catch (one) {
            p.reject(one);
            if (one instanceof DurabilityUnknownError) {
              for (const q of [...group.slice(group.indexOf(p) + 1), ...this.queue]) q.reject(one);
              this.queue = [];
              this.onDurabilityLost(one);
              return;
            }
          }
        }
      }
    }
  }

  /** The next group: queued appends in order, one per document (a second one waits for the next group). */
  private takeGroup(): Pending[] {
    const group: Pending[] = [];
    const docs = new Set<string>();
    const rest: Pending[] = [];
    for (const p of this.queue) {
      if (group.length < MAX_GROUP && !docs.has(p.docId)) {
        docs.add(p.docId);
        group.push(p);
      } else rest.push(p);
    }
    this.queue = rest;
    return group;
  }

  private commit(group: Pending[]): Promise<(number | undefined)[]> {
    return this.db.transaction((tx) => appendGrouped(tx, group, this.origin));
  }
}
