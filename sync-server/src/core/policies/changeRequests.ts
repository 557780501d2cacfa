import type { Role } from '@quire/shared';
import { type RoleTable, roleAllows } from './roleRules';
import { type SpaceState, maySpace } from './spaces';

/** What a caller may do with a change request, by their role on its space. */
export const CHANGE_REQUEST_ROLES = {
  view: 'read',
  comment: 'comment',
  /** Its content, title, description, status. */
  edit: 'edit',
  /** Who is asked to review it (even once merged: the list is its record). */
  askForReviews: 'edit',
  review: 'review',
  merge: 'review',
} as const satisfies RoleTable<string>;

export type ChangeRequestAction = keyof typeof CHANGE_REQUEST_ROLES;

export interface ChangeRequestState {
  /** Draft or open: merged and archived requests change no more. */
  active: boolean;
}

const ONLY_WHILE_ACTIVE: ReadonlySet<ChangeRequestAction> = new Set(['edit', 'review', 'merge']);

export function mayChangeRequest(
  role: Role | null | undefined,
  action: ChangeRequestAction,
  cr: ChangeRequestState,
  space: SpaceState,
): boolean {
  if (ONLY_WHILE_ACTIVE.has(action) && !cr.active) return false;
  if (action === 'merge' && !maySpace(role, 'merge', space)) return false;
  return roleAllows(CHANGE_REQUEST_ROLES, role, action);
}

/** A change request's `permissions` for a caller holding `role` on its space. */
export function changeRequestPermissions(role: Role | null | undefined, cr: ChangeRequestState, space: SpaceState) {
  const may = (action: ChangeRequestAction) => mayChangeRequest(role, action, cr, space);
  return { view: may('view'), edit: may('edit'), comment: may('comment'), review: may('review'), merge: may('merge') };
}

/** A review counts from anyone asked for one, whatever their role, and from anyone with the review role. */
export function mayReview(role: Role | null | undefined, asked: boolean): boolean {
  return asked || roleAllows(CHANGE_REQUEST_ROLES, role, 'review');
}
