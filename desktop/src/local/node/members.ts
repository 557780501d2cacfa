import type { Member } from '@quire/shared/schemas/member';
import type { MemberList, UserSummary } from '../../common/ipc';
import { RemoteError, UnreachableError } from '../ServerClient';
import { getMeta, setMeta } from '../store/catalog';
import type { NodeContext } from './context';

/** Where an organization's members are kept between starts, so `@` still finds them offline. */
const keyOf = (orgId: string) => `orgMembers:${orgId}`;

const summary = (m: Member): UserSummary => ({
  id: m.user.id,
  displayName: m.user.displayName || m.user.email || m.user.id,
  ...(m.user.email ? { email: m.user.email } : {}),
});

/**
 * The members of a space's organization, whom a writer can mention: asked of the server
 * (`GET /v1/orgs/{org}/members`) while it answers and kept here, so the list still works
 * offline with what it was last told. A space only on this machine has its writer alone.
 */
export class Members {
  constructor(private readonly ctx: NodeContext) {}

  async list(spaceId: string): Promise<MemberList> {
    const space = await this.ctx.catalog.spaceOrThrow(spaceId);
    const me = this.ctx.session.user;
    if (!space.orgId) return { members: [me], source: 'local' };
    const client = this.ctx.session.server;
    if (client && this.ctx.session.reachable !== false) {
      try {
        const members = (await client.listAll<Member>(`/v1/orgs/${encodeURIComponent(space.orgId)}/members`))
          .filter((m) => !m.disabled)
          .map(summary);
        await setMeta(this.ctx.db, keyOf(space.orgId), members);
        return { members, source: 'server' };
      } catch (err) {
        if (!(err instanceof UnreachableError) && !(err instanceof RemoteError)) throw err;
      }
    }
    const kept = await getMeta<UserSummary[]>(this.ctx.db, keyOf(space.orgId));
    return { members: kept ?? [me], source: 'kept' };
  }
}
