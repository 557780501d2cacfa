import { EventEmitter } from 'node:events';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import WebSocket from 'ws';
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate, removeAwarenessStates } from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import type { ServerClient } from './ServerClient';
import { branchView } from './branchView';
import { type LocalDb } from './store/database';
import { pagesMap } from '@quire/shared/content/layout';
import { appendDocUpdate, compactDoc, docLastSeq, loadDocParts, markDocSent, snapshotDoc, unsentCount } from './store/docs';

/** Origin of the updates that load a branch from disk: they are already saved. */
export const LOAD_ORIGIN = Symbol('load');

/** Compact the log on open once it holds this many updates. */
const COMPACT_AFTER = 200;

export type BranchConnection = 'local' | 'offline' | 'connecting' | 'online' | 'refused';

interface BranchEvents {
  /** Every change to the doc, whoever made it (`origin` tells who). */
  update: [update: Uint8Array, origin: unknown];
  /** Awareness changes; `origin` is the session that sent them, or the provider. */
  awareness: [update: Uint8Array, origin: unknown, clientIds: number[]];
  connection: [state: BranchConnection];
  saved: [];
  error: [error: Error];
}

/**
 * ws with the `Authorization` header set on the upgrade: Node clients authenticate that way.
 * A message the sync client cannot read (a broken server, a proxy mangling frames) would
 * throw out of the socket's event handler and end the process: the connection is dropped
 * instead, and reconnects and syncs from scratch.
 */
function authenticatedWebSocket(authorization: string, onUnreadable: (err: Error) => void): typeof globalThis.WebSocket {
  class AuthenticatedWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { authorization } });
      const inherited = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
      Object.defineProperty(this, 'onmessage', {
        configurable: true,
        get: () => inherited?.get?.call(this),
        set: (handler: ((event: WebSocket.MessageEvent) => void) | null) =>
          inherited?.set?.call(
            this,
            handler
              ? (event: WebSocket.MessageEvent) => {
                  try {
                    handler(event);
                  } catch (err) {
                    onUnreadable(err as Error);
                    this.close();
                  }
                }
              : null,
          ),
      });
    }
  }
  return AuthenticatedWebSocket as unknown as typeof globalThis.WebSocket;
}

/** The pages (ids in the branch's `pages` map) a transaction changed: their fields, bodies, or the page itself. */
function pagesTouched(tr: Y.Transaction): string[] {
  const pages = pagesMap(tr.doc);
  const ids = new Set<string>();
  for (const [type, keys] of tr.changed) {
    if ((type as unknown) === pages) {
      for (const key of keys) if (key) ids.add(key);
      continue;
    }
    let item = type._item;
    while (item) {
      if (item.parent === pages) {
        if (item.parentSub) ids.add(item.parentSub);
        break;
      }
      item = (item.parent as Y.AbstractType<unknown>)._item;
    }
  }
  return [...ids];
}

/**
 * One open branch (a space's main content or a change request) on this machine: its Y.Doc,
 * its on-disk log, its awareness, and (when a server is known) its WebSocket provider.
 *
 * Every update to the doc is appended to the local log, whoever made it; `saved()` resolves
 * once everything applied so far is committed. Updates waiting while a write runs are
 * merged into one, so a burst of keystrokes costs one commit, not one per key.
 */
export class BranchDoc extends EventEmitter<BranchEvents> {
  readonly doc = new Y.Doc();
  readonly awareness: Awareness;
  private provider?: WebsocketProvider;
  private queue: { update: Uint8Array; unsent: boolean; pages: string[] }[] = [];
  private writing?: Promise<void>;
  private lastError?: Error;
  private state: BranchConnection = 'local';
  private syncReplies = 0;
  private closed = false;
  refusal?: string;

  private constructor(
    private readonly db: LocalDb,
    readonly docId: string,
  ) {
    super();
    this.awareness = new Awareness(this.doc);
    // The node itself is no collaborator: only the windows it serves have cursors.
    this.awareness.setLocalState(null);
    this.awareness.on(
      'update',
      ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
        const changed = [...added, ...updated, ...removed];
        if (changed.length === 0) return;
        this.emit('awareness', encodeAwarenessUpdate(this.awareness, changed), origin, changed);
      },
    );
  }

  /** Loads a branch from disk (an empty doc when it was never saved). */
  static async open(db: LocalDb, docId: string): Promise<BranchDoc> {
    const branch = new BranchDoc(db, docId);
    const stored = await loadDocParts(db, docId);
    // Applying the parts one by one is much cheaper than merging them into one update first.
    // No update listener yet: Yjs would encode the whole loaded state again for it.
    branch.doc.transact(() => {
      for (const part of stored.parts) (part.v2 ? Y.applyUpdateV2 : Y.applyUpdate)(branch.doc, part.update, LOAD_ORIGIN);
    }, LOAD_ORIGIN);
    branch.logged = stored.logLength;
    branch.lastSeq = stored.lastSeq;
    branch.doc.on('update', (update: Uint8Array, origin: unknown, _doc: Y.Doc, tr: Y.Transaction) => {
      // Edits that came from the server are not "waiting to be sent"; every other one is, until acknowledged.
      if (origin !== LOAD_ORIGIN) {
        const unsent = origin !== branch.provider;
        branch.persist(update, unsent, unsent ? pagesTouched(tr) : []);
      }
      branch.emit('update', update, origin);
    });
    if (stored.logLength > COMPACT_AFTER) {
      await compactDoc(db, docId);
      branch.logged = 0;
    }
    return branch;
  }

  /** Log rows since the snapshot: folded into it on close, so the next open reads one row. */
  private logged = 0;
  /** The log position this doc holds everything up to (what it loaded, then what it wrote); NaN once unsure. */
  private lastSeq = 0;

  get connection(): BranchConnection {
    return this.state;
  }

  /** Connected and caught up with the server: new edits go straight out. */
  get isOnline(): boolean {
    return !!this.provider?.wsconnected && this.provider.synced;
  }

  private setState(state: BranchConnection) {
    if (state === this.state) return;
    this.state = state;
    this.emit('connection', state);
  }

  private persist(update: Uint8Array, unsent: boolean, pages: string[]) {
    if (unsent) this.hasUnacked = true;
    this.queue.push({ update, unsent, pages });
    if (!this.writing) this.writing = this.drain();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      const update = batch.length === 1 ? (batch[0] as { update: Uint8Array }).update : Y.mergeUpdates(batch.map((b) => b.update));
      try {
        const seq = await appendDocUpdate(
          this.db,
          this.docId,
          update,
          batch.some((b) => b.unsent),
          batch.flatMap((b) => b.pages),
        );
        // A gap is a row written by something else (a twin folded in): this doc lacks it.
        if (seq !== this.lastSeq + 1) this.lastSeq = Number.NaN;
        else this.lastSeq = seq;
        this.logged++;
      } catch (err) {
        this.lastError = err as Error;
        this.emit('error', this.lastError);
      }
    }
    this.writing = undefined;
    this.emit('saved');
    if (this.hasUnacked) this.scheduleAck();
  }

  private hasUnacked = false;
  private ackTimer?: NodeJS.Timeout;
  private acking?: Promise<void>;

  /** Soon after local edits go quiet, ask the server to confirm it stored them. */
  private scheduleAck() {
    if (!this.isOnline || this.closed) return;
    clearTimeout(this.ackTimer);
    this.ackTimer = setTimeout(() => void this.acknowledge().catch(() => {}), 250);
    this.ackTimer.unref?.();
  }

  /**
   * One round-trip on the sync socket: the server answers a connection's messages in order
   * and only once what came before is stored, so its answer confirms every edit that was
   * in the doc when we asked. Only then do those edits stop counting as waiting.
   */
  private async acknowledge(timeoutMs = 10_000): Promise<void> {
    if (this.acking) return this.acking;
    this.acking = (async () => {
      await this.saved().catch(() => {});
      const waiting = await unsentCount(this.db, this.docId);
      const upToSeq = await docLastSeq(this.db, this.docId);
      this.hasUnacked = false;
      try {
        await this.roundTrip(timeoutMs);
      } catch (err) {
        // Unconfirmed edits stay waiting: ask again while connected (a reconnect asks anyway).
        if (waiting > 0) {
          this.hasUnacked = true;
          this.scheduleAck();
        }
        throw err;
      }
      if (waiting > 0) await markDocSent(this.db, this.docId, waiting, upToSeq);
      this.emit('saved');
    })();
    try {
      await this.acking;
    } finally {
      this.acking = undefined;
    }
  }

  /**
   * Resolves when every update applied so far is committed to disk; rejects when one could
   * not be (the caller must then not report the edit as saved).
   */
  async saved(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.lastError) {
      const err = this.lastError;
      this.lastError = undefined;
      throw err;
    }
  }

  /** Applies an update that came from a window; resolves once it is saved. */
  async applyFromSession(update: Uint8Array, session: unknown): Promise<void> {
    Y.applyUpdate(this.doc, update, session);
    await this.saved();
  }

  applyAwarenessFromSession(update: Uint8Array, session: unknown) {
    applyAwarenessUpdate(this.awareness, update, session);
  }

  /** Drops the cursors a closed window left behind. */
  forgetClients(clientIds: number[]) {
    const known = clientIds.filter((id) => this.awareness.getStates().has(id));
    if (known.length) removeAwarenessStates(this.awareness, known, 'session-closed');
  }

  /** Starts syncing with the server's room (no-op when already connected to it). */
  connect(client: ServerClient, room: string) {
    if (this.closed) return;
    if (this.provider && this.provider.roomname === room) {
      if (!this.provider.shouldConnect) this.provider.connect();
      return;
    }
    this.provider?.destroy();
    this.refusal = undefined;
    const provider = new WebsocketProvider(client.syncUrl, room, this.doc, {
      awareness: this.awareness,
      WebSocketPolyfill: authenticatedWebSocket(client.authHeader, (err) =>
        this.emit('error', new Error(`The server sent a sync message this app cannot read: ${err.message}`)),
      ),
      disableBc: true,
      maxBackoffTime: 4000,
    });
    this.provider = provider;
    // Count the server's step-2 answers: `flushToServer` waits for one sent after its request.
    const handleSync = provider.messageHandlers[0];
    if (handleSync) {
      provider.messageHandlers[0] = (encoder, decoder, p, emitSynced, messageType) => {
        const step = decoding.peekVarUint(decoder);
        handleSync(encoder, decoder, p, emitSynced, messageType);
        if (step === syncProtocol.messageYjsSyncStep2) this.syncReplies++;
      };
    }
    provider.on('status', ({ status }) => {
      if (status === 'connecting') this.setState('connecting');
      if (status === 'disconnected' && this.state !== 'refused') this.setState('offline');
    });
    provider.on('sync', (synced) => {
      if (synced && provider.wsconnected) {
        this.setState('online');
        // The exchange sent everything the server lacked, edits made offline included: confirm it.
        void this.acknowledge().catch(() => {});
      }
    });
    provider.on('closed', (event) => {
      this.refusal = event.reason || `closed with code ${event.code}`;
      this.setState('refused');
    });
    this.setState('connecting');
  }

  /** Stops syncing (offline mode); edits keep being saved locally. */
  disconnect() {
    if (this.provider) {
      this.provider.disconnect();
      this.setState('offline');
    }
  }

  get connectedRoom(): string | undefined {
    return this.provider?.roomname;
  }

  /**
   * Waits until the server holds this branch's whole state (synced, then acknowledged).
   * Merging a change request asks for this first, so the merge cannot miss the last edits.
   */
  async flushToServer(timeoutMs = 10_000): Promise<void> {
    const provider = this.provider;
    if (!provider) throw new Error('This branch is not connected to a server.');
    const deadline = Date.now() + timeoutMs;
    while (!(provider.wsconnected && provider.synced)) {
      if (this.state === 'refused') throw new Error(`The server refused this branch: ${this.refusal}`);
      if (Date.now() > deadline) throw new Error('Timed out waiting for the branch to sync.');
      await new Promise((r) => setTimeout(r, 50));
    }
    await this.acknowledge(Math.max(1000, deadline - Date.now()));
  }

  /** Sends a sync step 1 and waits for the server's step 2 answer to it. */
  private async roundTrip(timeoutMs: number): Promise<void> {
    const provider = this.provider;
    if (!provider?.ws || !provider.wsconnected) throw new Error('Not connected.');
    const before = this.syncReplies;
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, 0);
    syncProtocol.writeSyncStep1(encoder, this.doc);
    provider.ws.send(encoding.toUint8Array(encoder));
    const deadline = Date.now() + timeoutMs;
    while (this.syncReplies === before) {
      if (Date.now() > deadline) throw new Error('Timed out waiting for the server to confirm the branch.');
      if (!provider.wsconnected) throw new Error('The connection dropped before the server confirmed the branch.');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.ackTimer);
    this.provider?.destroy();
    this.provider = undefined;
    const saved = await this.saved().then(
      () => true,
      () => false,
    );
    // Everything applied is saved: the doc's state becomes the snapshot the next open reads
    // at once, unless something wrote to the log besides this doc (then the log is merged).
    if (saved && this.logged > 0) {
      const state = Y.encodeStateAsUpdateV2(this.doc);
      const view = JSON.stringify(branchView(this.doc));
      await snapshotDoc(this.db, this.docId, state, this.lastSeq, view)
        .then((folded) => (folded ? undefined : compactDoc(this.db, this.docId)))
        .catch((err: Error) => console.error(`[quire] could not fold the log of ${this.docId}: ${err.message}`));
    }
    this.awareness.destroy();
    this.doc.destroy();
  }
}
