import type { Role } from '@quire/shared';
import type { ChangeRequest } from '@quire/shared/schemas/changeRequest';
import type { Context } from 'hono';
import { isActive, isOutdated } from '../../core/content/changeRequests';
import { atLeast } from '../../core/roles';
import type { OrgAccess } from '../../core/access';
import {
  type ChangeRequestRow,
  type ReviewRow,
  type ReviewerRow,
  changeRequestCommentCounts,
  findChangeRequest,
  usersByIds,
} from '../../store/changeRequests';
import type { Queryable } from '../../store/db';
import type { SpaceRow } from '../../store/spaces';
import type { UserRow } from '../../store/users';
import { forbidden, notFound } from '../errors';
import type { AppEnv } from '../env';
import { requireSpace } from '../guards';
import { compact, iso } from '../presenters/iso';
import { presentUser } from '../presenters/user';

/** Someone deleted since: the user shown in place of a missing creator or reviewer. */
function ghost(id: string | null): UserRow {
  return { id: id ?? 'deleted', email: '', display_name: 'Deleted user', photo_url: null, email_verified: false, created_at: new Date(0) };
}

/** The space and change request, if the caller may see them with `needed` (404 when not at all, 403 below `needed`). */
export async function requireChangeRequest(c: Context<AppEnv>, spaceId: string, ref: string, needed: Role = 'read') {
  const found = await requireSpace(c, spaceId, 'read');
  const cr = await findChangeRequest(c.get('deps').db, found.space.id, ref);
  if (!cr) throw notFound('change request');
  if (!atLeast(found.role, needed)) throw forbidden(`This needs the ${needed} role on the space.`);
  return { ...found, cr };
}

export function changeRequestPermissions(cr: ChangeRequestRow, space: SpaceRow, role: Role | null) {
  const active = isActive(cr);
  return {
    view: !!role,
    edit: active && atLeast(role, 'edit'),
    comment: atLeast(role, 'comment'),
    review: active && atLeast(role, 'review'),
    merge: active && space.edit_mode === 'live' && atLeast(role, 'review'),
  };
}

/** Change requests with their creators and comment counts loaded in one go. */
export async function presentChangeRequests(
  db: Queryable,
  rows: ChangeRequestRow[],
  spaces: Map<string, SpaceRow>,
  access: OrgAccess,
  base: string,
): Promise<ChangeRequest[]> {
  const [users, comments] = await Promise.all([
    usersByIds(
      db,
      rows.map((r) => r.created_by),
    ),
    changeRequestCommentCounts(
      db,
      rows.map((r) => r.id),
    ),
  ]);
  return rows.map((cr) => {
    const space = spaces.get(cr.space_id) as SpaceRow;
    const role = access.roleOn(space);
    return compact({
      object: 'change-request' as const,
      id: cr.id,
      number: cr.number,
      status: cr.status,
      subject: cr.subject ?? undefined,
      description: cr.description ?? undefined,
      createdBy: presentUser(users.get(cr.created_by ?? '') ?? ghost(cr.created_by), base),
      createdAt: iso(cr.created_at) as string,
      updatedAt: iso(cr.updated_at) as string,
      mergedAt: iso(cr.merged_at),
      space: cr.space_id,
      revision: cr.revision_id,
      revisionInitial: cr.revision_initial,
      revisionMergedAncestor: cr.revision_merged_ancestor,
      revisionMerged: cr.revision_merged ?? undefined,
      comments: comments.get(cr.id) ?? 0,
      outdated: isOutdated(cr, space.revision_id),
      urls: {
        location: `${base}/v1/spaces/${cr.space_id}/change-requests/${cr.id}`,
        app: `${base}/app/spaces/${cr.space_id}/change-requests/${cr.number}`,
      },
      permissions: changeRequestPermissions(cr, space, role),
    });
  });
}

export async function presentChangeRequest(db: Queryable, cr: ChangeRequestRow, space: SpaceRow, access: OrgAccess, base: string) {
  const [one] = await presentChangeRequests(db, [cr], new Map([[space.id, space]]), access, base);
  return one as ChangeRequest;
}

export async function presentReviews(db: Queryable, rows: ReviewRow[], cr: ChangeRequestRow, base: string) {
  const users = await usersByIds(
    db,
    rows.map((r) => r.reviewer_id),
  );
  return rows.map((r) =>
    compact({
      object: 'change-request-review' as const,
      id: r.id,
      status: r.status,
      reviewer: presentUser(users.get(r.reviewer_id) ?? ghost(r.reviewer_id), base),
      revision: r.revision_id,
      outdated: r.revision_id !== cr.revision_id,
      comment: r.comment ?? undefined,
      createdAt: iso(r.created_at) as string,
      urls: { location: `${base}/v1/spaces/${cr.space_id}/change-requests/${cr.id}/reviews/${r.id}` },
      permissions: { view: true },
    }),
  );
}

export async function presentRequestedReviewers(
  db: Queryable,
  rows: ReviewerRow[],
  cr: ChangeRequestRow,
  latest: Map<string, ReviewRow>,
  canRemove: boolean,
  base: string,
) {
  const users = await usersByIds(
    db,
    rows.map((r) => r.user_id),
  );
  return rows.map((r) =>
    compact({
      object: 'change-request-requested-reviewer' as const,
      user: presentUser(users.get(r.user_id) ?? ghost(r.user_id), base),
      requestedAt: iso(r.requested_at) as string,
      review: latest.get(r.user_id)?.status,
      urls: { location: `${base}/v1/spaces/${cr.space_id}/change-requests/${cr.id}/requested-reviewers/${r.user_id}` },
      permissions: { remove: canRemove },
    }),
  );
}
