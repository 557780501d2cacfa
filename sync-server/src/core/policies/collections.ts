import type { Role } from '@quire/shared';
import { type RoleTable, roleAllows } from './roleRules';

/** What a caller may do with a collection, by their role on it. */
export const COLLECTION_ROLES = {
  view: 'read',
  /** Spaces and collections inside it. */
  create: 'create',
  /** Its settings, moves, transfers, deletion, invite links. */
  administer: 'admin',
} as const satisfies RoleTable<string>;

export type CollectionAction = keyof typeof COLLECTION_ROLES;

export const mayCollection = (role: Role | null | undefined, action: CollectionAction) => roleAllows(COLLECTION_ROLES, role, action);

export function collectionPermissions(role: Role | null | undefined) {
  return {
    view: mayCollection(role, 'view'),
    admin: mayCollection(role, 'administer'),
    viewInviteLinks: mayCollection(role, 'administer'),
    create: mayCollection(role, 'create'),
  };
}
