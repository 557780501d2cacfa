import * as awarenessProtocol from 'y-protocols/awareness';
import type { Logger } from '../logger';
import type { Room } from './Room';
import type { SyncBus } from './SyncBus';

/**
 * NOTIFY channel relaying awareness on the PostgreSQL bus (the Redis bus carries the same payload in its streams) (cursors, presence) between instances:
 * `<docId>\t<origin>\t<base64 update>\t<clientId>:<userId>,…` (who set each entry).
 */
export const AWARENESS_CHANNEL = 'quire_sync_awareness';
/** NOTIFY payloads must stay under 8000 bytes (kept on both buses: a cursor is small). */
const MAX_NOTIFY_BYTES = 7800;
/** Awareness changes are gathered this long before they are relayed to other instances. */
const AWARENESS_RELAY_MS = 30;

/**
 * Cursors and presence between instances sharing one PostgreSQL (one process shares them
 * in memory and needs none of this). Local changes are gathered for a moment and sent as
 * one bus message per room, with the user that set each entry, so that the receiving instance
 * keeps ownership: no user on any instance can take over another user's entry.
 */
export class AwarenessRelay {
  private pending = new Map<Room, Map<number, string | undefined>>();
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private bus: SyncBus | undefined,
    private instanceId: string,
    private log: Logger,
    private roomOf: (docId: string) => Room | undefined,
  ) {}

  get enabled(): boolean {
    return !!this.bus;
  }

  /** Local awareness of `room` changed for `clients`; `users` says who set each. */
  changed(room: Room, clients: number[], users: Map<number, string>) {
    if (!this.enabled || this.stopped) return;
    let entries = this.pending.get(room);
    if (!entries) {
      entries = new Map();
      this.pending.set(room, entries);
    }
    for (const c of clients) entries.set(c, users.get(c));
    this.timer ??= setTimeout(() => this.send(), AWARENESS_RELAY_MS);
  }

  private send() {
    this.timer = undefined;
    const out = this.pending;
    this.pending = new Map();
    for (const [room, entries] of out) {
      if (room.destroyed) continue;
      const update = awarenessProtocol.encodeAwarenessUpdate(room.awareness, [...entries.keys()]);
      const owners = [...entries].flatMap(([c, u]) => (u ? [`${c}:${u}`] : [])).join(',');
      const payload = `${room.docId}\t${this.instanceId}\t${Buffer.from(update).toString('base64')}\t${owners}`;
      if (payload.length > MAX_NOTIFY_BYTES) {
        this.log.debug({ docId: room.docId, bytes: payload.length }, 'awareness update too large to relay to other instances');
        continue;
      }
      this.bus?.relayAwareness(room.docId, payload);
    }
  }

  /** An awareness relay another instance sent. */
  received(payload: string) {
    const [docId, origin, data, owners = ''] = payload.split('\t');
    if (!docId || !data || origin === this.instanceId) return;
    const room = this.roomOf(docId);
    if (!room || room.destroyed) return;
    const users = new Map<number, string>();
    for (const pair of owners.split(',')) {
      const at = pair.indexOf(':');
      if (at > 0) users.set(Number(pair.slice(0, at)), pair.slice(at + 1));
    }
    try {
      room.applyRemoteAwareness(new Uint8Array(Buffer.from(data, 'base64')), users);
    } catch (err) {
      this.log.warn({ err, docId }, 'ignoring an undecodable awareness relay');
    }
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
