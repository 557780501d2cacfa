import type { SyncTicket } from '@quire/shared/schemas/sync';

/** A sync ticket as `POST /v1/sync/tickets` answers it. */
export function presentSyncTicket(room: string, issued: { ticket: string; expiresAt: Date }): SyncTicket {
  return { object: 'sync-ticket', room, ticket: issued.ticket, expiresAt: issued.expiresAt.toISOString() };
}
