import type { Role, Space } from '@quire/shared';
import type { OrgAccess } from '../access/callerAccess';
import { shareLinkReaderPermissions, spacePermissions } from '../policies/spaces';
import type { SpaceCounts } from '../../store/spaceCounts';
import type { SpaceRow } from '../../store/spaces';
import { compact, iso } from './iso';

/** A stored default level (of a space or collection) as the API shows it; `storedDefaultLevel` is the way back. */
export function apiDefaultLevel(stored: Role | 'inherit' | 'none' | null): Role | 'inherit' | null {
  if (stored === 'none') return null;
  return stored ?? 'inherit';
}

/** A space as the caller sees it; `byShareLink` when they opened it with its share key (read-only, whatever their role). */
export function presentSpace(s: SpaceRow, access: OrgAccess, base: string, counts: SpaceCounts, byShareLink = false): Space {
  const role = access.roleOn(s);
  const permissions = byShareLink ? shareLinkReaderPermissions(role, s) : spacePermissions(role, s);
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
    shareKey: permissions.admin ? s.share_key : undefined,
    permissions,
  });
}
