import type { Role } from '@quire/shared';
import { SyncClose, SyncCloseReason, SyncRefusal, type SyncRoom } from '@quire/shared/sync';
import { Access, type OrgAccess } from '../core/access/callerAccess';
import { type SpaceRow, getSpace } from '../store/spaces';
import {
  type SyncChangeRequestRow,
  changeRequestsAvailable,
  getChangeRequestForSync,
  spendSyncTicket,
  tokenExists,
} from '../store/syncRooms';
import { userForToken } from '../store/tokens';
import type { Queryable } from '../store/db';
import { looksLikeTicket, verifyTicket } from '../core/sync/tickets';
import { roleAllows } from '../core/policies/roleRules';
import { SPACE_ROLES } from '../core/policies/spaces';

/** A refused connection: closed with this code and reason before any document data is sent. */
export class SyncRefused extends Error {
  constructor(
    readonly code: SyncClose,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Who is connected: checked again periodically, so a revoked token ends its connections. */
export interface Credentials {
  userId: string;
  tokenId: string;
}

/** Where the upgrade carried its credential. */
export type CredentialSource = 'header' | 'query';

/**
 * Turns the upgrade's credential into a user: an API token in the `Authorization` header,
 * or a sync ticket for this room (header or `?token=`), which opens this connection only. A full API token in the URL is
 * refused: URLs end up in proxy and server logs, tickets exist for browsers. Throws
 * `SyncRefused` with 4401.
 */
export async function authenticate(
  db: Queryable,
  token: string | undefined,
  roomName: string,
  source: CredentialSource = 'header',
): Promise<Credentials> {
  if (!token) throw new SyncRefused(SyncClose.unauthenticated, SyncCloseReason.noToken);
  if (looksLikeTicket(token)) {
    const claims = await verifyTicket(db, token);
    if (claims) {
      if (claims.room !== roomName || !(await tokenExists(db, claims.tokenId))) {
        throw new SyncRefused(SyncClose.unauthenticated, SyncCloseReason.badTicket);
      }
      // Spent by this upgrade whatever follows: a ticket seen once in a log opens nothing more.
      if (!(await spendSyncTicket(db, claims.id, claims.expiresAt))) {
        throw new SyncRefused(SyncClose.unauthenticated, SyncCloseReason.ticketUsed);
      }
      return { userId: claims.userId, tokenId: claims.tokenId };
    }
  }
  if (source === 'query') {
    throw new SyncRefused(SyncClose.unauthenticated, looksLikeTicket(token) ? SyncCloseReason.badTicket : SyncCloseReason.tokenInUrl);
  }
  const found = await userForToken(db, token);
  if (!found) {
    throw new SyncRefused(SyncClose.unauthenticated, looksLikeTicket(token) ? SyncCloseReason.badTicket : SyncCloseReason.badToken);
  }
  return { userId: found.user.id, tokenId: found.tokenId };
}

/**
 * The caller's standing in an organization, from the function the REST guards use (SSO
 * enforcement included): REST and sync decide access alike, on connect and on every recheck.
 */
export function orgAccessFor(db: Queryable, creds: Credentials, orgId: string): Promise<OrgAccess> {
  return new Access(db, creds.userId, creds.tokenId).org(orgId);
}

/** The caller's role on the room's space. Throws `SyncRefused` 4404 when they have none or the room does not exist. */
export async function roleInRoom(db: Queryable, creds: Credentials, room: SyncRoom): Promise<Role> {
  const space = await getSpace(db, room.spaceId);
  if (!space) throw new SyncRefused(SyncClose.notFound, SyncCloseReason.noAccess);
  const role = (await orgAccessFor(db, creds, space.org_id)).roleOn(space);
  if (!role) throw new SyncRefused(SyncClose.notFound, SyncCloseReason.noAccess);
  if (room.kind === 'changeRequest') {
    if (!(await changeRequestsAvailable(db))) throw new SyncRefused(SyncClose.notFound, SyncCloseReason.changeRequestsUnavailable);
    const cr = await getChangeRequestForSync(db, room.changeRequestId);
    if (!cr || cr.space_id !== room.spaceId) throw new SyncRefused(SyncClose.notFound, SyncCloseReason.noAccess);
  }
  return role;
}

/** What the branch itself allows, whoever writes: a locked space's main branch and a closed change request take no edits. */
export interface RoomPolicy {
  /** Why nobody may write now; undefined when writers may. */
  refusal?: string;
}

/** Change request statuses after which its branch takes no more edits. */
const CLOSED_STATUSES = new Set(['merged', 'archived']);

/**
 * The write policy of a room given its space and change request rows (undefined when
 * gone). Throws `SyncRefused` 4404 when the space or change request is gone.
 */
export function policyOf(room: SyncRoom, space: SpaceRow | undefined, cr: SyncChangeRequestRow | undefined): RoomPolicy {
  if (!space) throw new SyncRefused(SyncClose.notFound, SyncCloseReason.spaceDeleted);
  if (room.kind === 'space') return { refusal: space.edit_mode === 'locked' ? SyncRefusal.locked : undefined };
  if (!cr || cr.space_id !== room.spaceId) throw new SyncRefused(SyncClose.notFound, SyncCloseReason.noAccess);
  return { refusal: CLOSED_STATUSES.has(cr.status) ? SyncRefusal.closed : undefined };
}

/** The room's current write policy, read from the database. */
export async function loadRoomPolicy(db: Queryable, room: SyncRoom): Promise<RoomPolicy> {
  const space = await getSpace(db, room.spaceId);
  const cr = room.kind === 'changeRequest' ? await getChangeRequestForSync(db, room.changeRequestId) : undefined;
  return policyOf(room, space, cr);
}

/** Why this caller may not write in the room now; undefined when they may. */
export function writeRefusal(role: Role, policy: RoomPolicy): string | undefined {
  if (!roleAllows(SPACE_ROLES, role, 'edit')) return SyncRefusal.readOnly;
  return policy.refusal;
}
