import { forbidden, notFound } from '@quire/shared/domainErrors';
import type { OrgAccess } from '../access/callerAccess';
import { orgSeenBy } from '../access/resourceAccess';
import type { CommandContext, DbHandle } from '../platform/deps';
import { GUEST_TEAMS, TEAM_MANAGERS, mayTeam } from '../policies/teams';
import { memberIdByRef } from '../../store/members';
import * as teams from '../../store/teams';

/** A team with the caller's access to its organization and whether they may manage the team. */
export interface TeamSeen {
  team: teams.TeamRow;
  access: OrgAccess;
  canManage: boolean;
}

/**
 * A team as the caller may see it (404 for an organization they are not in or a team it
 * does not hold): guests see only the teams they are in; `manage` asks for an admin or one
 * of the team's owners.
 */
export async function teamSeenBy(
  ctx: CommandContext,
  input: { organizationId: string; teamId: string },
  action: 'view' | 'manage',
): Promise<TeamSeen> {
  const { db } = ctx.deps;
  const { access } = await orgSeenBy(db, ctx.access, input.organizationId);
  const team = await teams.getTeam(db, input.organizationId, input.teamId);
  if (!team) throw notFound('team');
  const teamRole = (await teams.teamRoleOf(db, team.id, ctx.userId)) ?? null;
  const canManage = mayTeam(access, teamRole, 'manage');
  if (action === 'manage' && !canManage) throw forbidden(TEAM_MANAGERS);
  if (!mayTeam(access, teamRole, 'view')) throw forbidden(GUEST_TEAMS);
  return { team, access, canManage };
}

/** A member id or email of this organization → user id; anything else is 404, like a foreign id. */
export async function resolveMember(db: DbHandle, orgId: string, ref: string): Promise<string> {
  const userId = await memberIdByRef(db, orgId, ref);
  if (!userId) throw notFound('member');
  return userId;
}
