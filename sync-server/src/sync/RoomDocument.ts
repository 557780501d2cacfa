import * as Y from 'yjs';
import type { Db } from '../store/db';
import { type StoredDoc, loadStoredDoc, readDocLog } from '../store/ydocs';
import { DocReplica, LARGE_DOC_BYTES, applySliced, missingSliced, sizeOf } from './docThread';
import { encodeUpdate } from './protocol';
import type { RoomMember } from './roomMember';
import type { DeleteSet } from './updates';

/**
 * A room's branch document and the log it is read from: the document holds every stored
 * row up to `lastSeq` (and, for a while, a batch on its way to storage), is read again from
 * the log when such a batch is dropped, and takes in what other writers appended. The room
 * (`Room.ts`) adds the queue that stores batches and the write policy; `RoomAwareness.ts`
 * keeps the members' cursors and presence.
 */
export class RoomDocument {
  private current = new Y.Doc({ gc: true });
  /** Whether the last transaction on the document changed it (the test Yjs uses before it emits `update`). */
  protected changed = false;
  readonly members = new Set<RoomMember>();
  /** The last log seq applied, with every seq before it. */
  lastSeq = 0;
  /** The document holds a batch that is not stored yet. */
  protected applyPending = false;
  /** Run as soon as the document holds nothing unstored (see `whenStored`). */
  protected storedWaiters: (() => void)[] = [];
  /** Log rows written since the last compaction, roughly: decides when to compact. */
  rowsSinceSnapshot = 0;
  private deleteSetCache?: DeleteSet;
  /**
   * A large document's replica on the document thread (see `docThread.ts`): sent every row
   * the document takes in once it is stored (never a batch on its way to storage), in the
   * order the document takes them in, it answers what needs a pass over the whole document
   * (a step 2, a compaction's snapshot) for the document as it was when asked. Undefined
   * for a small document, which the room reads directly.
   */
  private replica?: DocReplica;
  /** The room is gone: a replica opened by a load still on its way is closed at once. */
  private documentClosed = false;

  constructor(
    readonly docId: string,
    private readonly db: Db,
  ) {
    this.watch(this.current);
  }

  /** The document: every stored row up to `lastSeq`, plus the batch on its way to storage while `applyPending`. */
  get doc(): Y.Doc {
    return this.current;
  }

  /**
   * Notes whether each transaction changed the document, by the test Yjs uses before it
   * emits `update` (new deletions, or a moved state vector), without encoding the update
   * as an `update` listener would make it do: relays send the stored rows themselves.
   */
  private watch(doc: Y.Doc) {
    doc.on('afterTransaction', (tr: Y.Transaction) => {
      let changed = tr.deleteSet.clients.size > 0;
      if (!changed) for (const [client, clock] of tr.afterState) if (tr.beforeState.get(client) !== clock) changed = true;
      if (!changed) return;
      this.changed = true;
      this.deleteSetCache = undefined;
    });
  }

  /** Loads the snapshot and the log, read together (see `loadStoredDoc`). */
  protected async load() {
    const stored = await loadStoredDoc(this.db, this.docId);
    if (!stored) return;
    await this.readFrom(stored, stored.lastSeq);
    this.lastSeq = stored.lastSeq;
    this.rowsSinceSnapshot = stored.updates.length;
  }

  /**
   * Reads the document again from the log, up to `lastSeq`: what was applied ahead of a
   * batch that is not stored (or half-applied by an update Yjs threw on) is gone.
   */
  protected async reload() {
    const stored = await loadStoredDoc(this.db, this.docId);
    if (stored && stored.snapshotSeq > this.lastSeq)
      throw new Error(`the snapshot of ${this.docId} is past the room's seq ${this.lastSeq}`);
    await this.readFrom(stored, this.lastSeq);
    this.settleAhead();
  }

  /**
   * Makes the document the stored snapshot and rows up to `upTo`, in a new Y doc. A large
   * one is read into a replica on the document thread, whose state comes back in slices
   * applied a slice per turn of the event loop; the room's document is swapped for it only
   * once it is whole.
   */
  private async readFrom(stored: StoredDoc | undefined, upTo: number) {
    const parts = [
      ...(stored?.snapshot ? [stored.snapshot] : []),
      ...(stored?.updates ?? []).filter((row) => row.seq <= upTo).map((row) => row.update),
    ];
    const doc = new Y.Doc({ gc: true });
    let replica: DocReplica | undefined;
    if (sizeOf(parts) >= LARGE_DOC_BYTES) {
      const opened = await DocReplica.open(parts);
      replica = opened.replica;
      try {
        await applySliced(doc, opened.slices);
      } catch (err) {
        replica.close();
        throw err;
      }
    } else for (const part of parts) Y.applyUpdate(doc, part);
    this.watch(doc);
    this.current.destroy();
    this.current = doc;
    this.replica?.close();
    this.replica = replica;
    if (this.documentClosed) this.closeDocument();
    this.deleteSetCache = undefined;
  }

  /**
   * The document took in a stored row (stored by the room, or read from the log): so does
   * its replica. Call it as the row is applied, before anything is asked of the replica.
   */
  protected storedRow(row: Uint8Array) {
    const replica = this.replica;
    replica?.apply(row).catch((err: Error) => this.replicaLost(replica, err));
  }

  /** The replica of a large document is lost (the document thread stopped): see `Room`. */
  protected replicaFailed(_err: Error) {}

  private replicaLost(replica: DocReplica, err: Error) {
    if (this.replica === replica) this.replicaFailed(err);
  }

  /**
   * What the document the replica holds as of now, every stored row, past `stateVector`
   * when given; rejects, and fails the room, when the replica is lost.
   */
  private fromReplica(replica: DocReplica, stateVector?: Uint8Array): Promise<Uint8Array> {
    return replica.encode(stateVector).catch((err: Error) => {
      this.replicaLost(replica, err);
      throw err;
    });
  }

  /**
   * What a client whose state vector is `stateVector` is missing of the stored document
   * (call it when the document holds nothing unstored: `whenStored`). A large document's is
   * made on the document thread, from its replica as of this call: rows stored later reach
   * the client as they are relayed. Throws on a malformed state vector.
   */
  missingFrom(stateVector: Uint8Array): Uint8Array | Promise<Uint8Array> {
    if (!this.replica) return Y.encodeStateAsUpdate(this.doc, stateVector);
    Y.decodeStateVector(stateVector);
    return this.fromReplica(this.replica, stateVector);
  }

  /**
   * The document as one update, deleted content collected: from the document itself, or a
   * large one's from its replica on the document thread, as of this call (call it when the
   * document holds nothing unstored).
   */
  protected encodedState(): Uint8Array | Promise<Uint8Array> {
    if (!this.replica) return Y.encodeStateAsUpdate(this.doc);
    return this.fromReplica(this.replica);
  }

  /** The room is gone: its replica, if any, is dropped. */
  protected closeDocument() {
    this.documentClosed = true;
    this.replica?.close();
    this.replica = undefined;
  }

  /** Sends a stored update to the members, all of them or all but its one sender; encoded only if someone gets it. */
  protected relay(update: Uint8Array, except?: RoomMember) {
    let msg: Uint8Array | undefined;
    for (const m of this.members) if (m !== except) m.send((msg ??= encodeUpdate(update)));
  }

  /** The document holds nothing unstored any more: replies waiting for that go out. */
  protected settleAhead() {
    this.applyPending = false;
    const waiters = this.storedWaiters;
    this.storedWaiters = [];
    for (const w of waiters) w();
  }

  /**
   * Runs `fn` (synchronously) once the document holds nothing that is not stored: at once,
   * or right after the batch on its way is stored or dropped. What `fn` reads of the
   * document may then be sent: it is all on disk.
   */
  whenStored(fn: () => void) {
    if (this.applyPending) this.storedWaiters.push(fn);
    else fn();
  }

  /** The document's delete set, computed once per change (refused writers' updates are checked against it). */
  deleteSet = (): DeleteSet => {
    this.deleteSetCache ??= Y.createDeleteSetFromStructStore(this.doc.store);
    return this.deleteSetCache;
  };

  /**
   * Applies what the store holds after `lastSeq` (up to `upTo`), in seq order. The snapshot
   * and the rows come from one read, so rows a compaction folded away arrive through the
   * snapshot, never skipped. Rows are committed in seq order, so when the read ends before
   * `upTo` something is wrong with the store: the room fails and its clients reload it.
   */
  async catchUp(upTo: number) {
    const stored = await readDocLog(this.db, this.docId, this.lastSeq);
    if (!stored) return;
    if (stored.snapshot) {
      // Members get what the snapshot adds to the document, not the whole document again.
      if (this.replica) {
        const { diff, slices } = await missingSliced(stored.snapshot, Y.encodeStateVector(this.doc));
        await applySliced(this.doc, slices);
        this.relay(diff);
      } else {
        const missing = Y.diffUpdate(stored.snapshot, Y.encodeStateVector(this.doc));
        Y.applyUpdate(this.doc, stored.snapshot);
        this.relay(missing);
      }
      this.storedRow(stored.snapshot);
      this.lastSeq = Math.max(this.lastSeq, stored.snapshotSeq);
      this.rowsSinceSnapshot = 0;
    }
    for (const row of stored.updates) {
      if (row.seq > upTo) break;
      Y.applyUpdate(this.doc, row.update);
      this.relay(row.update);
      this.storedRow(row.update);
      this.lastSeq = row.seq;
      this.rowsSinceSnapshot++;
    }
    if (upTo !== Number.POSITIVE_INFINITY && this.lastSeq < upTo) {
      throw new Error(`the log of ${this.docId} ends at ${this.lastSeq}, before seq ${upTo} that was committed`);
    }
  }
}
