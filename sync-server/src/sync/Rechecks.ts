import { SyncClose, SyncCloseReason, type SyncRoom } from '@quire/shared/sync';
import type { OrgAccess } from '../core/access/callerAccess';
import type { Db } from '../store/db';
import { changeRequestsAvailable, changeRequestsForSync, existingTokens, liveSpaces } from '../store/syncRooms';
import { SyncRefused, orgAccessFor, policyOf } from './access';
import type { Connection } from './Connection';
import type { Room } from './Room';

/**
 * Keeps live connections as allowed as new ones would be. Write policies (locks, closed
 * change requests, deleted spaces) of loaded rooms are read again every second; tokens and
 * roles of every connection every `recheckMs`, through the same access function REST uses
 * (SSO enforcement included). Each pass reads a few queries whatever the number of rooms.
 * A lock or a merge does not wait for these: it is checked as each edit is stored.
 */
export class Rechecks {
  constructor(
    private db: Db,
    /** The journal gate's epoch now (-1 while a section holds the rooms), so a policy read a section overlapped is dropped. */
    private epochNow: () => number | undefined = () => undefined,
  ) {}

  /** The rows deciding the loaded rooms' fate, read in a few queries whatever their number. */
  async branchRows(rooms: SyncRoom[]) {
    const { db } = this;
    const spaceIds = [...new Set(rooms.map((r) => r.spaceId))];
    const crIds = [...new Set(rooms.flatMap((r) => (r.kind === 'changeRequest' ? [r.changeRequestId] : [])))];
    const [spaces, crs] = await Promise.all([
      liveSpaces(db, spaceIds),
      crIds.length > 0 && (await changeRequestsAvailable(db)) ? changeRequestsForSync(db, crIds) : [],
    ]);
    return { spaces: new Map(spaces.map((x) => [x.id, x])), crs: new Map(crs.map((x) => [x.id, x])) };
  }

  /** Locks, closed change requests and deleted spaces reach live rooms within about a second. */
  async policies(loaded: Iterable<Room>) {
    const rooms = [...loaded].filter((r) => !r.destroyed && r.members.size > 0);
    if (rooms.length === 0) return;
    const epoch = this.epochNow();
    const { spaces, crs } = await this.branchRows(rooms.map((r) => r.room));
    for (const room of rooms) {
      const sr = room.room;
      try {
        room.setPolicy(policyOf(sr, spaces.get(sr.spaceId), sr.kind === 'changeRequest' ? crs.get(sr.changeRequestId) : undefined), epoch);
      } catch (err) {
        if (!(err instanceof SyncRefused)) throw err;
        room.setPolicy(err, epoch);
        room.closeAll(err.code, err.reason);
      }
    }
  }

  /** Revoked tokens, lost roles and deleted spaces end their connections; changed roles apply. Checked for all connections at once. */
  async connections(live: Iterable<Connection>) {
    const { db } = this;
    const conns = [...live].filter((c) => !c.closed);
    if (conns.length === 0) return;
    const tokens = await existingTokens(db, [...new Set(conns.map((c) => c.creds.tokenId))]);
    const { spaces, crs } = await this.branchRows(conns.map((c) => c.room.room));
    const access = new Map<string, Promise<OrgAccess>>();
    for (const conn of conns) {
      if (!tokens.has(conn.creds.tokenId)) {
        conn.close(SyncClose.unauthenticated, SyncCloseReason.badToken);
        continue;
      }
      const sr = conn.room.room;
      const space = spaces.get(sr.spaceId);
      const cr = sr.kind === 'changeRequest' ? crs.get(sr.changeRequestId) : undefined;
      if (!space || (sr.kind === 'changeRequest' && (!cr || cr.space_id !== sr.spaceId))) {
        conn.close(SyncClose.notFound, SyncCloseReason.noAccess);
        continue;
      }
      const key = `${space.org_id}:${conn.creds.userId}:${conn.creds.tokenId}`;
      let orgAccess = access.get(key);
      if (!orgAccess) {
        orgAccess = orgAccessFor(db, conn.creds, space.org_id);
        access.set(key, orgAccess);
      }
      const role = (await orgAccess).roleOn(space);
      if (!role) conn.close(SyncClose.notFound, SyncCloseReason.noAccess);
      else conn.role = role;
    }
  }
}
