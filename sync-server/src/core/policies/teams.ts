import type { TeamRole } from '@quire/shared';
import type { OrganizationMembership } from './organizations';

/**
 * What a member may do with an organization's teams. Members see every team; a guest
 * (no organization role) sees only the teams they are in, as the `listTeams` permission of
 * the Organization says. A team is managed by the organization's admins and its own owners.
 */
export type TeamAction = 'list' | 'view' | 'manage';

/** `m` is the caller's standing in the organization, `teamRole` their role in the team (null outside it, or for the list). */
export function mayTeam(m: OrganizationMembership & { isAdmin: boolean }, teamRole: TeamRole | null, action: TeamAction): boolean {
  if (!m.isMember) return false;
  switch (action) {
    case 'list':
      return m.orgRole !== null;
    case 'view':
      return m.orgRole !== null || teamRole !== null;
    case 'manage':
      return m.isAdmin || teamRole === 'owner';
  }
}

export const GUEST_TEAMS = 'Guests can only see the teams they belong to.';
export const TEAM_MANAGERS = 'Only an admin or an owner of the team can change it.';
