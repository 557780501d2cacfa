import type { Role } from '@quire/shared';
import type { GrantRow } from '../../store/grants';
import type { MemberRow } from '../../store/members';
import { atLeast, maxRole } from './roles';

/** What decides a role on a space or collection: its own default level and its parent. */
export interface Placed {
  id: string;
  parent_id: string | null;
  /** null or 'inherit': the parent's (else the organization role); 'none': no default access */
  default_level: Role | 'inherit' | 'none' | null;
}

/**
 * The caller's standing in one organization, loaded once per request: membership,
 * grants (own and through teams) and the collection tree. `roleOn` is the one function
 * that turns these into an effective role.
 */
export class OrgAccess {
  private grantRole = new Map<string, Role>();
  /** Set when the organization enforces SSO and the caller's token did not come from a sign-in (see sso/enforcement). */
  blockedBySso = false;

  constructor(
    readonly orgId: string,
    readonly userId: string,
    readonly member: MemberRow | undefined,
    grants: GrantRow[],
    private collections: Map<string, Placed>,
  ) {
    for (const g of grants) this.grantRole.set(g.resource_id, maxRole(this.grantRole.get(g.resource_id), g.role) as Role);
  }

  /** Member of the organization (guests included) and not disabled. */
  get isMember(): boolean {
    return !!this.member && !this.member.disabled && !this.blockedBySso;
  }

  /** The organization role; null for guests and non-members. */
  get orgRole(): Role | null {
    return this.isMember ? (this.member?.role ?? null) : null;
  }

  get isAdmin(): boolean {
    return this.orgRole === 'admin';
  }

  /**
   * Effective role on a space or collection: organization admins are admins; members start
   * from the nearest default level up the tree (or their organization role when none is
   * set); grants to the caller or their teams on the resource or any ancestor raise it.
   * Guests have only what grants give them. Null means no access at all.
   */
  roleOn(resource: Placed): Role | null {
    if (!this.isMember) return null;
    if (this.isAdmin) return 'admin';
    let base: Role | null = null;
    let granted: Role | null = null;
    let defaultFound = false;
    const seen = new Set<string>();
    let node: Placed | undefined = resource;
    while (node && !seen.has(node.id)) {
      seen.add(node.id);
      granted = maxRole(granted, this.grantRole.get(node.id));
      if (!defaultFound && node.default_level && node.default_level !== 'inherit') {
        base = node.default_level === 'none' ? null : node.default_level;
        defaultFound = true;
      }
      node = node.parent_id ? this.collections.get(node.parent_id) : undefined;
    }
    if (this.orgRole === null) return granted;
    return maxRole(defaultFound ? base : this.orgRole, granted);
  }

  can(resource: Placed, needed: Role): boolean {
    return atLeast(this.roleOn(resource), needed);
  }

  collection(id: string): Placed | undefined {
    return this.collections.get(id);
  }

  /** Ids of the collections the caller can see; undefined when they see them all. */
  visibleCollectionIds(): string[] | undefined {
    if (this.orgRole !== null) return undefined;
    return [...this.collections.values()].filter((c) => this.roleOn(c)).map((c) => c.id);
  }
}
