import { badRequest } from '@quire/shared/domainErrors';
import type { SyncTicket } from '@quire/shared/schemas/sync';
import { parseRoom } from '@quire/shared/sync';
import { roomSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { presentSyncTicket } from '../views/syncTicket';
import { issueTicket } from './tickets';

/**
 * `POST /v1/sync/tickets`: a short-lived ticket that opens one connection to one room the
 * caller may view (see `tickets.ts`), for the caller's user and token.
 */
export async function createSyncTicket(ctx: CommandContext, input: { room: string }): Promise<SyncTicket> {
  const parsed = parseRoom(input.room);
  if (!parsed) throw badRequest('Invalid body field "room".');
  await roomSeenBy(ctx.deps.db, ctx.access, parsed);
  const claims = { userId: ctx.userId, tokenId: ctx.caller.tokenId, room: input.room };
  return presentSyncTicket(input.room, await issueTicket(ctx.deps.db, claims, ctx.deps.config.sync.ticketTtlSeconds));
}
