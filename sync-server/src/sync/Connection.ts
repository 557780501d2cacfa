import type { Role } from '@quire/shared';
import { SyncClose, SyncCloseReason } from '@quire/shared/sync';
import type { WebSocket } from 'ws';
import type { Logger } from '../logger';
import { type Credentials, SyncRefused, writeRefusal } from './access';
import type { SyncConfig } from './config';
import {
  type ClientMessage,
  ProtocolError,
  decodeMessage,
  encodeAwarenessStates,
  encodePermissionDenied,
  encodeSyncStep1,
  encodeSyncStep2,
} from './protocol';
import { BadUpdateError, type Room, type RoomMember, StorageError } from './Room';
import { TokenBucket } from './TokenBucket';
import { SyncTraffic, isRelayedUpdate } from './traffic';
import { wouldChange } from './updates';

/** Inbound messages queued before the socket stops being read (TCP then pushes back on the client). */
const PAUSE_AT = 64;
const RESUME_AT = 16;
/** A refused update is reported at most this often, so a reader typing away is not flooded with notices. */
const REFUSAL_NOTICE_MS = 1000;

/**
 * One client's WebSocket in a room. Messages are handled one at a time in arrival order,
 * at most `messagesPerSecond` (after a burst): the reply to a sync step 1 therefore
 * covers every update the client sent before it, stored. That reply is the client's
 * acknowledgement (its provider turns `synced`).
 */
export class Connection implements RoomMember {
  readonly controlled = new Set<number>();
  closed = false;
  private inbox: Buffer[] = [];
  private draining = false;
  private bucket: TokenBucket;
  /** Settles when every update sent so far is stored (or refused). */
  private written: Promise<unknown> = Promise.resolve();
  private lastRefusalNotice = 0;

  constructor(
    readonly ws: WebSocket,
    readonly room: Room,
    readonly creds: Credentials,
    public role: Role,
    private config: SyncConfig,
    private log: Logger,
    private traffic: SyncTraffic = new SyncTraffic(),
  ) {
    this.bucket = new TokenBucket(config.messagesPerSecond, config.messageBurst);
    ws.on('message', (data, isBinary) => this.receive(data as Buffer, isBinary));
    ws.on('close', () => this.closed || this.detach());
    ws.on('error', (err) => {
      // A payload over maxPayload arrives here; ws then closes with 1009 itself.
      this.log.debug({ err: err.message, docId: room.docId }, 'sync connection error');
    });
  }

  /** Joins the room once it is loaded: the server's step 1 and the awareness states it knows. */
  async start() {
    try {
      await this.room.ready;
    } catch {
      return this.close(SyncClose.storageFailed, SyncCloseReason.loadFailed);
    }
    if (this.closed) return;
    this.room.addMember(this);
    this.send(encodeSyncStep1(this.room.doc));
    const states = [...this.room.awareness.getStates().keys()];
    if (states.length > 0) this.send(encodeAwarenessStates(this.room.awareness, states));
    void this.drain();
  }

  private receive(data: Buffer, isBinary: boolean) {
    if (this.closed) return;
    if (!isBinary) return this.close(SyncClose.badMessage, SyncCloseReason.textFrame);
    this.inbox.push(data);
    if (this.inbox.length >= PAUSE_AT && !this.ws.isPaused) this.ws.pause();
    if (this.room.members.has(this)) void this.drain();
  }

  private async drain() {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.inbox.length > 0 && !this.closed) {
        const wait = this.bucket.take();
        if (wait > 0) {
          await new Promise((r) => setTimeout(r, wait));
          continue;
        }
        const data = this.inbox.shift() as Buffer;
        if (this.inbox.length <= RESUME_AT && this.ws.isPaused) this.ws.resume();
        await this.handle(decodeMessage(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)));
      }
    } catch (err) {
      this.fail(err);
    } finally {
      this.draining = false;
    }
  }

  private async handle(msg: ClientMessage) {
    switch (msg.type) {
      case 'syncStep1': {
        await this.written;
        if (this.closed) return;
        // Only what is stored leaves the room: a batch applied ahead of its storage waits.
        this.room.whenStored(() => {
          if (this.closed) return;
          let missing: Uint8Array | Promise<Uint8Array>;
          try {
            missing = this.room.missingFrom(msg.stateVector);
          } catch (err) {
            return this.fail(new ProtocolError(`bad state vector: ${(err as Error).message}`));
          }
          // A large document's reply is made on the document thread: rows relayed meanwhile
          // may reach the client first, which Yjs takes in any order.
          if (missing instanceof Uint8Array) return this.send(encodeSyncStep2(missing));
          missing.then(
            (update) => {
              if (!this.closed) this.send(encodeSyncStep2(update));
            },
            (err: Error) => this.fail(err),
          );
        });
        return;
      }
      case 'update':
        return this.update(msg.update);
      case 'awareness':
        try {
          this.room.applyAwareness(this, msg.update);
        } catch (err) {
          throw new ProtocolError(`bad awareness update: ${(err as Error).message}`);
        }
        return;
      case 'queryAwareness':
        this.send(encodeAwarenessStates(this.room.awareness, [...this.room.awareness.getStates().keys()]));
        return;
      case 'auth':
        return;
    }
  }

  private async update(update: Uint8Array) {
    let policy: Awaited<ReturnType<Room['policy']>>;
    try {
      policy = await this.room.policy();
    } catch (err) {
      if (err instanceof SyncRefused) return this.room.closeAll(err.code, err.reason);
      throw err;
    }
    const refusal = writeRefusal(this.role, policy);
    if (refusal) {
      let changes: boolean;
      try {
        changes = wouldChange(this.room.doc, update, this.room.deleteSet);
      } catch (err) {
        throw new ProtocolError(`bad update: ${(err as Error).message}`);
      }
      // Not applied, not stored, not relayed; the client is told why and stays connected as a reader.
      if (changes) this.refused(refusal);
      return;
    }
    const stored = this.room.submit(this, update);
    stored.then(
      () => this.traffic.updatesStored++,
      (err) => this.fail(err),
    );
    this.written = Promise.allSettled([this.written, stored]).then(() => undefined);
  }

  /** Tells the client an update of theirs was not applied, at most once a second. */
  refused(reason: string) {
    if (Date.now() - this.lastRefusalNotice < REFUSAL_NOTICE_MS) return;
    this.lastRefusalNotice = Date.now();
    this.send(encodePermissionDenied(reason));
  }

  private fail(err: unknown) {
    if (err instanceof ProtocolError || err instanceof BadUpdateError) {
      this.log.info({ docId: this.room.docId, user: this.creds.userId, err: err.message }, 'closing a sync connection: bad message');
      return this.close(SyncClose.badMessage, err instanceof BadUpdateError ? SyncCloseReason.badUpdate : SyncCloseReason.badMessage);
    }
    if (err instanceof StorageError) return this.close(SyncClose.storageFailed, SyncCloseReason.storageFailed);
    if (err instanceof SyncRefused) return this.close(err.code, err.reason);
    this.log.error({ err, docId: this.room.docId }, 'sync connection failed');
    this.close(SyncClose.storageFailed, SyncCloseReason.storageFailed);
  }

  /**
   * Queues a message. A client that lets `slowClientBytes` pile up is dropped rather than
   * buffered without bound; it reconnects and catches up with one sync step.
   */
  send(data: Uint8Array) {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > this.config.slowClientBytes) {
      this.close(SyncClose.tooSlow, SyncCloseReason.tooSlow);
      // Its close frame would wait behind everything already queued.
      setTimeout(() => this.ws.terminate(), 1000).unref();
      return;
    }
    if (isRelayedUpdate(data)) this.traffic.updatesRelayed++;
    this.ws.send(data);
  }

  close(code: number, reason: string) {
    if (this.closed) return;
    this.detach();
    try {
      this.ws.close(code, reason);
    } catch {
      this.ws.terminate();
    }
    setTimeout(() => this.ws.terminate(), 5000).unref();
  }

  private detach() {
    this.closed = true;
    this.inbox = [];
    this.room.removeMember(this);
  }
}
