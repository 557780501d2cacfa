import type { Member } from '@quire/shared';
import type { OrgAccess } from '../access/callerAccess';
import type { MemberView } from '../../store/members';
import { compact, iso } from './iso';
import { presentUser } from './user';

/** `viewer` is the caller's access to the member's organization: it decides `permissions`. */
export function presentMember(m: MemberView, base: string, viewer: Pick<OrgAccess, 'isAdmin' | 'userId'>): Member {
  return compact({
    object: 'member' as const,
    id: m.user_id,
    role: m.role,
    user: presentUser(m.user, base),
    disabled: m.disabled,
    joinedAt: iso(m.joined_at) as string,
    lastSeenAt: iso(m.last_seen_at),
    sso: m.sso,
    spaces: m.spaces,
    teams: m.teams,
    // Access to sites follows their spaces; no site is ever granted to a member directly.
    sites: 0,
    urls: { location: `${base}/v1/orgs/${m.org_id}/members/${m.user_id}` },
    permissions: { view: true, edit: viewer.isAdmin, delete: viewer.isAdmin || viewer.userId === m.user_id },
  });
}
