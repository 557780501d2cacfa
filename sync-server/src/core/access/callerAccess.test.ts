import { ROLES, type Role } from '@quire/shared';
import { describe, expect, it } from 'vitest';
import type { GrantRow } from '../../store/grants';
import type { MemberRow } from '../../store/members';
import { OrgAccess, type Placed } from './callerAccess';
import { atLeast, isRole, maxRole } from './roles';

const ORG = 'org';
const ME = 'me';
const TEAM = 'team-a';

function member(role: Role | null, disabled = false): MemberRow {
  return { org_id: ORG, user_id: ME, seq: 1, role, disabled, sso: false, joined_at: new Date(0), last_seen_at: null };
}

function grant(resource: string, role: Role, principal: 'user' | 'team' = 'user'): GrantRow {
  return {
    resource_id: resource,
    resource_kind: resource.startsWith('col') ? 'collection' : 'space',
    principal_id: principal === 'user' ? ME : TEAM,
    principal_kind: principal,
    role,
  };
}

/**
 * The tree every case uses:
 *   colTop (defaultLevel per case) ─ colMid (inherit) ─ spaceDeep (inherit)
 *   spaceRoot (at the organization root)
 */
function access(opts: { role?: Role | null; disabled?: boolean; member?: boolean; grants?: GrantRow[]; topLevel?: Role | 'none' | null }) {
  const collections = new Map<string, Placed>([
    ['colTop', { id: 'colTop', parent_id: null, default_level: opts.topLevel ?? null }],
    ['colMid', { id: 'colMid', parent_id: 'colTop', default_level: 'inherit' }],
  ]);
  const m = opts.member === false ? undefined : member(opts.role === undefined ? 'read' : opts.role, opts.disabled);
  return new OrgAccess(ORG, ME, m, opts.grants ?? [], collections);
}

const spaceRoot = (defaultLevel: Placed['default_level'] = null): Placed => ({
  id: 'spaceRoot',
  parent_id: null,
  default_level: defaultLevel,
});
const spaceDeep = (defaultLevel: Role | 'inherit' | null = null): Placed => ({
  id: 'spaceDeep',
  parent_id: 'colMid',
  default_level: defaultLevel,
});

describe('OrgAccess.roleOn', () => {
  it.each(ROLES.map((r) => [r]))('a %s member without defaults or grants has their organization role everywhere', (role) => {
    const a = access({ role });
    expect(a.roleOn(spaceRoot())).toBe(role);
    expect(a.roleOn(spaceDeep())).toBe(role);
    expect(a.roleOn({ id: 'colTop', parent_id: null, default_level: null })).toBe(role);
  });

  it.each<[string, Parameters<typeof access>[0], Placed, Role | null]>([
    // Organization admins are admins everywhere, whatever the defaults say.
    ['admin, space default read', { role: 'admin' }, spaceRoot('read'), 'admin'],
    ['admin, collection default read', { role: 'admin', topLevel: 'read' }, spaceDeep(), 'admin'],
    // The nearest default level replaces the organization role, up or down.
    ['read member, space default edit', { role: 'read' }, spaceRoot('edit'), 'edit'],
    ['create member, space default comment', { role: 'create' }, spaceRoot('comment'), 'comment'],
    ['space default inherit = organization role', { role: 'review' }, spaceRoot('inherit'), 'review'],
    ['read member, default edit inherited from the top collection', { role: 'read', topLevel: 'edit' }, spaceDeep(), 'edit'],
    ['edit member, default read inherited from the top collection', { role: 'edit', topLevel: 'read' }, spaceDeep(), 'read'],
    ['the space default wins over the collection one', { role: 'read', topLevel: 'edit' }, spaceDeep('comment'), 'comment'],
    // 'none': no default access at all, only what grants give.
    ['space default none', { role: 'edit' }, spaceRoot('none'), null],
    ['collection default none, inherited', { role: 'edit', topLevel: 'none' }, spaceDeep(), null],
    ['space default none, with a grant', { role: 'edit', grants: [grant('spaceRoot', 'comment')] }, spaceRoot('none'), 'comment'],
    [
      'a collection takes its own default',
      { role: 'read', topLevel: 'review' },
      { id: 'colMid', parent_id: 'colTop', default_level: null },
      'review',
    ],
    // Grants to the caller or their teams raise the role, on the resource or an ancestor.
    ['user grant on the space', { role: 'read', grants: [grant('spaceRoot', 'edit')] }, spaceRoot(), 'edit'],
    ['team grant on the space', { role: 'comment', grants: [grant('spaceRoot', 'review', 'team')] }, spaceRoot(), 'review'],
    ['grant on an ancestor collection', { role: 'read', grants: [grant('colTop', 'create')] }, spaceDeep(), 'create'],
    ['a lower grant does not lower', { role: 'edit', grants: [grant('spaceRoot', 'read')] }, spaceRoot(), 'edit'],
    [
      'the strongest of several grants',
      { role: 'read', grants: [grant('spaceDeep', 'comment'), grant('colMid', 'admin', 'team')] },
      spaceDeep(),
      'admin',
    ],
    [
      'a grant raises past a lowering default',
      { role: 'edit', topLevel: 'read', grants: [grant('spaceDeep', 'review')] },
      spaceDeep(),
      'review',
    ],
    ['a grant on another space gives nothing here', { role: 'read', grants: [grant('spaceRoot', 'admin')] }, spaceDeep(), 'read'],
    // Guests (role null) have only what grants give them; defaults do not apply to them.
    ['guest without a grant', { role: null }, spaceRoot('edit'), null],
    ['guest without a grant, collection default', { role: null, topLevel: 'edit' }, spaceDeep(), null],
    ['guest with a space grant', { role: null, grants: [grant('spaceRoot', 'comment')] }, spaceRoot(), 'comment'],
    ['guest with a collection grant, on a space inside', { role: null, grants: [grant('colMid', 'edit', 'team')] }, spaceDeep(), 'edit'],
    // Disabled members and non-members have no access at all, grants notwithstanding.
    ['disabled admin', { role: 'admin', disabled: true }, spaceRoot(), null],
    ['disabled member with a grant', { role: 'edit', disabled: true, grants: [grant('spaceRoot', 'admin')] }, spaceRoot(), null],
    ['not a member, with a grant left over', { member: false, grants: [grant('spaceRoot', 'admin')] }, spaceRoot(), null],
  ])('%s', (_name, opts, resource, expected) => {
    expect(access(opts).roleOn(resource)).toBe(expected);
  });

  it('stops on a cycle in the collection tree instead of looping', () => {
    const collections = new Map<string, Placed>([
      ['a', { id: 'a', parent_id: 'b', default_level: null }],
      ['b', { id: 'b', parent_id: 'a', default_level: 'comment' }],
    ]);
    const a = new OrgAccess(ORG, ME, member('read'), [], collections);
    expect(a.roleOn({ id: 's', parent_id: 'a', default_level: null })).toBe('comment');
  });

  it('answers the organization role, membership and admin flags', () => {
    expect(access({ role: 'admin' })).toMatchObject({ orgRole: 'admin', isAdmin: true, isMember: true });
    expect(access({ role: null })).toMatchObject({ orgRole: null, isAdmin: false, isMember: true });
    expect(access({ role: 'admin', disabled: true })).toMatchObject({ orgRole: null, isAdmin: false, isMember: false });
    expect(access({ member: false })).toMatchObject({ orgRole: null, isAdmin: false, isMember: false });
  });

  it('can(): at least the needed role', () => {
    const a = access({ role: 'edit' });
    expect(a.can(spaceRoot(), 'comment')).toBe(true);
    expect(a.can(spaceRoot(), 'edit')).toBe(true);
    expect(a.can(spaceRoot(), 'review')).toBe(false);
    expect(access({ role: null }).can(spaceRoot(), 'read')).toBe(false);
  });

  it('shows guests only the collections granted to them or below a granted one', () => {
    expect(access({ role: 'read' }).visibleCollectionIds()).toBeUndefined();
    expect(access({ role: null }).visibleCollectionIds()).toEqual([]);
    expect(
      access({ role: null, grants: [grant('colTop', 'read')] })
        .visibleCollectionIds()
        ?.sort(),
    ).toEqual(['colMid', 'colTop']);
    expect(access({ role: null, grants: [grant('colMid', 'read')] }).visibleCollectionIds()).toEqual(['colMid']);
  });
});

describe('roles', () => {
  it('orders the roles, and no role is below every one', () => {
    expect(atLeast('edit', 'edit')).toBe(true);
    expect(atLeast('admin', 'read')).toBe(true);
    expect(atLeast('read', 'comment')).toBe(false);
    expect(atLeast(null, 'read')).toBe(false);
    expect(atLeast(undefined, 'read')).toBe(false);
  });

  it('takes the stronger of two roles, either missing', () => {
    expect(maxRole('read', 'edit')).toBe('edit');
    expect(maxRole('edit', 'read')).toBe('edit');
    expect(maxRole(null, 'comment')).toBe('comment');
    expect(maxRole('comment', undefined)).toBe('comment');
    expect(maxRole(undefined, null)).toBeNull();
    expect(maxRole(undefined, undefined)).toBeNull();
  });

  it('knows a role by its name only', () => {
    for (const r of ROLES) expect(isRole(r)).toBe(true);
    expect(isRole('owner')).toBe(false);
    expect(isRole('')).toBe(false);
    expect(isRole(3)).toBe(false);
    expect(isRole(['admin'])).toBe(false);
    expect(isRole(undefined)).toBe(false);
  });
});

describe('single sign-on enforcement', () => {
  it('counts a member kept out by it as no member at all', () => {
    const a = access({ role: 'edit', grants: [grant('spaceRoot', 'admin')] });
    a.blockedBySso = true;
    expect(a).toMatchObject({ isMember: false, orgRole: null, isAdmin: false });
    expect(a.roleOn(spaceRoot('edit'))).toBeNull();
    expect(a.can(spaceRoot(), 'read')).toBe(false);
  });
});
