import { ROLES, type Role } from '@quire/shared';

const RANK: Record<Role, number> = Object.fromEntries(ROLES.map((r, i) => [r, i + 1])) as Record<Role, number>;

/** True when `role` is at least `needed`; a missing role (no access) never is. */
export function atLeast(role: Role | null | undefined, needed: Role): boolean {
  return !!role && RANK[role] >= RANK[needed];
}

/** The stronger of two roles (null = none). */
export function maxRole(a: Role | null | undefined, b: Role | null | undefined): Role | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

export function isRole(v: unknown): v is Role {
  return typeof v === 'string' && (ROLES as readonly string[]).includes(v);
}
