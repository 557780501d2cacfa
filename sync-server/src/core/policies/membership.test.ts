import type { Role } from '@quire/shared';
import { describe, expect, it } from 'vitest';
import { type MemberAction, mayMember } from './members';
import { type TeamAction, mayTeam } from './teams';

/**
 * The team and member policies as tables: one row per action, one column per standing,
 * `x` allowed and `.` refused. Columns: not a member, guest, member (read), admin.
 */
const STANDINGS: { isMember: boolean; orgRole: Role | null; isAdmin: boolean }[] = [
  { isMember: false, orgRole: null, isAdmin: false },
  { isMember: true, orgRole: null, isAdmin: false },
  { isMember: true, orgRole: 'read', isAdmin: false },
  { isMember: true, orgRole: 'admin', isAdmin: true },
];

function cells(may: (s: (typeof STANDINGS)[number]) => boolean) {
  return STANDINGS.map((s) => (may(s) ? 'x' : '.')).join(' ');
}

describe('team policy', () => {
  it.each<[TeamAction, 'member' | 'owner' | null, string]>([
    ['list', null, '. . x x'],
    ['view', null, '. . x x'],
    ['view', 'member', '. x x x'],
    ['manage', null, '. . . x'],
    ['manage', 'member', '. . . x'],
    ['manage', 'owner', '. x x x'],
  ])('%s, in the team as %s', (action, teamRole, expected) => {
    expect(cells((s) => mayTeam(s, teamRole, action))).toBe(expected);
  });
});

describe('member policy', () => {
  it.each<[MemberAction, boolean, string]>([
    ['view', false, '. . x x'],
    ['view', true, '. x x x'],
    ['remove', false, '. . . x'],
    ['remove', true, '. x x x'],
    ['listSpaces', false, '. . . x'],
    ['listSpaces', true, '. x x x'],
  ])('%s, own membership: %s', (action, self, expected) => {
    expect(cells((s) => mayMember(s, self, action))).toBe(expected);
  });
});
