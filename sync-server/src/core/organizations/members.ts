import type { Role } from '@quire/shared';
import { conflict, forbidden, notFound } from '@quire/shared/domainErrors';
import { type Access, type OrgAccess, loadOrgAccess } from '../access/callerAccess';
import type { Caller } from '../access/callers';
import { withCounts, type SpacePage } from '../spaces/lists';
import { visibleSpaceIds } from '../spaces/visible';
import type { Db } from '../../store/db';
import {
  type MemberView,
  countAdmins,
  getMemberView,
  listMembers,
  lockMembership,
  type MemberFilter,
  markSsoMember,
  removeMember,
  setMemberRole,
} from '../../store/members';
import type { PageRequest } from '../../store/paginate';
import { listSpaces } from '../../store/spaces';

/**
 * Guests see their own membership only: the member list is for the organization's members,
 * as the `listMembers` permission of the Organization says.
 */
export function requireSeesMember(access: OrgAccess, callerId: string, userId?: string) {
  if (access.orgRole === null && userId !== callerId) throw forbidden('Guests can only see their own membership.');
}

/**
 * Removes a member: members may leave on their own, removing others takes an admin, and
 * the last admin stays. Removing someone who is not a member changes nothing.
 */
export async function removeMemberAs(db: Db, caller: Caller, access: OrgAccess, organizationId: string, userId: string): Promise<void> {
  const self = userId === caller.user.id;
  if (!self && !access.isAdmin) throw forbidden('Only an admin can remove another member.');
  await db.transaction(async (tx) => {
    await lockMembership(tx, organizationId);
    const m = await getMemberView(tx, organizationId, userId);
    if (!m) return;
    if (m.role === 'admin' && !m.disabled && (await countAdmins(tx, organizationId)) <= 1) {
      throw conflict('The last admin of an organization cannot be removed; make another member admin first.');
    }
    await removeMember(tx, organizationId, userId);
  });
}

/** Changes a member's role (admins); the last admin cannot be demoted. Answers the member as it is now. */
export async function changeMemberRole(
  db: Db,
  callerAccess: Access,
  organizationId: string,
  userId: string,
  role: Role | null | undefined,
): Promise<MemberView> {
  await db.transaction(async (tx) => {
    await lockMembership(tx, organizationId);
    const m = await getMemberView(tx, organizationId, userId);
    if (!m) throw notFound('member');
    if (role === undefined || role === m.role) return;
    if (m.role === 'admin' && !m.disabled && (await countAdmins(tx, organizationId)) <= 1) {
      throw conflict('The last admin of an organization cannot be demoted; make another member admin first.');
    }
    await setMemberRole(tx, organizationId, userId, role);
  });
  callerAccess.reset(organizationId);
  return (await getMemberView(db, organizationId, userId)) as MemberView;
}

/** Marks a member as signing in through the organization's identity provider. */
export async function makeSsoMember(db: Db, organizationId: string, userId: string): Promise<MemberView> {
  if (!(await markSsoMember(db, organizationId, userId))) throw notFound('member');
  return (await getMemberView(db, organizationId, userId)) as MemberView;
}

/** A member as the caller may see them. */
/** A page of an organization's members; guests see only their own membership (403). */
export function membersOf(db: Db, caller: Caller, access: OrgAccess, organizationId: string, filter: MemberFilter, page: PageRequest) {
  requireSeesMember(access, caller.user.id);
  return listMembers(db, organizationId, filter, page);
}

export async function memberSeenBy(db: Db, caller: Caller, access: OrgAccess, organizationId: string, userId: string): Promise<MemberView> {
  requireSeesMember(access, caller.user.id, userId);
  const m = await getMemberView(db, organizationId, userId);
  if (!m) throw notFound('member');
  return m;
}

/**
 * The spaces a member can open, newest first unless asked otherwise, with the member's own
 * access (their permission on each); the caller's own or, for an admin, anyone's.
 */
export async function spacesOfMember(
  db: Db,
  caller: Caller,
  access: OrgAccess,
  organizationId: string,
  userId: string,
  query: PageRequest & { order?: 'asc' | 'desc' },
): Promise<SpacePage & { target: OrgAccess }> {
  if (userId !== caller.user.id && !access.isAdmin) throw forbidden("Only an admin can list another member's spaces.");
  const target = await loadOrgAccess(db, organizationId, userId);
  if (!target.member) throw notFound('member');
  const visibleIds = target.orgRole === null ? await visibleSpaceIds(db, target, { orgId: organizationId }) : undefined;
  const page = await listSpaces(db, organizationId, { visibleIds, order: query.order ?? 'desc' }, query);
  return { ...(await withCounts(db, page)), target };
}
