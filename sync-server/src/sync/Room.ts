import { SyncClose, SyncCloseReason, SyncRefusal, type SyncRoom } from '@quire/shared/sync';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as Y from 'yjs';
import type { Logger } from '../logger';
import type { Db } from '../store/db';
import type { SyncJournal } from '../store/journal/journaledDb';
import { addContributor } from '../store/changeRequests';
import { loadStoredDoc, readDocLog } from '../store/ydocs';
import { type RoomPolicy, SyncRefused, loadRoomPolicy } from './access';
import type { SyncConfig } from './config';
import { encodeAwarenessStates, encodeUpdate } from './protocol';
import { type DeleteSet, assertMergeable, pendingOf } from './updates';

/** Transaction origins in a room's doc and awareness, so nothing echoes back to where it came from. */
export const FROM_LOG = Symbol('from-log');
export const FROM_REMOTE = Symbol('from-remote-instance');
/** Updates of several connections applied as one row: relayed to every member. */
const FROM_BATCH = Symbol('from-batch');

/** The row storing `updates`: the update itself when alone, else their merge. Throws when Yjs cannot merge one. */
function rowOf(updates: Uint8Array[]): Uint8Array | undefined {
  if (updates.length === 0) return undefined;
  if (updates.length > 1) return Y.mergeUpdates(updates);
  const only = updates[0] as Uint8Array;
  assertMergeable(only);
  return only;
}

/** The part of a connection a room talks to. */
export interface RoomMember {
  readonly controlled: Set<number>;
  /** The user editing through this connection: recorded as a change request's contributor. */
  readonly creds: { userId: string };
  send(data: Uint8Array): void;
  close(code: number, reason: string): void;
  /** Its update was not applied: the branch stopped taking edits (tell the client why). */
  refused(reason: string): void;
}

/** What a room needs from the service that holds it. */
export interface RoomHost {
  db: Db;
  log: Logger;
  config: SyncConfig;
  instanceId: string;
  /**
   * Appends one row to the document's log (group commit); resolves with its seq, or with
   * undefined when the branch takes no edits any more (checked as the row is written).
   */
  append(docId: string, update: Uint8Array): Promise<number | undefined>;
  /**
   * The journal batches go to instead of `append` (the embedded database in a data
   * directory): the room hands out seqs and checks its write policy itself.
   */
  journal?: SyncJournal;
  /** A batch of live edits was stored (starts the quiet timer, counts towards compaction). */
  edited(room: Room): void;
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
 * same order: client updates are validated on a probe copy of the document, folded into
 * one row per batch, appended to the log (durable) and only then applied to the document,
 * which relays them. Updates other writers appended (other instances, REST merges) are
 * read from the log by seq and applied the same way.
 */
export class Room {
  readonly doc = new Y.Doc({ gc: true });
  /** A twin of `doc` that every update is tried on first: a crafted update that throws breaks the probe, never the document. */
  private probe = new Y.Doc({ gc: true });
  private probeChanged = false;
  readonly awareness: awarenessProtocol.Awareness;
  readonly members = new Set<RoomMember>();
  /** The last log seq applied, with every seq before it. */
  lastSeq = 0;
  /** A journaled batch holds `lastSeq` and is not applied yet: the document is one row behind it. */
  private applyPending = false;
  /** Log rows written since the last compaction, roughly: decides when to compact. */
  rowsSinceSnapshot = 0;
  readonly ready: Promise<void>;
  destroyed = false;
  /** Loading or applying failed: the room is dropped at once and the next connection loads it again. */
  failed = false;
  idleTimer?: NodeJS.Timeout;
  private jobs: Job[] = [];
  private working?: Promise<void>;
  private policyValue?: Promise<RoomPolicy>;
  /** The policy as last known for sure, read synchronously right before a batch is journaled. */
  private policyNow?: RoomPolicy | SyncRefused;
  /**
   * With the journal: whether `policyNow` is known current (set by the end of every section
   * that may have written, or by a read no section overlapped).
   */
  private policyFresh = false;
  /** With the journal: rows another writer appended may be in the log past `lastSeq` (the next seq must come after them). */
  stale = false;
  private deleteSetCache?: DeleteSet;
  /** Users already recorded as contributors of this change request room. */
  private contributors = new Set<string>();
  /**
   * The user that last set each awareness client id, and their connection when it is
   * connected here (else another instance relayed it): no other user can overwrite or
   * remove that entry, whichever instance they are connected to.
   */
  private awarenessOwners = new Map<number, { userId: string; member?: RoomMember }>();

  constructor(
    readonly docId: string,
    readonly room: SyncRoom,
    private host: RoomHost,
  ) {
    this.awareness = new awarenessProtocol.Awareness(this.doc);
    this.awareness.setLocalState(null);
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      this.deleteSetCache = undefined;
      const msg = encodeUpdate(update);
      for (const m of this.members) if (m !== origin) m.send(msg);
    });
    this.awareness.on('update', ({ added, updated, removed }: Record<string, number[]>, origin: unknown) => {
      const clients = [...(added ?? []), ...(updated ?? []), ...(removed ?? [])];
      const from = this.members.has(origin as RoomMember) ? (origin as RoomMember) : undefined;
      // Who set each entry, as other instances need to know to keep ownership across them.
      const users = new Map<number, string>();
      for (const c of clients) {
        const user = from?.creds.userId ?? this.awarenessOwners.get(c)?.userId;
        if (user) users.set(c, user);
      }
      if (from) {
        for (const c of [...(added ?? []), ...(updated ?? [])]) {
          // The same user on a new connection (a reconnect) takes its id over from the old one.
          const previous = this.awarenessOwners.get(c)?.member;
          if (previous && previous !== from) previous.controlled.delete(c);
          this.awarenessOwners.set(c, { userId: from.creds.userId, member: from });
          from.controlled.add(c);
        }
        for (const c of removed ?? []) from.controlled.delete(c);
      }
      for (const c of removed ?? []) this.awarenessOwners.delete(c);
      const msg = encodeAwarenessStates(this.awareness, clients);
      for (const m of this.members) if (m !== origin) m.send(msg);
      if (origin !== FROM_REMOTE) this.host.awarenessChanged(this, clients, users);
    });
    this.watchProbe();
    this.ready = this.load();
    // Whoever waits on `ready` sees the failure (and closes with 1011, which clients retry):
    // the room is dropped so that the retry loads the document again instead of meeting it.
    this.ready.catch((err) => {
      this.host.log.error({ err, docId }, 'loading a sync room failed');
      this.fail();
    });
  }

  /**
   * Notes whether a transaction on the probe changed it, by the test Yjs uses before it
   * emits `update` (new deletions, or a moved state vector), without encoding the update
   * as an `update` listener would make it do.
   */
  private watchProbe() {
    this.probe.on('afterTransaction', (tr: Y.Transaction) => {
      if (tr.deleteSet.clients.size > 0) this.probeChanged = true;
      else for (const [client, clock] of tr.afterState) if (tr.beforeState.get(client) !== clock) this.probeChanged = true;
    });
  }

  /** Loads the snapshot and the log, read together (see `loadStoredDoc`). */
  private async load() {
    const stored = await loadStoredDoc(this.host.db, this.docId);
    if (!stored) return;
    if (stored.snapshot) this.applyTrusted(stored.snapshot, FROM_LOG);
    for (const row of stored.updates) this.applyTrusted(row.update, FROM_LOG);
    this.lastSeq = stored.lastSeq;
    this.rowsSinceSnapshot = stored.updates.length;
  }

  /** Applies an update that is already stored to the document and its probe. */
  private applyTrusted(update: Uint8Array, origin: unknown) {
    let probeOk = true;
    try {
      Y.applyUpdate(this.probe, update);
    } catch {
      probeOk = false;
    }
    Y.applyUpdate(this.doc, update, origin);
    if (!probeOk) this.rebuildProbe([]);
  }

  /** Makes the probe a copy of the document again, plus updates accepted but not yet applied. */
  private rebuildProbe(accepted: Uint8Array[]) {
    this.probe.destroy();
    this.probe = new Y.Doc({ gc: true });
    Y.applyUpdate(this.probe, Y.encodeStateAsUpdate(this.doc));
    for (const u of accepted) Y.applyUpdate(this.probe, u);
    this.watchProbe();
  }

  /** The document's delete set, computed once per change (refused writers' updates are checked against it). */
  deleteSet = (): DeleteSet => {
    this.deleteSetCache ??= Y.createDeleteSetFromStructStore(this.doc.store);
    return this.deleteSetCache;
  };

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
   * a read that a section overlapped may predate a lock and is dropped.
   */
  setPolicy(policy: RoomPolicy | SyncRefused, readAtEpoch?: number) {
    const gate = this.host.journal?.gate;
    if (gate && readAtEpoch !== undefined && (readAtEpoch !== gate.epoch || gate.closed)) return;
    const value = policy instanceof SyncRefused ? Promise.reject(policy) : Promise.resolve(policy);
    value.catch(() => {});
    this.policyValue = value;
    this.policyNow = policy;
    this.policyFresh = true;
  }

  /** A section may have written: the log and the policy are read again before the next batch is journaled. */
  markStale() {
    this.stale = true;
    this.policyFresh = false;
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
   * Validate on the probe, store as one row, then apply and relay that row as one update.
   * Each update is read twice on the way (tried on the probe, merged into the row) and the
   * row once more (applied to the document, which relays it as one message). Whether Yjs
   * can merge an update is known from the merge itself; only when a merge throws is the
   * batch taken again carefully, each update checked on its own before the probe sees it.
   */
  private async persist(batch: UpdateJob[], careful = false): Promise<void> {
    const accepted: UpdateJob[] = [];
    const unchanged: UpdateJob[] = [];
    for (const job of batch) {
      const pendingBefore = pendingOf(this.probe);
      this.probeChanged = false;
      if (careful) {
        try {
          assertMergeable(job.update);
        } catch (err) {
          job.reject(new BadUpdateError((err as Error).message));
          continue;
        }
      }
      try {
        Y.applyUpdate(this.probe, job.update);
      } catch (err) {
        job.reject(new BadUpdateError((err as Error).message));
        this.rebuildProbe(accepted.map((j) => j.update));
        continue;
      }
      const pendingChanged = pendingOf(this.probe).some((p, i) => p !== pendingBefore[i]);
      // An update that changes nothing (a reconnecting client's delete set) is not stored again.
      if (!this.probeChanged && !pendingChanged) unchanged.push(job);
      else accepted.push(job);
    }
    let row: Uint8Array | undefined;
    try {
      row = rowOf(accepted.map((j) => j.update));
    } catch (err) {
      if (careful) throw err;
      // An update Yjs applies but cannot merge: find it, with nothing of the batch answered yet.
      this.rebuildProbe([]);
      return this.persist(batch, true);
    }
    if (!row) {
      for (const j of unchanged) j.resolve();
      return;
    }
    // An update that changes nothing next to one of this batch is on disk only once the row is.
    const answered = [...accepted, ...unchanged];
    if (this.host.journal) return this.journalBatch(this.host.journal, row, accepted, answered);
    let seq: number | undefined;
    try {
      seq = await this.host.append(this.docId, row);
    } catch (err) {
      this.host.log.error({ err, docId: this.docId }, 'could not store a sync update');
      for (const j of answered) j.reject(new StorageError('storage failed'));
      this.rebuildProbe([]);
      return;
    }
    if (seq === undefined) return this.refuseBatch(answered);
    // Rows other writers appended before ours come first, so `lastSeq` stays gap-free.
    if (seq > this.lastSeq + 1) await this.catchUp(seq - 1);
    // One sender: relayed to everyone else. Several: to everyone, each sender's own part included (Yjs ignores what it has).
    const senders = new Set(accepted.map((j) => j.from));
    Y.applyUpdate(this.doc, row, senders.size === 1 ? accepted[0]?.from : FROM_BATCH);
    if (this.lastSeq === seq - 1) this.lastSeq = seq;
    else this.requestCatchUp();
    this.rowsSinceSnapshot++;
    for (const j of answered) j.resolve();
    this.host.edited(this);
    if (this.room.kind === 'changeRequest') await this.recordContributors(this.room.changeRequestId, accepted);
  }

  /**
   * Journals the batch's row under the next seq, then applies and relays it once it is on
   * disk. Nothing may sit between the last check and the append: a section (a REST write,
   * a lock, a merge) may start at any await, so the checks run again after each one. A
   * journaled record is acknowledged and is never refused later, which is why the write
   * policy is checked here, with no section running, on a value every section that may
   * have written refreshes before the gate opens.
   */
  private async journalBatch(journal: SyncJournal, row: Uint8Array, accepted: UpdateJob[], answered: UpdateJob[]) {
    const gate = journal.gate;
    for (;;) {
      if (this.destroyed) {
        for (const j of answered) j.reject(new StorageError('room closed'));
        return;
      }
      if (gate.closed) await gate.whenOpen();
      else if (this.stale) {
        this.stale = false;
        await this.catchUp(Number.POSITIVE_INFINITY);
      } else if (!this.policyFresh || !this.policyNow) await this.readPolicy(gate.epoch);
      else break;
    }
    const policy = this.policyNow;
    if (policy instanceof SyncRefused) {
      this.rebuildProbe([]);
      this.closeAll(policy.code, policy.reason);
      for (const j of answered) j.reject(policy);
      return;
    }
    if (policy.refusal) return this.refuseBatch(answered);
    const seq = this.lastSeq + 1;
    const durable = journal.append({ docId: this.docId, seq, update: row });
    this.lastSeq = seq;
    this.applyPending = true;
    try {
      await durable;
    } catch (err) {
      // The process stops (a journal that failed cannot promise anything more); nothing is relayed or acknowledged.
      this.host.log.error({ err, docId: this.docId }, 'could not journal a sync update');
      for (const j of answered) j.reject(new StorageError('storage failed'));
      return;
    }
    const senders = new Set(accepted.map((j) => j.from));
    Y.applyUpdate(this.doc, row, senders.size === 1 ? accepted[0]?.from : FROM_BATCH);
    this.applyPending = false;
    this.rowsSinceSnapshot++;
    for (const j of answered) j.resolve();
    this.host.edited(this);
    if (this.room.kind === 'changeRequest') await this.recordContributors(this.room.changeRequestId, accepted);
  }

  /**
   * The document as one update, with the seq it holds every row up to: a compaction's
   * snapshot straight from memory, instead of reading and merging the log again. The
   * document may hold more than that (a row applied before a gap before it was read): a
   * snapshot holding a row twice is harmless, as Yjs applies what it has once. Undefined
   * while a journaled row is on its way to disk, unapplied, or once the room is gone.
   */
  stateAtLastSeq(): { update: Uint8Array; seq: number } | undefined {
    if (this.applyPending || this.destroyed || this.failed || this.lastSeq === 0) return undefined;
    return { update: Y.encodeStateAsUpdate(this.doc), seq: this.lastSeq };
  }

  /** Reads the policy; kept only when no section started meanwhile. */
  private async readPolicy(epoch: number) {
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
    this.rebuildProbe([]);
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

  /** Whoever edits a change request live is one of its contributors, as with REST edits. */
  private async recordContributors(changeRequestId: string, accepted: UpdateJob[]) {
    for (const userId of new Set(accepted.map((j) => j.from.creds.userId))) {
      if (this.contributors.has(userId)) continue;
      try {
        await addContributor(this.host.db, changeRequestId, userId);
        this.contributors.add(userId);
      } catch (err) {
        // The edit is stored; a missing contributor row must not fail it.
        this.host.log.warn({ err, changeRequestId }, 'could not record a change request contributor');
      }
    }
  }

  /**
   * Applies what the store holds after `lastSeq` (up to `upTo`), in seq order. The snapshot
   * and the rows come from one read, so rows a compaction folded away arrive through the
   * snapshot, never skipped. Rows are committed in seq order, so when the read ends before
   * `upTo` something is wrong with the store: the room fails and its clients reload it.
   */
  private async catchUp(upTo: number) {
    const stored = await readDocLog(this.host.db, this.docId, this.lastSeq);
    if (!stored) return;
    if (stored.snapshot) {
      this.applyTrusted(stored.snapshot, FROM_LOG);
      this.lastSeq = Math.max(this.lastSeq, stored.snapshotSeq);
      this.rowsSinceSnapshot = 0;
    }
    for (const row of stored.updates) {
      if (row.seq > upTo) break;
      this.applyTrusted(row.update, FROM_LOG);
      this.lastSeq = row.seq;
      this.rowsSinceSnapshot++;
    }
    if (upTo !== Number.POSITIVE_INFINITY && this.lastSeq < upTo) {
      throw new Error(`the log of ${this.docId} ends at ${this.lastSeq}, before seq ${upTo} that was committed`);
    }
  }

  /**
   * Applies a connection's awareness update (cursor, presence), keeping only the entries
   * for client ids that no other user holds: a writer moves their own cursor, never
   * someone else's. Throws on a malformed update.
   */
  applyAwareness(from: RoomMember, update: Uint8Array) {
    const kept = this.ownEntries(update, (owner) => !owner || owner.member === from || owner.userId === from.creds.userId);
    if (kept) awarenessProtocol.applyAwarenessUpdate(this.awareness, kept, from);
  }

  /**
   * Applies awareness another instance relayed, with the user that set each entry there
   * (`users`; none for an entry that timed out). The same rule as for a local connection:
   * an entry of another user's client id here is dropped, and the relayed owners are kept
   * so that connections here cannot take their entries over either.
   */
  applyRemoteAwareness(update: Uint8Array, users: Map<number, string>) {
    const owned: [number, string][] = [];
    const kept = this.ownEntries(update, (owner, clientId, state) => {
      const user = users.get(clientId);
      const allowed = owner ? (user ? owner.userId === user : !owner.member) : true;
      if (allowed && user && state !== 'null') owned.push([clientId, user]);
      return allowed;
    });
    if (!kept) return;
    awarenessProtocol.applyAwarenessUpdate(this.awareness, kept, FROM_REMOTE);
    for (const [clientId, userId] of owned) {
      if (!this.awareness.getStates().has(clientId)) continue;
      const owner = this.awarenessOwners.get(clientId);
      if (owner?.member) owner.member.controlled.delete(clientId);
      this.awarenessOwners.set(clientId, { userId });
    }
  }

  /** The entries of an awareness update that `allowed` keeps, re-encoded (the update itself when all are). */
  private ownEntries(
    update: Uint8Array,
    allowed: (owner: { userId: string; member?: RoomMember } | undefined, clientId: number, state: string) => boolean,
  ): Uint8Array | undefined {
    const decoder = decoding.createDecoder(update);
    const count = decoding.readVarUint(decoder);
    let keptCount = 0;
    const entries = encoding.createEncoder();
    for (let i = 0; i < count; i++) {
      const clientId = decoding.readVarUint(decoder);
      const clock = decoding.readVarUint(decoder);
      const state = decoding.readVarString(decoder);
      if (!allowed(this.awarenessOwners.get(clientId), clientId, state)) continue;
      encoding.writeVarUint(entries, clientId);
      encoding.writeVarUint(entries, clock);
      encoding.writeVarString(entries, state);
      keptCount++;
    }
    if (keptCount === 0) return undefined;
    if (keptCount === count) return update;
    const kept = encoding.createEncoder();
    encoding.writeVarUint(kept, keptCount);
    encoding.writeUint8Array(kept, encoding.toUint8Array(entries));
    return encoding.toUint8Array(kept);
  }

  addMember(m: RoomMember) {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.members.add(m);
  }

  removeMember(m: RoomMember) {
    if (!this.members.delete(m)) return;
    if (m.controlled.size > 0) awarenessProtocol.removeAwarenessStates(this.awareness, [...m.controlled], null);
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

  destroy() {
    this.destroyed = true;
    clearTimeout(this.idleTimer);
    for (const job of this.jobs) if (job.kind === 'update') job.reject(new StorageError('room closed'));
    this.jobs = [];
    this.awareness.destroy();
    this.doc.destroy();
    this.probe.destroy();
  }
}
