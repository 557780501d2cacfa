import { notFound } from '@quire/shared/domainErrors';
import type { Queryable } from '../../store/db';
import type { Page, PageRequest } from '../../store/paginate';
import {
  type ChangeRequestRow,
  type ReviewRow,
  type ReviewerRow,
  changeRequestCommentCounts,
  getRequestedReviewer,
  getReview,
  latestReviews,
  listRequestedReviewers,
  listReviews,
  requesters,
  usersByIds,
} from '../../store/changeRequests';
import type { SpaceRow } from '../../store/spaces';
import type { UserRow } from '../../store/users';

/** Change requests with what presenting them needs: their spaces, creators and mergers, and comment counts. */
export interface ChangeRequestsRead {
  rows: ChangeRequestRow[];
  spaces: Map<string, SpaceRow>;
  users: Map<string, UserRow>;
  comments: Map<string, number>;
}

/** Reads the people and counters of change requests in one go (two statements, whatever their number). */
export async function readChangeRequests(db: Queryable, rows: ChangeRequestRow[], spaces: SpaceRow[]): Promise<ChangeRequestsRead> {
  const [users, comments] = await Promise.all([
    usersByIds(
      db,
      rows.flatMap((r) => [r.created_by, r.merged_by]),
    ),
    changeRequestCommentCounts(
      db,
      rows.map((r) => r.id),
    ),
  ]);
  return { rows, spaces: new Map(spaces.map((s) => [s.id, s])), users, comments };
}

/** Reviews of a change request with their reviewers and who asked each for a review. */
export interface ReviewsRead {
  rows: ReviewRow[];
  changeRequest: ChangeRequestRow;
  users: Map<string, UserRow>;
  requestedBy: Map<string, string | null>;
}

export async function readReviews(db: Queryable, rows: ReviewRow[], changeRequest: ChangeRequestRow): Promise<ReviewsRead> {
  const requestedBy = await requesters(db, changeRequest.id);
  const users = await usersByIds(db, [...rows.map((r) => r.reviewer_id), ...requestedBy.values()]);
  return { rows, changeRequest, users, requestedBy };
}

/** Requested reviewers of a change request, with their users and each one's latest review. */
export interface RequestedReviewersRead {
  rows: ReviewerRow[];
  changeRequest: ChangeRequestRow;
  users: Map<string, UserRow>;
  latest: Map<string, ReviewRow>;
}

export async function readRequestedReviewers(
  db: Queryable,
  rows: ReviewerRow[],
  changeRequest: ChangeRequestRow,
): Promise<RequestedReviewersRead> {
  const [latest, users] = await Promise.all([
    latestReviews(db, changeRequest.id),
    usersByIds(
      db,
      rows.flatMap((r) => [r.user_id, r.requested_by]),
    ),
  ]);
  return { rows, changeRequest, users, latest: new Map(latest.map((rv) => [rv.reviewer_id, rv])) };
}

/** A page of a change request's reviews (`outdated` keeps those of an earlier revision, or the others). */
export async function reviewsPage(
  db: Queryable,
  cr: ChangeRequestRow,
  q: PageRequest & { outdated?: boolean },
): Promise<{ page: Page<ReviewRow>; read: ReviewsRead }> {
  const page = await listReviews(db, cr.id, { outdated: q.outdated, currentRevision: cr.revision_id }, q);
  return { page, read: await readReviews(db, page.rows, cr) };
}

/** One review of a change request: 404 when it has none by that id. */
export async function reviewOf(db: Queryable, cr: ChangeRequestRow, reviewId: string): Promise<ReviewsRead> {
  const review = await getReview(db, cr.id, reviewId);
  if (!review) throw notFound('review');
  return readReviews(db, [review], cr);
}

/** A page of the reviewers asked to review a change request. */
export async function requestedReviewersPage(
  db: Queryable,
  cr: ChangeRequestRow,
  q: PageRequest,
): Promise<{ page: Page<ReviewerRow>; read: RequestedReviewersRead }> {
  const page = await listRequestedReviewers(db, cr.id, q);
  return { page, read: await readRequestedReviewers(db, page.rows, cr) };
}

/** One reviewer asked to review a change request: 404 when that user was not asked. */
export async function requestedReviewerOf(db: Queryable, cr: ChangeRequestRow, userId: string): Promise<RequestedReviewersRead> {
  const row = await getRequestedReviewer(db, cr.id, userId);
  if (!row) throw notFound('requested reviewer');
  return readRequestedReviewers(db, [row], cr);
}
