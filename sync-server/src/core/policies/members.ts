import type { OrganizationMembership } from './organizations';

/**
 * What a member may do with the organization's memberships. Members see the member list;
 * a guest sees only their own membership, as the `listMembers` permission of the
 * Organization says. One may leave on one's own; removing another member, and listing
 * another member's spaces, takes an admin.
 */
export type MemberAction = 'view' | 'remove' | 'listSpaces';

/** `m` is the caller's standing in the organization; `self`, whether the membership asked about is theirs (false for the list). */
export function mayMember(m: OrganizationMembership & { isAdmin: boolean }, self: boolean, action: MemberAction): boolean {
  if (!m.isMember) return false;
  switch (action) {
    case 'view':
      return m.orgRole !== null || self;
    case 'remove':
    case 'listSpaces':
      return self || m.isAdmin;
  }
}

export const MEMBER_REFUSALS: Record<MemberAction, string> = {
  view: 'Guests can only see their own membership.',
  remove: 'Only an admin can remove another member.',
  listSpaces: "Only an admin can list another member's spaces.",
};
