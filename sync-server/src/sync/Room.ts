import { SyncClose, SyncCloseReason, SyncRefusal, type SyncRoom } from '@quire/shared/sync';
import * as Y from 'yjs';
import type { Logger } from '../logger';
import type { Db } from '../store/db';
import { type RoomPolicy, SyncRefused, loadRoomPolicy } from './access';
import type { SyncConfig } from './config';
import { RoomAwareness } from './RoomAwareness';
import { RoomDocument } from './RoomDocument';
import type { CompactionState } from './Compactor';
import type { RoomMember } from './roomMember';
import type { RoomStorage, StoringRoom } from './RoomStorage';
import { type DeleteSet, assertMergeable, pendingOf } from './updates';

export type { RoomMember };

/** The row storing `updates`: the update itself when alone, else their merge. Throws when Yjs cannot merge one. */
function rowOf(updates: Uint8Array[]): Uint8Array | undefined {
  if (updates.length === 0) return undefined;
  if (updates.length > 1) return Y.mergeUpdates(updates);
  const only = updates[0] as Uint8Array;
  assertMergeable(only);
  return only;
}

/** What a room needs from the service that holds it. */
export interface RoomHost {
  db: Db;
  log: Logger;
  config: SyncConfig;
  instanceId: string;
  /**
   * A batch of live edits by `editors` (user ids) was stored, relayed and answered (starts
   * the quiet timer, counts towards compaction, records who edited). The room's next batch
   * waits for what it returns.
   */
  edited(room: Room, editors: Set<string>): Promise<void> | void;
  /** Local awareness changed: other instances should hear of it, with the user that set each entry. */
  awarenessChanged(room: Room, clients: number[], users: Map<number, string>): void;
  /** The last connection left. */
  emptied(room: Room): void;
}

/** An update could not be applied: the connection that sent it is closed, nothing was stored. */
export class BadUpdateError extends Error {}
/** The update could not be stored: nothing was applied or relayed. */
export class StorageError extends Error {}

interface UpdateJob {
  kind: 'update';
  from: RoomMember;
  update: Uint8Array;
  resolve: () => void;
  reject: (err: Error) => void;
}
type Job = UpdateJob | { kind: 'catchUp' };

/** Most updates folded into one stored row: bounds the work of one batch. */
const MAX_BATCH = 256;

/**
 * One branch document in memory, with the connections editing it.
 *
 * Every change goes through one queue, so the stored log and the document move in the
 * same order. A batch of client updates is applied to the document once, ahead of its
 * storage, folded into one row, appended to the log (durable), and only then relayed, as
 * that row, and acknowledged. Until then nothing of it leaves the room: a sync step 2 that
 * would carry it waits (`whenStored`), a compaction does not take the document. When a
 * batch is not stored after all (a crafted update Yjs throws on halfway, a refusal, a
 * failed write), the document is read again from the log, which never held it. Updates
 * other writers appended (other instances, REST merges) are read from the log by seq,
 * applied and relayed as stored.
 */
export class Room extends RoomDocument implements StoringRoom {
  private readonly presence: RoomAwareness;
  readonly ready: Promise<void>;
  destroyed = false;
  /** Loading or applying failed: the room is dropped at once and the next connection loads it again. */
  failed = false;
  idleTimer?: NodeJS.Timeout;
  private jobs: Job[] = [];
  private working?: Promise<void>;
  private policyValue?: Promise<RoomPolicy>;

  constructor(
    docId: string,
    readonly room: SyncRoom,
    private host: RoomHost,
    /** Where batches are stored (`RoomStorage.ts`); the room works the same over either kind. */
    readonly storage: RoomStorage,
  ) {
    super(docId, host.db);
    this.presence = new RoomAwareness(this.members, (clients, users) => this.host.awarenessChanged(this, clients, users));
    this.ready = this.load();
    // Whoever waits on `ready` sees the failure (and closes with 1011, which clients retry):
    // the room is dropped so that the retry loads the document again instead of meeting it.
    this.ready.catch((err) => {
      this.host.log.error({ err, docId }, 'loading a sync room failed');
      this.fail();
    });
  }

  get awareness() {
    return this.presence.awareness;
  }

  /** Applies a connection's awareness update (see `RoomAwareness.apply`). Throws on a malformed update. */
  applyAwareness(from: RoomMember, update: Uint8Array) {
    this.presence.apply(from, update);
  }

  /** Applies awareness another instance relayed, with the user that set each entry there. */
  applyRemoteAwareness(update: Uint8Array, users: Map<number, string>) {
    this.presence.applyRemote(update, users);
  }

  /**
   * The room's write policy (locks, closed change requests): read with the room, then
   * kept current by the service, which checks every loaded room's at once each second.
   * Rejects with `SyncRefused` once the space or change request is gone.
   */
  policy(): Promise<RoomPolicy> {
    this.policyValue ??= loadRoomPolicy(this.host.db, this.room);
    return this.policyValue;
  }

  /**
   * A fresh policy, or the refusal that the room's branch is gone. `readAtEpoch`: the
   * journal gate's epoch when the read started (-1 when a section held the rooms then);
   * a read that a section overlapped may predate a lock and is dropped (`keepsPolicyRead`).
   */
  setPolicy(policy: RoomPolicy | SyncRefused, readAtEpoch?: number) {
    if (!this.storage.keepsPolicyRead(readAtEpoch)) return;
    const value = policy instanceof SyncRefused ? Promise.reject(policy) : Promise.resolve(policy);
    value.catch(() => {});
    this.policyValue = value;
    this.storage.policyKnown(policy);
  }

  /** Queues a client update. Resolves once it is stored and applied (relayed). */
  submit(from: RoomMember, update: Uint8Array): Promise<void> {
    return new Promise((resolve, reject) => {
      this.jobs.push({ kind: 'update', from, update, resolve, reject });
      this.kick();
    });
  }

  /** Asks the room to read the log for updates other writers appended. */
  requestCatchUp() {
    if (this.destroyed || this.jobs.some((j) => j.kind === 'catchUp')) return;
    this.jobs.push({ kind: 'catchUp' });
    this.kick();
  }

  /** Resolves when the queue is empty. */
  async settled(): Promise<void> {
    while (this.working) await this.working;
  }

  get busy(): boolean {
    return this.jobs.length > 0 || !!this.working;
  }

  private kick() {
    if (this.working || this.destroyed) return;
    this.working = (async () => {
      try {
        await this.ready;
        while (this.jobs.length > 0 && !this.destroyed) {
          if (this.jobs[0]?.kind === 'catchUp') {
            this.jobs.shift();
            await this.catchUp(Number.POSITIVE_INFINITY);
            continue;
          }
          const batch: UpdateJob[] = [];
          while (batch.length < MAX_BATCH && this.jobs[0]?.kind === 'update') batch.push(this.jobs.shift() as UpdateJob);
          await this.persist(batch);
        }
      } catch (err) {
        this.host.log.error({ err, docId: this.docId }, 'sync room failed; closing it');
        this.fail();
      } finally {
        this.working = undefined;
      }
      if (this.jobs.length > 0 && !this.destroyed) this.kick();
    })();
  }

  /**
   * Applies the batch to the document ahead of its storage, stores it as one row, then
   * relays and acknowledges it. Each update is read twice on the way: applied, and merged
   * into the row (for a batch of one, the merge only walks its metadata). Whether Yjs can
   * merge an update is known from the merge itself; only when a merge throws is the batch
   * taken again carefully, each update checked on its own before it is applied.
   *
   * The storage may have the room wait and check before a batch (the journal: see
   * `JournalStorage`); from its last check to the row handed over the batch runs without
   * a break.
   */
  private async persist(batch: UpdateJob[], careful = false): Promise<void> {
    for (let wait = this.storage.beforeBatch(this); wait; wait = this.storage.beforeBatch(this)) await wait;
    const admission = this.storage.admit(this);
    if (admission === 'closed') {
      for (const j of batch) j.reject(new StorageError('room closed'));
      return;
    }
    if (admission instanceof SyncRefused) {
      this.closeAll(admission.code, admission.reason);
      for (const j of batch) j.reject(admission);
      return;
    }
    if (admission === 'refuse') return this.refuseBatch(batch);
    const accepted: UpdateJob[] = [];
    const unchanged: UpdateJob[] = [];
    this.applyPending = true;
    for (const [i, job] of batch.entries()) {
      if (careful) {
        try {
          assertMergeable(job.update);
        } catch (err) {
          job.reject(new BadUpdateError((err as Error).message));
          continue;
        }
      }
      const pendingBefore = pendingOf(this.doc);
      this.changed = false;
      try {
        Y.applyUpdate(this.doc, job.update);
      } catch (err) {
        // Yjs may have integrated part of it before it threw: the document is read again
        // from the log and the rest of the batch taken again.
        try {
          await this.reload();
        } finally {
          job.reject(new BadUpdateError((err as Error).message));
        }
        return this.persist([...accepted, ...unchanged, ...batch.slice(i + 1)], careful);
      }
      const pendingChanged = pendingOf(this.doc).some((p, k) => p !== pendingBefore[k]);
      // An update that changes nothing (a reconnecting client's delete set) is not stored again.
      if (!this.changed && !pendingChanged) unchanged.push(job);
      else accepted.push(job);
    }
    let row: Uint8Array | undefined;
    try {
      row = rowOf(accepted.map((j) => j.update));
    } catch (err) {
      if (careful) throw err;
      // An update Yjs applies but cannot merge: find it, with nothing of the batch answered yet.
      await this.reload();
      return this.persist(batch, true);
    }
    if (!row) {
      this.settleAhead();
      for (const j of unchanged) j.resolve();
      return;
    }
    // An update that changes nothing next to one of this batch is on disk only once the row is.
    const answered = [...accepted, ...unchanged];
    // One sender: relayed to everyone else. Several: to everyone, each sender's own part included (Yjs ignores what it has).
    const senders = new Set(accepted.map((j) => j.from));
    const sender = senders.size === 1 ? accepted[0]?.from : undefined;
    const outcome = await this.storage.store(this, row);
    if (outcome === 'lost') {
      for (const j of answered) j.reject(new StorageError('storage failed'));
      return;
    }
    if (outcome === 'failed') {
      try {
        await this.reload();
      } finally {
        for (const j of answered) j.reject(new StorageError('storage failed'));
      }
      return;
    }
    if (outcome === 'refused') {
      await this.reload();
      return this.refuseBatch(answered);
    }
    return this.stored(row, sender, accepted, answered);
  }

  /** The batch's row is stored: relayed, acknowledged, counted. */
  private async stored(row: Uint8Array, sender: RoomMember | undefined, accepted: UpdateJob[], answered: UpdateJob[]) {
    this.storedRow(row);
    this.relay(row, sender);
    this.settleAhead();
    this.rowsSinceSnapshot++;
    for (const j of answered) j.resolve();
    const after = this.host.edited(this, new Set(accepted.map((j) => j.from.creds.userId)));
    if (after) await after;
  }

  /**
   * The document as one update, with the seq it holds every row up to: a compaction's
   * snapshot straight from memory, instead of reading and merging the log again. The
   * document may hold more than that (a row applied before a gap before it was read): a
   * snapshot holding a row twice is harmless, as Yjs applies what it has once. Undefined
   * while the document holds a batch not stored yet, or once the room is gone. A large
   * document's is made on the document thread (`encodedState`), hence a promise.
   */
  stateAtLastSeq(): CompactionState | Promise<CompactionState> | undefined {
    if (this.applyPending || this.destroyed || this.failed || this.lastSeq === 0) return undefined;
    const seq = this.lastSeq;
    const update = this.encodedState();
    return update instanceof Uint8Array ? { update, seq } : update.then((u) => ({ update: u, seq }));
  }

  /** Reads the policy; kept only when no section started meanwhile. */
  async readPolicy(epoch: number) {
    let value: RoomPolicy | SyncRefused;
    try {
      value = await loadRoomPolicy(this.host.db, this.room);
    } catch (err) {
      if (!(err instanceof SyncRefused)) throw err;
      value = err;
    }
    this.setPolicy(value, epoch);
  }

  /**
   * The branch closed (a lock, a merge) after the batch was checked against the room's
   * policy: nothing was stored. The policy is read again and the senders are told why.
   */
  private async refuseBatch(batch: UpdateJob[]) {
    this.policyValue = undefined;
    let reason: string = this.room.kind === 'space' ? SyncRefusal.locked : SyncRefusal.closed;
    try {
      reason = (await this.policy()).refusal ?? reason;
    } catch (err) {
      if (!(err instanceof SyncRefused)) throw err;
      this.closeAll(err.code, err.reason);
    }
    for (const j of batch) {
      j.from.refused(reason);
      j.resolve();
    }
  }

  addMember(m: RoomMember) {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.members.add(m);
  }

  removeMember(m: RoomMember) {
    if (!this.members.delete(m)) return;
    this.presence.removeMember(m);
    if (this.members.size === 0) this.host.emptied(this);
  }

  /** Closes every connection (a deleted space, a broken room, a stopping server). */
  closeAll(code: number, reason: string) {
    for (const m of [...this.members]) m.close(code, reason);
  }

  private fail() {
    this.failed = true;
    for (const job of this.jobs) if (job.kind === 'update') job.reject(new StorageError('room failed'));
    this.jobs = [];
    this.closeAll(SyncClose.storageFailed, SyncCloseReason.loadFailed);
    this.host.emptied(this);
  }

  /** The replica of a large document is lost: the room is dropped, and loaded again by the next connection. */
  protected override replicaFailed(err: Error) {
    if (this.destroyed || this.failed) return;
    this.host.log.error({ err, docId: this.docId }, 'the document thread lost a sync room; closing it');
    this.fail();
  }

  destroy() {
    this.destroyed = true;
    this.closeDocument();
    clearTimeout(this.idleTimer);
    for (const job of this.jobs) if (job.kind === 'update') job.reject(new StorageError('room closed'));
    this.jobs = [];
    this.presence.destroy();
    this.doc.destroy();
    this.storedWaiters = [];
  }
}
