import type { OpenAPIHono } from '@hono/zod-openapi';
import { parseRoom } from '@quire/shared/sync';
import { getChangeRequestForSync } from '../../store/syncRooms';
import { issueTicket } from '../../sync/tickets';
import type { AppEnv } from '../env';
import { badRequest, notFound } from '@quire/shared/apiErrors';
import { requireSpace } from '../guards';
import * as r from './routes';

export function registerSync(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.createSyncTicket, async (c) => {
    const { db, config } = c.get('deps');
    const { room } = c.req.valid('json');
    const parsed = parseRoom(room);
    if (!parsed) throw badRequest('Invalid body field "room".');
    await requireSpace(c, parsed.spaceId, 'read');
    if (parsed.kind === 'changeRequest') {
      const cr = await getChangeRequestForSync(db, parsed.changeRequestId);
      if (!cr || cr.space_id !== parsed.spaceId) throw notFound('change request');
    }
    const caller = c.get('caller');
    const { ticket, expiresAt } = await issueTicket(
      db,
      { userId: caller.user.id, tokenId: caller.tokenId, room },
      config.sync.ticketTtlSeconds,
    );
    return c.json({ object: 'sync-ticket' as const, room, ticket, expiresAt: expiresAt.toISOString() }, 201);
  });
}
