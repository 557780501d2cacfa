import type { Role } from '@quire/shared';
import { conflict, forbidden, notFound } from '@quire/shared/apiErrors';
import { atLeast } from '../roles';

/*
 * Who may do what with a space's git sync. An import writes the space (as the markdown
 * import does, it needs the edit role, and main of a locked space cannot take it; a
 * standalone import opens a change request, which a locked space still allows); an export
 * publishes the space's content to a repository, so it needs the edit role too; reading
 * the state of the last operation needs to read the space.
 */

export type GitAction = 'import' | 'export' | 'info';

/** A space as a git operation meets it, for one caller. */
export interface GitSubject {
  /** The caller's effective role on the space; null: none at all. */
  role: Role | null;
  locked: boolean;
  /** An import into a change request instead of main. */
  standalone?: boolean;
}

const NEEDED: Record<GitAction, Role> = { import: 'edit', export: 'edit', info: 'read' };

export type GitDecision = { allowed: true } | { allowed: false; status: 403 | 404 | 409; message: string };

/** Whether the caller may do `action` on the space, and if not, what they are answered. */
export function gitDecision(action: GitAction, s: GitSubject): GitDecision {
  // Without any role the space does not exist for the caller.
  if (!s.role) return { allowed: false, status: 404, message: notFound('space').message };
  const needed = NEEDED[action];
  if (!atLeast(s.role, needed)) return { allowed: false, status: 403, message: `This needs the ${needed} role on the space.` };
  if (action === 'import' && s.locked && !s.standalone) {
    return {
      allowed: false,
      status: 409,
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
  if (d.status === 404) throw notFound('space');
  throw d.status === 403 ? forbidden(d.message) : conflict(d.message);
}

/** The space's `permissions.triggerGitSync`: whether the role may start an import or an export. */
export function mayTriggerGitSync(role: Role | null | undefined): boolean {
  return atLeast(role, NEEDED.import) && atLeast(role, NEEDED.export);
}
