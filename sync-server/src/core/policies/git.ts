import type { Role } from '@quire/shared';
import { conflict, forbidden, notFound } from '@quire/shared/domainErrors';
import { type RoleTable, roleAllows } from './roleRules';

/*
 * Who may do what with a space's git sync. An import writes the space (as the markdown
 * import does, it needs the edit role, and main of a locked space cannot take it; a
 * standalone import opens a change request, which a locked space still allows); an export
 * publishes the space's content to a repository, so it needs the edit role too; reading
 * the state of the last operation needs to read the space. Connecting the space to a
 * repository (and seeing or removing that connection) makes every later merge a commit and
 * every push an edit of main: editors only.
 */

export const GIT_ROLES = { import: 'edit', export: 'edit', info: 'read', sync: 'edit' } as const satisfies RoleTable<string>;

export type GitAction = keyof typeof GIT_ROLES;

/** A space as a git operation meets it, for one caller. */
export interface GitSubject {
  /** The caller's effective role on the space; null: none at all. */
  role: Role | null;
  locked: boolean;
  /** An import into a change request instead of main. */
  standalone?: boolean;
}

export type GitDecision = { allowed: true } | { allowed: false; kind: 'not_found' | 'forbidden' | 'conflict'; message: string };

/** Whether the caller may do `action` on the space, and if not, why. */
export function gitDecision(action: GitAction, s: GitSubject): GitDecision {
  // Without any role the space does not exist for the caller.
  if (!s.role) return { allowed: false, kind: 'not_found', message: notFound('space').message };
  if (!roleAllows(GIT_ROLES, s.role, action)) {
    return { allowed: false, kind: 'forbidden', message: `This needs the ${GIT_ROLES[action]} role on the space.` };
  }
  if (action === 'import' && s.locked && !s.standalone) {
    return {
      allowed: false,
      kind: 'conflict',
      message:
        'The space is locked: its content cannot be changed until it is live again. A standalone import opens a change request instead.',
    };
  }
  return { allowed: true };
}

/** Throws the domain error of a refusal. */
export function authorizeGit(action: GitAction, s: GitSubject): void {
  const d = gitDecision(action, s);
  if (d.allowed) return;
  if (d.kind === 'not_found') throw notFound('space');
  throw d.kind === 'forbidden' ? forbidden(d.message) : conflict(d.message);
}

/** The space's `permissions.triggerGitSync`: whether the role may start an import or an export. */
export function mayTriggerGitSync(role: Role | null | undefined): boolean {
  return roleAllows(GIT_ROLES, role, 'import') && roleAllows(GIT_ROLES, role, 'export');
}
