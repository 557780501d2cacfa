/**
 * The `/v1/sync` WebSocket contract, shared by the server and every client: room names,
 * message types, close codes and refusal reasons. Close codes follow the convention of the
 * stock `y-websocket` provider: 4400-4499 are final (the provider stops reconnecting and
 * emits `closed`), every other code is transient (it reconnects with backoff and resyncs).
 */
import { ID_PATTERN } from './ids';

/** Path prefix of the endpoint; the room name follows it: `/v1/sync/<room>`. */
export const SYNC_PATH = '/v1/sync';

/** The first varUint of every message (the y-websocket protocol). */
export const SyncMessage = {
  /** y-protocols sync: step 1 (state vector), step 2 (missing updates), update. */
  sync: 0,
  /** y-protocols awareness update (cursors, presence). */
  awareness: 1,
  /** y-protocols auth: the server sends `permission denied` with a reason when it refuses an update. */
  auth: 2,
  /** Asks the other side for all the awareness states it knows. */
  queryAwareness: 3,
} as const;
export type SyncMessage = (typeof SyncMessage)[keyof typeof SyncMessage];

/** Why the server closed a sync connection. */
export const SyncClose = {
  /** The message could not be decoded, or its update could not be applied. Final. */
  badMessage: 4400,
  /** No token, an unknown or revoked token, or an expired ticket or one issued for another room. Final. */
  unauthenticated: 4401,
  /** Unknown room, space or change request, or one the caller has no access to (the same answer, on purpose). Final. */
  notFound: 4404,
  /** The client read too slowly and fell too far behind; reconnecting resyncs it. Transient. */
  tooSlow: 4508,
  /** A message is larger than the server accepts (the standard WebSocket code). */
  messageTooBig: 1009,
  /** The update could not be stored (nothing was applied or relayed), or the document could not be loaded. Transient. */
  storageFailed: 1011,
  /** The server is shutting down or restarting. Transient. */
  restarting: 1012,
} as const;
export type SyncClose = (typeof SyncClose)[keyof typeof SyncClose];

/** Close reasons (short: a close reason is at most 123 bytes). */
export const SyncCloseReason = {
  badMessage: 'malformed message',
  badUpdate: 'update could not be applied',
  textFrame: 'text frames are not part of the protocol',
  noToken: 'a token is required: Authorization: Bearer <token>, or ?token=<sync ticket>',
  badToken: 'the token is not valid (unknown or revoked)',
  badTicket: 'the sync ticket is not valid (expired, or for another room)',
  ticketUsed: 'the sync ticket was used already: each connection needs a new one',
  tokenInUrl: 'an API token is not accepted in the URL: send it as Authorization: Bearer, or use a sync ticket',
  unknownRoom: 'no such room',
  noAccess: 'no such space or change request',
  spaceDeleted: 'the space was deleted',
  changeRequestsUnavailable: 'change request rooms are not available on this server yet',
  tooSlow: 'the connection fell too far behind; reconnect to resync',
  messageTooBig: 'message too large',
  storageFailed: 'the update could not be stored; reconnect to retry',
  loadFailed: 'the document could not be loaded; reconnect to retry',
  restarting: 'the server is restarting',
} as const;

/**
 * Reasons of the `permission denied` auth message the server sends when it refuses an
 * update without closing the connection (readers keep receiving the document).
 */
export const SyncRefusal = {
  readOnly: 'read-only: your role does not allow edits here; the update was not applied',
  locked: 'locked: the space is locked; the update was not applied',
  closed: 'closed: the change request is merged or archived; the update was not applied',
} as const;

/** A room: a space's main branch, or one of its change requests. */
export type SyncRoom = { kind: 'space'; spaceId: string } | { kind: 'changeRequest'; spaceId: string; changeRequestId: string };

export function spaceRoom(spaceId: string): string {
  return `spaces/${spaceId}`;
}

export function changeRequestRoom(spaceId: string, changeRequestId: string): string {
  return `spaces/${spaceId}/change-requests/${changeRequestId}`;
}

/** Parses a room name; undefined when it is not one (wrong shape, or ids of the wrong form). */
export function parseRoom(name: string): SyncRoom | undefined {
  const parts = name.split('/');
  const ok = (id: string | undefined): id is string => !!id && ID_PATTERN.test(id);
  if (parts.length === 2 && parts[0] === 'spaces' && ok(parts[1])) return { kind: 'space', spaceId: parts[1] };
  if (parts.length === 4 && parts[0] === 'spaces' && parts[2] === 'change-requests' && ok(parts[1]) && ok(parts[3])) {
    return { kind: 'changeRequest', spaceId: parts[1], changeRequestId: parts[3] };
  }
  return undefined;
}

/** The stored Y.Doc id of a room's branch (the same ids the REST side reads and writes). */
export function roomDocId(room: SyncRoom): string {
  return room.kind === 'space' ? `space:${room.spaceId}` : `cr:${room.changeRequestId}`;
}
