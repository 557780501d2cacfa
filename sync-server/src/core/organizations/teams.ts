import { forbidden, notFound } from '@quire/shared/domainErrors';
import type { OrgAccess } from '../access/callerAccess';
import type { Caller } from '../access/callers';
import type { DbHandle } from '../platform/deps';
import type { Db } from '../../store/db';
import { type MemberView, getMemberView, memberIdByRef } from '../../store/members';
import type { Page, PageRequest } from '../../store/paginate';
import * as teams from '../../store/teams';
import { requireSeesMember } from './members';

const GUEST_TEAMS = 'Guests can only see the teams they belong to.';

/** A member id or email of this organization → user id; anything else is 404, like a foreign id. */
async function resolveMember(db: DbHandle, orgId: string, ref: string): Promise<string> {
  const userId = await memberIdByRef(db, orgId, ref);
  if (!userId) throw notFound('member');
  return userId;
}

/** A team with whether the caller may manage it (admins and the team's owners). */
export interface TeamSeen {
  team: teams.TeamRow;
  canManage: boolean;
}

/**
 * A team as the caller may see it: guests see only the teams they are in, as the
 * `listTeams` permission of the Organization says; `manage` asks for an admin or an owner.
 */
export async function teamSeenBy(
  db: Db,
  userId: string,
  access: OrgAccess,
  orgId: string,
  teamId: string,
  manage: boolean,
): Promise<TeamSeen> {
  const team = await teams.getTeam(db, orgId, teamId);
  if (!team) throw notFound('team');
  const ownRole = await teams.teamRoleOf(db, teamId, userId);
  const canManage = access.isAdmin || ownRole === 'owner';
  if (manage && !canManage) throw forbidden('Only an admin or an owner of the team can change it.');
  if (access.orgRole === null && !ownRole) throw forbidden(GUEST_TEAMS);
  return { team, canManage };
}

/** The teams of an organization (not for guests), with those the caller owns. */
export async function teamsOf(
  db: Db,
  userId: string,
  access: OrgAccess,
  orgId: string,
  query: PageRequest & teams.TeamFilter,
): Promise<{ page: Page<teams.TeamRow>; owned: Set<string> }> {
  if (access.orgRole === null) throw forbidden(GUEST_TEAMS);
  const page = await teams.listTeams(db, orgId, query, query);
  return { page, owned: new Set(await teams.teamsOwnedBy(db, userId)) };
}

/** Creates a team with its first members (ids or emails of members of the organization). */
export async function createTeam(db: Db, orgId: string, title: string, members: string[]): Promise<teams.TeamRow> {
  const teamId = await db.transaction(async (tx) => {
    const ids = await Promise.all(members.map((m) => resolveMember(tx, orgId, m)));
    const id = await teams.createTeam(tx, orgId, title);
    for (const userId of ids) await teams.upsertTeamMember(tx, id, userId, undefined);
    return id;
  });
  return (await teams.getTeam(db, orgId, teamId)) as teams.TeamRow;
}

export function deleteTeam(db: Db, orgId: string, teamId: string): Promise<void> {
  return db.transaction((tx) => teams.deleteTeam(tx, orgId, teamId));
}

export async function renameTeam(db: Db, orgId: string, teamId: string, title: string): Promise<teams.TeamRow> {
  await teams.renameTeam(db, teamId, title);
  return (await teams.getTeam(db, orgId, teamId)) as teams.TeamRow;
}

/** A team's members, each with their membership of the organization (members who left since are skipped). */
export async function teamMembers(
  db: Db,
  orgId: string,
  teamId: string,
  query: PageRequest,
): Promise<{ page: Page<teams.TeamMemberRow>; members: { member: teams.TeamMemberRow; view: MemberView }[] }> {
  const page = await teams.listTeamMembers(db, teamId, query);
  const views = await Promise.all(page.rows.map((m) => getMemberView(db, orgId, m.user_id)));
  return { page, members: page.rows.flatMap((member, i) => (views[i] ? [{ member, view: views[i] }] : [])) };
}

/** Adds, removes and changes the role of a team's members in one transaction; a user both added and removed is removed. */
export async function updateTeamMembers(
  db: Db,
  orgId: string,
  teamId: string,
  b: { add?: string[]; remove?: string[]; memberships?: Record<string, { role: 'member' | 'owner' }> },
): Promise<void> {
  await db.transaction(async (tx) => {
    const add = await Promise.all((b.add ?? []).map((m) => resolveMember(tx, orgId, m)));
    const remove = new Set(await Promise.all((b.remove ?? []).map((m) => resolveMember(tx, orgId, m))));
    const roles = new Map<string, 'member' | 'owner'>();
    for (const [ref, m] of Object.entries(b.memberships ?? {})) roles.set(await resolveMember(tx, orgId, ref), m.role);
    for (const userId of add) if (!remove.has(userId)) await teams.upsertTeamMember(tx, teamId, userId, roles.get(userId));
    for (const [userId, role] of roles) {
      if (remove.has(userId) || add.includes(userId)) continue;
      await teams.setTeamMemberRole(tx, teamId, userId, role);
    }
    for (const userId of remove) await teams.removeTeamMember(tx, teamId, userId);
  });
}

/** Adds a member of the organization to a team, or changes their role in it. */
export async function putTeamMember(
  db: Db,
  orgId: string,
  teamId: string,
  ref: string,
  role: 'member' | 'owner' | undefined,
): Promise<void> {
  await teams.upsertTeamMember(db, teamId, await resolveMember(db, orgId, ref), role);
}

/** Takes a user out of a team (nothing to do when they are not in it). */
export async function removeTeamMember(db: Db, teamId: string, userId: string): Promise<void> {
  await teams.removeTeamMember(db, teamId, userId);
}

/** The teams a member is in, with their role in each: guests see only their own (403), an unknown member is 404. */
export async function teamsOfMember(
  db: Db,
  caller: Caller,
  access: OrgAccess,
  orgId: string,
  userId: string,
  title: string | undefined,
  page: PageRequest,
) {
  requireSeesMember(access, caller.user.id, userId);
  const target = await getMemberView(db, orgId, userId);
  if (!target) throw notFound('member');
  return teams.listTeamsOfUser(db, orgId, userId, title, page);
}
