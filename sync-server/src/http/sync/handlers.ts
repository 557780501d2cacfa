import type { OpenAPIHono } from '@hono/zod-openapi';
import { parseRoom } from '@quire/shared/sync';
import { roomSeenBy } from '../../core/access/resourceAccess';
import { issueTicket } from '../../sync/tickets';
import type { AppEnv } from '../env';
import { badRequest } from '@quire/shared/domainErrors';
import * as r from './routes';

export function registerSync(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.createSyncTicket, async (c) => {
    const { db, config } = c.get('deps');
    const { room } = c.req.valid('json');
    const parsed = parseRoom(room);
    if (!parsed) throw badRequest('Invalid body field "room".');
    await roomSeenBy(db, c.get('access'), parsed);
    const caller = c.get('caller');
    const { ticket, expiresAt } = await issueTicket(
      db,
      { userId: caller.user.id, tokenId: caller.tokenId, room },
      config.sync.ticketTtlSeconds,
    );
    return c.json({ object: 'sync-ticket' as const, room, ticket, expiresAt: expiresAt.toISOString() }, 201);
  });
}
