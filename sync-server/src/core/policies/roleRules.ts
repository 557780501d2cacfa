import type { Role } from '@quire/shared';
import { atLeast } from '../access/roles';

/** A resource's actions and the role each needs: the table its policy reads. */
export type RoleTable<A extends string> = Readonly<Record<A, Role>>;

/** Whether `role` holds what `action` needs in `table` (no role never does). */
export function roleAllows<A extends string>(table: RoleTable<A>, role: Role | null | undefined, action: A): boolean {
  return atLeast(role, table[action]);
}
