import type { Role } from '@quire/shared';
import type { ChangeRequest, ChangeRequestReview, RequestedReviewer } from '@quire/shared/schemas/changeRequest';
import type { CommentFormat } from '@quire/shared/schemas/comment';
import { presentBody, storedBody } from '../comments/bodies';
import { isActive, isOutdated } from '../content/changeRequests';
import { changeRequestPermissions as permissionsFor } from '../policies/changeRequests';
import type { OrgAccess } from '../access/callerAccess';
import type { ChangeRequestsRead, RequestedReviewersRead, ReviewsRead } from '../content/changeRequestViews';
import type { ChangeRequestRow, ReviewRow } from '../../store/changeRequests';
import type { SpaceRow } from '../../store/spaces';
import type { UserRow } from '../../store/users';
import { compact, iso } from './iso';
import { presentUser } from './user';

/** Someone deleted since: the user shown in place of a missing creator or reviewer. */
function ghost(id: string | null): UserRow {
  return { id: id ?? 'deleted', email: '', display_name: 'Deleted user', photo_url: null, email_verified: false, created_at: new Date(0) };
}

export function changeRequestPermissions(cr: ChangeRequestRow, space: SpaceRow, role: Role | null) {
  return permissionsFor(role, { active: isActive(cr) }, space);
}

/** Change requests as read with their people and counters (`readChangeRequests`). */
export function presentChangeRequests(
  { rows, spaces, users, comments }: ChangeRequestsRead,
  access: OrgAccess,
  base: string,
): ChangeRequest[] {
  return rows.map((cr) => {
    const space = spaces.get(cr.space_id) as SpaceRow;
    const role = access.roleOn(space);
    return compact({
      object: 'change-request' as const,
      id: cr.id,
      number: cr.number,
      status: cr.status,
      subject: cr.subject ?? '',
      description: cr.description ?? undefined,
      createdBy: presentUser(users.get(cr.created_by ?? '') ?? ghost(cr.created_by), base),
      createdAt: iso(cr.created_at) as string,
      updatedAt: iso(cr.updated_at) as string,
      mergedAt: iso(cr.merged_at),
      mergedBy: cr.merged_by ? presentUser(users.get(cr.merged_by) ?? ghost(cr.merged_by), base) : undefined,
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

/** The first change request read. */
export function presentChangeRequest(read: ChangeRequestsRead, access: OrgAccess, base: string): ChangeRequest {
  const [one] = presentChangeRequests(read, access, base);
  return one as ChangeRequest;
}

/**
 * What a reviewer wrote, as markdown: reviews keep `{markdown}`; those stored before kept
 * the Document they were sent, read back through the content model.
 */
function reviewMarkdown(comment: ReviewRow['comment']): string | undefined {
  if (!comment) return undefined;
  if ('markdown' in comment && typeof comment.markdown === 'string') return comment.markdown;
  try {
    return storedBody({ document: comment as Record<string, unknown> });
  } catch {
    return undefined;
  }
}

export function presentReviews({ rows, changeRequest: cr, users, requestedBy }: ReviewsRead, base: string, format?: CommentFormat) {
  const user = (id: string) => presentUser(users.get(id) ?? ghost(id), base);
  return rows.map((r): ChangeRequestReview => {
    const location = `${base}/v1/spaces/${cr.space_id}/change-requests/${cr.id}/reviews/${r.id}`;
    const createdAt = iso(r.created_at) as string;
    const markdown = reviewMarkdown(r.comment);
    const requester = requestedBy.get(r.reviewer_id);
    return compact({
      object: 'change-request-review' as const,
      id: r.id,
      status: r.status,
      reviewer: user(r.reviewer_id),
      requestedBy: requester ? user(requester) : undefined,
      revision: r.revision_id,
      outdated: r.revision_id !== cr.revision_id,
      // The review's own words, shaped as the comment the public client of this API family expects here.
      comment:
        markdown === undefined
          ? undefined
          : {
              object: 'comment' as const,
              id: r.id,
              postedBy: user(r.reviewer_id),
              postedAt: createdAt,
              reactions: [],
              replies: 0,
              repliers: [],
              body: presentBody(markdown, format),
              target: { changeRequest: cr.id, review: r.id, space: cr.space_id, revision: r.revision_id },
              urls: { location },
              permissions: { view: true, edit: false, reply: false, delete: false },
              status: 'open' as const,
            },
      createdAt,
      updatedAt: createdAt,
      urls: { location },
      permissions: { view: true },
    });
  });
}

export function presentRequestedReviewers(
  { rows, changeRequest: cr, users, latest }: RequestedReviewersRead,
  canRemove: boolean,
  base: string,
): RequestedReviewer[] {
  return rows.map((r) => {
    const requestedAt = iso(r.requested_at) as string;
    return compact({
      object: 'change-request-requested-reviewer' as const,
      kind: 'user' as const,
      user: presentUser(users.get(r.user_id) ?? ghost(r.user_id), base),
      requestedBy: r.requested_by ? presentUser(users.get(r.requested_by) ?? ghost(r.requested_by), base) : undefined,
      requestedAt,
      createdAt: requestedAt,
      revision: cr.revision_id,
      review: latest.get(r.user_id)?.status,
      urls: { location: `${base}/v1/spaces/${cr.space_id}/change-requests/${cr.id}/requested-reviewers/${r.user_id}` },
      permissions: { remove: canRemove },
    });
  });
}
