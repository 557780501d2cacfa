import type { Team, TeamRole } from '@quire/shared';
import { orgSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { presentTeam } from '../views/team';
import * as teams from '../../store/teams';
import { resolveMember, teamSeenBy } from './rules';

/*
 * The writes of the `/v1` team operations, one function each, taking the caller's context
 * and the operation's input. Creating and deleting a team takes the organization's admin
 * role; changing one, an admin or an owner of the team (core/policies/teams.ts).
 */

/** Creates a team with its first members (ids or emails of members of the organization). */
export async function createTeam(
  ctx: CommandContext,
  input: { organizationId: string; fields: { title: string; members?: string[] } },
): Promise<Team> {
  const { db } = ctx.deps;
  const { org, access } = await orgSeenBy(db, ctx.access, input.organizationId, 'manage');
  const teamId = await db.transaction(async (tx) => {
    const ids = await Promise.all((input.fields.members ?? []).map((m) => resolveMember(tx, org.id, m)));
    const id = await teams.createTeam(tx, org.id, input.fields.title);
    for (const userId of ids) await teams.upsertTeamMember(tx, id, userId, undefined);
    return id;
  });
  return presentTeam((await teams.getTeam(db, org.id, teamId)) as teams.TeamRow, access, true, ctx.baseUrl);
}

export async function deleteTeam(ctx: CommandContext, input: { organizationId: string; teamId: string }): Promise<void> {
  const { db } = ctx.deps;
  await orgSeenBy(db, ctx.access, input.organizationId, 'manage');
  await db.transaction((tx) => teams.deleteTeam(tx, input.organizationId, input.teamId));
}

export async function updateTeam(
  ctx: CommandContext,
  input: { organizationId: string; teamId: string; changes: { title: string } },
): Promise<Team> {
  const { db } = ctx.deps;
  const { team, access, canManage } = await teamSeenBy(ctx, input, 'manage');
  await teams.renameTeam(db, team.id, input.changes.title);
  return presentTeam((await teams.getTeam(db, team.org_id, team.id)) as teams.TeamRow, access, canManage, ctx.baseUrl);
}

/** Adds, removes and changes the role of a team's members in one transaction; a user both added and removed is removed. */
export async function updateTeamMembers(
  ctx: CommandContext,
  input: {
    organizationId: string;
    teamId: string;
    changes: { add?: string[]; remove?: string[]; memberships?: Record<string, { role: TeamRole }> };
  },
): Promise<void> {
  const { team } = await teamSeenBy(ctx, input, 'manage');
  const orgId = team.org_id;
  const b = input.changes;
  await ctx.deps.db.transaction(async (tx) => {
    const add = await Promise.all((b.add ?? []).map((m) => resolveMember(tx, orgId, m)));
    const remove = new Set(await Promise.all((b.remove ?? []).map((m) => resolveMember(tx, orgId, m))));
    const roles = new Map<string, TeamRole>();
    for (const [ref, m] of Object.entries(b.memberships ?? {})) roles.set(await resolveMember(tx, orgId, ref), m.role);
    for (const userId of add) if (!remove.has(userId)) await teams.upsertTeamMember(tx, team.id, userId, roles.get(userId));
    for (const [userId, role] of roles) {
      if (remove.has(userId) || add.includes(userId)) continue;
      await teams.setTeamMemberRole(tx, team.id, userId, role);
    }
    for (const userId of remove) await teams.removeTeamMember(tx, team.id, userId);
  });
}

/** Adds a member of the organization (id or email) to a team, or changes their role in it. */
export async function putTeamMember(
  ctx: CommandContext,
  input: { organizationId: string; teamId: string; userId: string; role?: TeamRole },
): Promise<void> {
  const { team } = await teamSeenBy(ctx, input, 'manage');
  const { db } = ctx.deps;
  await teams.upsertTeamMember(db, team.id, await resolveMember(db, team.org_id, input.userId), input.role);
}

/** Takes a user out of a team (nothing to do when they are not in it). */
export async function deleteTeamMember(
  ctx: CommandContext,
  input: { organizationId: string; teamId: string; userId: string },
): Promise<void> {
  const { team } = await teamSeenBy(ctx, input, 'manage');
  await teams.removeTeamMember(ctx.deps.db, team.id, input.userId);
}
