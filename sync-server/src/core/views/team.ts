import type { Team, TeamRole } from '@quire/shared';
import type { OrgAccess } from '../access/callerAccess';
import type { MemberView } from '../../store/members';
import type { TeamMemberRow, TeamRow } from '../../store/teams';
import { iso } from './iso';
import { presentMember } from './member';

export function presentTeam(t: TeamRow, access: OrgAccess, canManage: boolean, base: string): Team {
  return {
    object: 'team',
    id: t.id,
    title: t.title,
    members: t.members,
    spaces: t.spaces,
    createdAt: iso(t.created_at) as string,
    urls: { location: `${base}/v1/orgs/${t.org_id}/teams/${t.id}` },
    permissions: { admin: access.isAdmin || canManage, view: access.isMember },
  };
}

/** A team's member: their membership of the organization and their role in the team. */
export function presentTeamMember(member: TeamMemberRow, view: MemberView, access: OrgAccess, base: string) {
  return { organization: presentMember(view, base, access), team: { role: member.role }, permissions: { view: true } };
}

/** One of a member's teams, with their role in it: a caller manages a team they own. */
export function presentMemberTeam(t: TeamRow & { member_role: TeamRole }, access: OrgAccess, self: boolean, base: string) {
  return { team: presentTeam(t, access, self && t.member_role === 'owner', base), member: { role: t.member_role } };
}
