import { changeRequestSeenBy, spaceSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import type { Scope } from './threads';

/** Where comments are: a space's main branch, or a change request of it when one is named. */
export interface ScopeRef {
  spaceId: string;
  changeRequestId?: string;
}

/** The comment scope the caller may see (404 when they cannot see the space or change request). */
export async function scopeOf(ctx: CommandContext, ref: ScopeRef): Promise<Scope> {
  if (!ref.changeRequestId) {
    const { space, access, role } = await spaceSeenBy(ctx.deps.db, ctx.access, ref.spaceId, 'view');
    return {
      thread: { spaceId: space.id, changeRequestId: null },
      space,
      access,
      role,
      path: `/v1/spaces/${space.id}`,
      userId: ctx.userId,
    };
  }
  const { space, access, role, cr } = await changeRequestSeenBy(ctx.deps.db, ctx.access, ref.spaceId, ref.changeRequestId, 'view');
  return {
    thread: { spaceId: space.id, changeRequestId: cr.id },
    space,
    access,
    role,
    path: `/v1/spaces/${space.id}/change-requests/${cr.id}`,
    userId: ctx.userId,
  };
}
