import type { Member, Role } from '@quire/shared';
import { forbidden, notFound } from '@quire/shared/domainErrors';
import { loadOrgAccess } from '../access/callerAccess';
import { orgSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { MEMBER_REFUSALS, mayMember } from '../policies/members';
import { withCounts } from '../spaces/lists';
import { visibleSpaceIds } from '../spaces/visible';
import { envelope } from '../views/listing';
import { presentMember } from '../views/member';
import { presentSpace } from '../views/space';
import { getMemberView, listMembers as listMemberRows, type MemberFilter } from '../../store/members';
import type { PageRequest } from '../../store/paginate';
import { listSpaces } from '../../store/spaces';

/*
 * The reads of the `/v1` member operations. Guests see only their own membership, as the
 * `listMembers` permission of the Organization says (core/policies/members.ts).
 */

/** A page of an organization's members; guests see only their own membership (403). */
export async function listMembers(ctx: CommandContext, input: { organizationId: string; query: MemberFilter & PageRequest }) {
  const { db } = ctx.deps;
  const { org, access } = await orgSeenBy(db, ctx.access, input.organizationId);
  if (!mayMember(access, false, 'view')) throw forbidden(MEMBER_REFUSALS.view);
  const page = await listMemberRows(db, org.id, input.query, input.query);
  return envelope(page, (m) => presentMember(m, ctx.baseUrl, access));
}

/** A member as the caller may see them. */
export async function getMember(ctx: CommandContext, input: { organizationId: string; userId: string }): Promise<Member> {
  const { db } = ctx.deps;
  const { org, access } = await orgSeenBy(db, ctx.access, input.organizationId);
  if (!mayMember(access, input.userId === ctx.userId, 'view')) throw forbidden(MEMBER_REFUSALS.view);
  const m = await getMemberView(db, org.id, input.userId);
  if (!m) throw notFound('member');
  return presentMember(m, ctx.baseUrl, access);
}

/**
 * The spaces a member can open, newest first unless asked otherwise, each with the member's
 * own permission on it; the caller's own or, for an admin, anyone's.
 */
export async function listMemberSpaces(
  ctx: CommandContext,
  input: { organizationId: string; userId: string; query: PageRequest & { order?: 'asc' | 'desc' } },
) {
  const { db } = ctx.deps;
  const { org, access } = await orgSeenBy(db, ctx.access, input.organizationId);
  if (!mayMember(access, input.userId === ctx.userId, 'listSpaces')) throw forbidden(MEMBER_REFUSALS.listSpaces);
  const target = await loadOrgAccess(db, org.id, input.userId);
  if (!target.member) throw notFound('member');
  const visibleIds = target.orgRole === null ? await visibleSpaceIds(db, target, { orgId: org.id }) : undefined;
  const page = await listSpaces(db, org.id, { visibleIds, order: input.query.order ?? 'desc' }, input.query);
  const { counts } = await withCounts(db, page);
  return envelope(page, (s) => ({
    permission: target.roleOn(s) as Role,
    space: presentSpace(s, access, ctx.baseUrl, counts.get(s.id) as never),
  }));
}
