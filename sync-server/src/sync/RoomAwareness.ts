import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as Y from 'yjs';
import { encodeAwarenessStates } from './protocol';
import type { RoomMember } from './roomMember';

/** The origin of awareness other instances relayed, so it is not sent back to them. */
export const FROM_REMOTE = Symbol('from-remote-instance');

/**
 * A room's awareness (cursors, presence) and who owns each entry: every member hears of a
 * change but its sender, and no user moves or removes an entry another user set, on this
 * instance or any other.
 */
export class RoomAwareness {
  readonly awareness: awarenessProtocol.Awareness;
  /**
   * The user that last set each awareness client id, and their connection when it is
   * connected here (else another instance relayed it): no other user can overwrite or
   * remove that entry, whichever instance they are connected to.
   */
  private owners = new Map<number, { userId: string; member?: RoomMember }>();

  constructor(
    members: ReadonlySet<RoomMember>,
    /** Local awareness changed: other instances should hear of it, with the user that set each entry. */
    changed: (clients: number[], users: Map<number, string>) => void,
  ) {
    // Awareness takes a document only for a client id of its own, and keeps it: an empty
    // one of its own, so a document read back from the log (`reload`) leaves nothing behind.
    this.awareness = new awarenessProtocol.Awareness(new Y.Doc());
    this.awareness.setLocalState(null);
    this.awareness.on('update', ({ added, updated, removed }: Record<string, number[]>, origin: unknown) => {
      const clients = [...(added ?? []), ...(updated ?? []), ...(removed ?? [])];
      const from = members.has(origin as RoomMember) ? (origin as RoomMember) : undefined;
      // Who set each entry, as other instances need to know to keep ownership across them.
      const users = new Map<number, string>();
      for (const c of clients) {
        const user = from?.creds.userId ?? this.owners.get(c)?.userId;
        if (user) users.set(c, user);
      }
      if (from) {
        for (const c of [...(added ?? []), ...(updated ?? [])]) {
          // The same user on a new connection (a reconnect) takes its id over from the old one.
          const previous = this.owners.get(c)?.member;
          if (previous && previous !== from) previous.controlled.delete(c);
          this.owners.set(c, { userId: from.creds.userId, member: from });
          from.controlled.add(c);
        }
        for (const c of removed ?? []) from.controlled.delete(c);
      }
      for (const c of removed ?? []) this.owners.delete(c);
      const msg = encodeAwarenessStates(this.awareness, clients);
      for (const m of members) if (m !== origin) m.send(msg);
      if (origin !== FROM_REMOTE) changed(clients, users);
    });
  }

  /**
   * Applies a connection's awareness update (cursor, presence), keeping only the entries
   * for client ids that no other user holds: a writer moves their own cursor, never
   * someone else's. Throws on a malformed update.
   */
  apply(from: RoomMember, update: Uint8Array) {
    const kept = this.ownEntries(update, (owner) => !owner || owner.member === from || owner.userId === from.creds.userId);
    if (kept) awarenessProtocol.applyAwarenessUpdate(this.awareness, kept, from);
  }

  /**
   * Applies awareness another instance relayed, with the user that set each entry there
   * (`users`; none for an entry that timed out). The same rule as for a local connection:
   * an entry of another user's client id here is dropped, and the relayed owners are kept
   * so that connections here cannot take their entries over either.
   */
  applyRemote(update: Uint8Array, users: Map<number, string>) {
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
      const owner = this.owners.get(clientId);
      if (owner?.member) owner.member.controlled.delete(clientId);
      this.owners.set(clientId, { userId });
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
      if (!allowed(this.owners.get(clientId), clientId, state)) continue;
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

  /** A member left: the entries it set leave with it. */
  removeMember(m: RoomMember) {
    if (m.controlled.size > 0) awarenessProtocol.removeAwarenessStates(this.awareness, [...m.controlled], null);
  }

  destroy() {
    this.awareness.destroy();
  }
}
