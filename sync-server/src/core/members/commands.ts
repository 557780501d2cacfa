import type { Member, Role } from '@quire/shared';
import { conflict, forbidden, notFound } from '@quire/shared/domainErrors';
import { orgSeenBy } from '../access/resourceAccess';
import { type Invitation, inviteMembers as invite, joinOrganization as join, withdrawLinkInvite } from '../organizations/membership';
import type { CommandContext } from '../platform/deps';
import { MEMBER_REFUSALS, mayMember } from '../policies/members';
import { presentMember } from '../views/member';
import {
  type MemberView,
  countAdmins,
  getMemberView,
  lockMembership,
  markSsoMember,
  removeMember,
  setMemberRole,
} from '../../store/members';

/*
 * The writes of the `/v1` member operations, one function each, taking the caller's context
 * and the operation's input. An organization keeps at least one admin.
 */

/**
 * Removes a member: members may leave on their own, removing others takes an admin, and
 * the last admin stays. Removing someone who is not a member changes nothing.
 */
export async function deleteMember(ctx: CommandContext, input: { organizationId: string; userId: string }): Promise<void> {
  const { db } = ctx.deps;
  const { org, access } = await orgSeenBy(db, ctx.access, input.organizationId);
  if (!mayMember(access, input.userId === ctx.userId, 'remove')) throw forbidden(MEMBER_REFUSALS.remove);
  await db.transaction(async (tx) => {
    await lockMembership(tx, org.id);
    const m = await getMemberView(tx, org.id, input.userId);
    if (!m) return;
    if (m.role === 'admin' && !m.disabled && (await countAdmins(tx, org.id)) <= 1) {
      throw conflict('The last admin of an organization cannot be removed; make another member admin first.');
    }
    await removeMember(tx, org.id, input.userId);
  });
}

/** Changes a member's role (admins); the last admin cannot be demoted. Answers the member as it is now. */
export async function updateMember(
  ctx: CommandContext,
  input: { organizationId: string; userId: string; changes: { role?: Role | null } },
): Promise<Member> {
  const { db } = ctx.deps;
  const { org, access } = await orgSeenBy(db, ctx.access, input.organizationId, 'manage');
  const { role } = input.changes;
  await db.transaction(async (tx) => {
    await lockMembership(tx, org.id);
    const m = await getMemberView(tx, org.id, input.userId);
    if (!m) throw notFound('member');
    if (role === undefined || role === m.role) return;
    if (m.role === 'admin' && !m.disabled && (await countAdmins(tx, org.id)) <= 1) {
      throw conflict('The last admin of an organization cannot be demoted; make another member admin first.');
    }
    await setMemberRole(tx, org.id, input.userId, role);
  });
  ctx.access.reset(org.id);
  return presentMember((await getMemberView(db, org.id, input.userId)) as MemberView, ctx.baseUrl, access);
}

/** Marks a member as signing in through the organization's identity provider (admins). */
export async function setMemberSso(ctx: CommandContext, input: { organizationId: string; userId: string }): Promise<Member> {
  const { db } = ctx.deps;
  const { org, access } = await orgSeenBy(db, ctx.access, input.organizationId, 'manage');
  if (!(await markSsoMember(db, org.id, input.userId))) throw notFound('member');
  return presentMember((await getMemberView(db, org.id, input.userId)) as MemberView, ctx.baseUrl, access);
}

/**
 * Makes each address a member (admins), creating its user when unknown; all or none.
 * Answers the users' ids in the order of the addresses.
 */
export async function inviteMembers(ctx: CommandContext, input: { organizationId: string; invitation: Invitation }) {
  const { org } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId, 'manage');
  const ids = await invite(ctx.deps.db, org, input.invitation);
  return { users: ids, invited: ids.length };
}

/** Withdraws an invitation link of the organization (admins; nothing to do when it is gone). */
export async function deleteLinkInvite(ctx: CommandContext, input: { organizationId: string; inviteId: string }): Promise<void> {
  const { org } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId, 'manage');
  await withdrawLinkInvite(ctx.deps.db, org.id, input.inviteId);
}

/** The caller joins an organization open to their verified email domain (see `joinOrganization` in membership.ts). */
export async function joinOrganization(ctx: CommandContext, input: { organizationId: string }): Promise<void> {
  await join(ctx.deps.db, ctx.caller, input.organizationId);
}
