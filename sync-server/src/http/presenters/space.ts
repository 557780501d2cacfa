import type { Role, Space } from '@quire/shared';
import type { OrgAccess } from '../../core/access';
import { mayTriggerGitSync } from '../../core/policies/git';
import { atLeast } from '../../core/roles';
import type { SpaceCounts } from '../../store/spaceCounts';
import type { SpaceRow } from '../../store/spaces';
import { compact, iso } from './iso';

/** A stored default level (of a space or collection) as the API shows it; `storedDefaultLevel` is the way back. */
export function apiDefaultLevel(stored: Role | 'inherit' | 'none' | null): Role | 'inherit' | null {
  if (stored === 'none') return null;
  return stored ?? 'inherit';
}

export function presentSpace(s: SpaceRow, access: OrgAccess, base: string, counts: SpaceCounts): Space {
  const role = access.roleOn(s);
  const live = s.edit_mode === 'live';
  return compact({
    object: 'space' as const,
    id: s.id,
    title: s.title,
    emoji: s.emoji ?? undefined,
    visibility: s.visibility as Space['visibility'],
    createdAt: iso(s.created_at) as string,
    updatedAt: iso(s.updated_at) as string,
    deletedAt: iso(s.deleted_at),
    editMode: s.edit_mode,
    mergeRules: s.merge_rules,
    urls: {
      location: `${base}/v1/spaces/${s.id}`,
      app: `${base}/app/spaces/${s.id}`,
    },
    organization: s.org_id,
    parent: s.parent_id ?? undefined,
    language: s.language ?? undefined,
    revision: s.revision_id ?? '',
    defaultLevel: apiDefaultLevel(s.default_level),
    comments: counts.comments,
    changeRequests: counts.changeRequests,
    changeRequestsOpen: counts.changeRequestsOpen,
    changeRequestsDraft: counts.changeRequestsDraft,
    // The share key is a secret: only those who administrate the space see it.
    shareKey: atLeast(role, 'admin') ? s.share_key : undefined,
    permissions: {
      view: !!role,
      access: !!role,
      admin: atLeast(role, 'admin'),
      viewInviteLinks: atLeast(role, 'admin'),
      edit: live && atLeast(role, 'edit'),
      // What the git import and export ask (core/policies/git.ts).
      triggerGitSync: mayTriggerGitSync(role),
      comment: atLeast(role, 'comment'),
      merge: live && atLeast(role, 'review'),
      review: atLeast(role, 'review'),
      installIntegration: atLeast(role, 'admin'),
    },
  });
}
