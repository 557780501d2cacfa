import type { Role } from '@quire/shared';
import { mayTriggerGitSync } from './git';
import { type RoleTable, roleAllows } from './roleRules';

/**
 * What a caller may do with a space. A locked space takes no content edits or merges from
 * anyone (an admin unlocks it first), and only an admin changes its details.
 */
export const SPACE_ROLES = {
  view: 'read',
  comment: 'comment',
  /** Its content, live or through a change request. */
  edit: 'edit',
  openChangeRequest: 'edit',
  /** Title, emoji, icon, language. */
  updateDetails: 'edit',
  review: 'review',
  merge: 'review',
  /** Settings that shape access and workflow, delete, restore, move, transfer, the share key, integrations. */
  administer: 'admin',
} as const satisfies RoleTable<string>;

export type SpaceAction = keyof typeof SPACE_ROLES;

export interface SpaceState {
  edit_mode: 'live' | 'locked';
}

const BARRED_WHEN_LOCKED: ReadonlySet<SpaceAction> = new Set(['edit', 'merge']);

export function maySpace(role: Role | null | undefined, action: SpaceAction, space: SpaceState): boolean {
  if (space.edit_mode === 'locked') {
    if (BARRED_WHEN_LOCKED.has(action)) return false;
    if (action === 'updateDetails') return roleAllows(SPACE_ROLES, role, 'administer');
  }
  return roleAllows(SPACE_ROLES, role, action);
}

/** The fields anyone who may update a space's details may change (`icon` can only be cleared). */
const DETAIL_FIELDS = new Set(['title', 'emoji', 'icon', 'language']);

/** What a change of these space fields is: its details, or settings only an admin changes. */
export function spaceUpdateAction(fields: object): SpaceAction {
  return Object.keys(fields).some((k) => !DETAIL_FIELDS.has(k)) ? 'administer' : 'updateDetails';
}

/** A space's `permissions` for a caller holding `role` on it. */
export function spacePermissions(role: Role | null | undefined, space: SpaceState) {
  const may = (action: SpaceAction) => maySpace(role, action, space);
  return {
    view: may('view'),
    access: may('view'),
    admin: may('administer'),
    viewInviteLinks: may('administer'),
    edit: may('edit'),
    // What the git import and export ask (policies/git.ts).
    triggerGitSync: mayTriggerGitSync(role),
    comment: may('comment'),
    merge: may('merge'),
    review: may('review'),
    installIntegration: may('administer'),
  };
}

/**
 * A reader who opened a share-link space with its key: they may read it, nothing more,
 * whatever their own role (none, usually).
 */
export function shareLinkReaderPermissions(role: Role | null | undefined, space: SpaceState) {
  return { ...spacePermissions(role, space), view: true, access: true };
}
