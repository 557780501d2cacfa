import { CreateSyncTicketBody, SyncTicketSchema } from '@quire/shared/schemas/sync';
import { apiRoute, body, json } from '../openapi';

const tags = ['Sync'];

export const createSyncTicket = apiRoute({
  method: 'post',
  path: '/v1/sync/tickets',
  tags,
  summary: 'Get a short-lived ticket to open a sync room',
  description:
    "For clients that cannot send an Authorization header on a WebSocket upgrade (browsers): connect to `/v1/sync/<room>?token=<ticket>` within a minute. The ticket opens one connection to the room it names, with the caller's role: a second upgrade with it is refused (4401), so a client asks for a new ticket before it reconnects.",
  request: { body: body(CreateSyncTicketBody) },
  responses: { 201: json(SyncTicketSchema, 'The ticket') },
});
