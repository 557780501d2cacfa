import type { Member } from '@quire/shared';
import type { MemberView } from '../../store/members';
import { compact, iso } from './iso';
import { presentUser } from './user';

export function presentMember(m: MemberView, base: string): Member {
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
  });
}
