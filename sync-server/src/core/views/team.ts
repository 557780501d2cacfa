import type { Team } from '@quire/shared';
import type { OrgAccess } from '../access/callerAccess';
import type { TeamRow } from '../../store/teams';
import { iso } from './iso';

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
