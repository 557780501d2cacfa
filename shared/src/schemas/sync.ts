import { z } from 'zod';
import { parseRoom } from '../sync';
import { Timestamp } from './common';

/** A room name as used in `/v1/sync/<room>`: `spaces/<spaceId>` or `spaces/<spaceId>/change-requests/<changeRequestId>`. */
export const SyncRoomName = z
  .string()
  .max(200)
  .refine((s) => parseRoom(s) !== undefined, 'must be spaces/<spaceId> or spaces/<spaceId>/change-requests/<changeRequestId>');

export const CreateSyncTicketBody = z.strictObject({ room: SyncRoomName });
export type CreateSyncTicketBody = z.infer<typeof CreateSyncTicketBody>;

/**
 * A short-lived credential for one room, for clients that cannot send an `Authorization`
 * header on a WebSocket upgrade (browsers): pass it as `?token=<ticket>`.
 */
export const SyncTicketSchema = z
  .object({
    object: z.literal('sync-ticket'),
    room: z.string(),
    ticket: z.string(),
    expiresAt: Timestamp,
  })
  .meta({ id: 'SyncTicket' });
export type SyncTicket = z.infer<typeof SyncTicketSchema>;
