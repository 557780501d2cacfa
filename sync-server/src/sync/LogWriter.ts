import type { Logger } from '../logger';
import { type Db, DurabilityUnknownError } from '../store/db';
import { appendGrouped } from '../store/syncRooms';
import { noticeBytesOf } from '../store/ydocs';
import type { SyncBus } from './SyncBus';

interface Pending {
  docId: string;
  update: Uint8Array;
  resolve: (seq: number | undefined) => void;
  reject: (err: unknown) => void;
}

/** Appends gathered into one statement, at most: bounds how long one commit takes. */
const MAX_GROUP = 256;
/** A group's NOTIFY payload stays under this (PostgreSQL refuses payloads of 8000 bytes). */
const MAX_NOTICE_BYTES = 7000;
/**
 * Groups committing at once on PostgreSQL: each holds a pooled connection, so while one
 * waits for its commit to reach disk the next is already on its way. One on the embedded
 * database, which runs one statement at a time anyway.
 */
const PG_GROUPS_IN_FLIGHT = 3;

/**
 * Appends updates to the log with group commit: what every room hands in while a commit is
 * under way goes into the next group together. A commit (and its fsync) is the cost of
 * durability, so sharing one among many rooms is what lets hundreds of documents take
 * edits at once; on the embedded database, which runs one statement at a time, it is
 * what keeps rooms from queueing behind each other's commits.
 *
 * A group is one statement whatever its size (`appendGrouped`): the same rows `appendUpdate`
 * writes, with rows locked in document id order so two groups committing at once (here or
 * on another instance) cannot deadlock. On PostgreSQL the statement runs in a transaction
 * of its own, so that a connection lost during COMMIT is known as such; it sends one
 * NOTIFY for the group, or, on the Redis bus, the group is announced there once committed. On the embedded database it runs on its own (one statement is one
 * transaction; the adapter syncs the WAL after it) and notifies nobody: no other process
 * reads that database.
 */
export class LogWriter {
  private queue: Pending[] = [];
  private inFlight = 0;
  private broken = false;
  private readonly maxInFlight: number;

  constructor(
    private db: Db,
    private origin: string,
    private log: Logger,
    /** The disk may have lost a commit: the process must stop (it recovers on restart). */
    private onDurabilityLost: (err: DurabilityUnknownError) => void,
    /** What announces each stored group to the other instances; none on the embedded database. */
    private bus?: SyncBus,
  ) {
    this.maxInFlight = db.kind === 'postgres' ? PG_GROUPS_IN_FLIGHT : 1;
  }

  /**
   * Resolves with the update's seq once its statement committed (and its NOTIFY went
   * out), or with undefined when the branch takes no edits (locked, merged, deleted).
   * A document has at most one append in flight (its room waits for each), so groups
   * committing side by side never reorder one document's rows.
   */
  append(docId: string, update: Uint8Array): Promise<number | undefined> {
    return new Promise((resolve, reject) => {
      if (this.broken) return reject(new DurabilityUnknownError(new Error('an earlier commit may not have reached disk')));
      this.queue.push({ docId, update, resolve, reject });
      this.start();
    });
  }

  private start() {
    if (this.inFlight >= this.maxInFlight || this.queue.length === 0) return;
    this.inFlight++;
    // One turn of the event loop first: messages that arrived during the last commit join this group.
    setImmediate(() => {
      const group = this.takeGroup();
      void this.run(group).finally(() => {
        this.inFlight--;
        this.start();
      });
    });
  }

  private async run(group: Pending[]) {
    if (group.length === 0) return;
    try {
      const seqs = await this.commit(group);
      group.forEach((p, i) => p.resolve(seqs[i]));
    } catch (err) {
      if (err instanceof DurabilityUnknownError) return this.lost(group, err);
      if (group.length === 1) return group[0]?.reject(err);
      // The group was rolled back; one failing document must not fail the others: commit each on its own.
      this.log.warn({ err }, 'a grouped log append failed; appending one by one');
      for (const [i, p] of group.entries()) {
        try {
          const [seq] = await this.commit([p]);
          p.resolve(seq);
        } catch (one) {
          if (one instanceof DurabilityUnknownError) return this.lost(group.slice(i), one);
          p.reject(one);
        }
      }
    }
  }

  /** Committing again would write the rows twice, and nothing is known to be on disk: stop. */
  private lost(group: Pending[], err: DurabilityUnknownError) {
    const first = !this.broken;
    this.broken = true;
    for (const p of [...group, ...this.queue]) p.reject(err);
    this.queue = [];
    if (first) this.onDurabilityLost(err);
  }

  /**
   * The next group: queued appends in order, one per document (a second one waits for the
   * next group), within the size of one statement and of one notice.
   */
  private takeGroup(): Pending[] {
    const group: Pending[] = [];
    const docs = new Set<string>();
    const rest: Pending[] = [];
    let noticeBytes = 0;
    for (const p of this.queue) {
      const bytes = noticeBytesOf(p.docId);
      if (group.length < MAX_GROUP && !docs.has(p.docId) && noticeBytes + bytes <= MAX_NOTICE_BYTES) {
        docs.add(p.docId);
        group.push(p);
        noticeBytes += bytes;
      } else rest.push(p);
    }
    this.queue = rest;
    return group;
  }

  private async commit(group: Pending[]): Promise<(number | undefined)[]> {
    if (this.db.kind === 'pglite') return appendGrouped(this.db, group, this.origin, { notify: false });
    // Without a bus given, the statement announces the group (NOTIFY) as it always could.
    const notify = this.bus?.announcedInStatement ?? true;
    const seqs = await this.db.transaction((tx) => appendGrouped(tx, group, this.origin, { notify }));
    const rows = group.flatMap((p, i) => (seqs[i] === undefined ? [] : [{ docId: p.docId, seq: seqs[i] as number }]));
    if (rows.length > 0) this.bus?.announce({ origin: this.origin, rows });
    return seqs;
  }
}
