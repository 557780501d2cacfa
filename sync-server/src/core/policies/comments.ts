import type { Role } from '@quire/shared';
import { type RoleTable, roleAllows } from './roleRules';

/** What a caller may do in a space's (or change request's) discussion, by their role on the space. */
export const COMMENT_ROLES = {
  /** Anyone who can read the content reads its discussion. */
  view: 'read',
  /** Post, reply, react, resolve. */
  comment: 'comment',
  /** Delete anyone's comment or reply. */
  moderate: 'admin',
} as const satisfies RoleTable<string>;

export type CommentAction = keyof typeof COMMENT_ROLES | 'editBody' | 'delete';

/** Whether `role` may do `action` to a comment or reply; `mine` says whether the caller posted it. */
export function mayComment(role: Role | null | undefined, action: CommentAction, mine = false): boolean {
  switch (action) {
    case 'editBody':
      return mine && roleAllows(COMMENT_ROLES, role, 'comment');
    case 'delete':
      return (mine && roleAllows(COMMENT_ROLES, role, 'comment')) || roleAllows(COMMENT_ROLES, role, 'moderate');
    default:
      return roleAllows(COMMENT_ROLES, role, action);
  }
}

/** The refusal's wording: "This needs the comment role on the space to reply." */
export const commentRoleFor = (action: keyof typeof COMMENT_ROLES): Role => COMMENT_ROLES[action];

/** A comment's or reply's `permissions` for a caller holding `role`. */
export function commentPermissions(role: Role | null | undefined, mine: boolean) {
  return {
    view: mayComment(role, 'view'),
    edit: mayComment(role, 'editBody', mine),
    reply: mayComment(role, 'comment'),
    delete: mayComment(role, 'delete', mine),
  };
}
