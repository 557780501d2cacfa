import type { User } from '@quire/shared';
import { userSeenBy } from '../access/callers';
import type { CommandContext } from '../platform/deps';
import { presentUser } from '../views/user';

/* The reads of the `/v1` user operations: the caller, and the users they share an organization with. */

export function getCurrentUser(ctx: CommandContext): User {
  return presentUser(ctx.caller.user, ctx.baseUrl);
}

/** A user the caller shares an organization with (or the caller); 404 for anyone else. */
export async function getUser(ctx: CommandContext, input: { userId: string }): Promise<User> {
  return presentUser(await userSeenBy(ctx.deps.db, ctx.caller, input.userId), ctx.baseUrl);
}
