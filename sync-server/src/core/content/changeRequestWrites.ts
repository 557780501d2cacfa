import { newId, type Role } from '@quire/shared';
import { conflict, forbidden, notFound } from '@quire/shared/domainErrors';
import type {
  ChangeRequestListQuery,
  CreateChangeRequestBody,
  OrgChangeRequestListQuery,
  ReviewStatusSchema,
} from '@quire/shared/schemas/changeRequest';
import type { z } from 'zod';
import type { OrgAccess } from '../access/callerAccess';
import type { DbHandle } from '../platform/deps';
import { mayReview } from '../policies/changeRequests';
import { visibleSpaceIds } from '../spaces/visible';
import type { Branch } from './branches';
import { crBranch, isActive, openChangeRequest, recordChangeRequestEvent, updateFromMain } from './changeRequests';
import {
  type ChangeRequestsRead,
  type RequestedReviewersRead,
  type ReviewsRead,
  readChangeRequests,
  readRequestedReviewers,
  readReviews,
} from './changeRequestViews';
import { branchHead } from './revisions';
import { templatePages, writeTemplate } from './templates';
import * as store from '../../store/changeRequests';
import type { Db } from '../../store/db';
import { getMembership } from '../../store/members';
import type { OrgRow } from '../../store/organizations';
import type { Page } from '../../store/paginate';
import { orgSpaces } from '../../store/search';
import { type SpaceRow, getSpace } from '../../store/spaces';

/** A page of change requests with what presenting them needs. */
export interface ChangeRequestPage {
  page: Page<store.ChangeRequestRow>;
  read: ChangeRequestsRead;
}

/** One change request with its space as it is now. */
export function readChangeRequest(db: Db, cr: store.ChangeRequestRow, space: SpaceRow): Promise<ChangeRequestsRead> {
  return readChangeRequests(db, [cr], [space]);
}

/**
 * Opens a change request on a space the caller may edit (checked before), filled from a
 * template when one is named: a bad template opens nothing. Answers it with its space as it
 * is after the opening.
 */
export async function openChangeRequestAs(
  db: Db,
  space: SpaceRow,
  userId: string,
  body: z.output<typeof CreateChangeRequestBody>,
): Promise<ChangeRequestsRead> {
  const { template, ...fields } = body;
  const pages = template && (await templatePages(db, space.org_id, template.id, template.params?.contentRefs ?? {}, 'template.'));
  const fill = pages ? (tx: DbHandle, branch: Branch) => writeTemplate(tx, branch, pages, userId) : undefined;
  const cr = await openChangeRequest(db, space.id, userId, fields, fill);
  if (pages) await store.addContributor(db, cr.id, userId);
  return readChangeRequest(db, cr, (await getSpace(db, space.id)) ?? space);
}

/** Changes a change request's subject, description or status; a merged one keeps its status. Records its webhook event. */
export async function updateChangeRequestAs(
  db: Db,
  cr: store.ChangeRequestRow,
  space: SpaceRow,
  patch: Record<string, unknown> & { status?: string },
  userId: string,
): Promise<ChangeRequestsRead> {
  const updated = await db.transaction(async (tx) => {
    const locked = await store.lockChangeRequest(tx, cr.id);
    if (!locked) throw notFound('change request');
    if (patch.status && locked.status === 'merged') throw conflict('The change request is merged: its status cannot change any more.');
    const after = await store.updateChangeRequest(tx, cr.id, patch);
    const closed = after.status === 'archived' && locked.status !== 'archived';
    await recordChangeRequestEvent(tx, closed ? 'change_request.closed' : 'change_request.updated', after, after.revision_id, {
      changes: Object.keys(patch),
      updatedBy: userId,
    });
    return after;
  });
  return readChangeRequest(db, updated, space);
}

/** A space's change requests. */
export async function changeRequestsOfSpace(
  db: Db,
  space: SpaceRow,
  q: z.output<typeof ChangeRequestListQuery>,
): Promise<ChangeRequestPage> {
  const page = await store.listChangeRequests(db, { ...q, spaceIds: [space.id], none: !!q.topic }, q);
  return { page, read: await readChangeRequests(db, page.rows, [space]) };
}

/** Change requests across the spaces of an organization the caller may see (a guest: those their grants open). */
export async function changeRequestsOfOrg(
  db: Db,
  org: OrgRow,
  access: OrgAccess,
  q: z.output<typeof OrgChangeRequestListQuery>,
): Promise<ChangeRequestPage> {
  const visible = await orgSpaces(db, org.id);
  const guestIds = access.orgRole === null ? new Set(await visibleSpaceIds(db, access, { orgId: org.id })) : undefined;
  let spaces = visible.filter((s) => access.roleOn(s) && (!guestIds || guestIds.has(s.id)));
  if (q.space) spaces = spaces.filter((s) => s.id === q.space);
  if (q.site) {
    const inSite = new Set(await store.spaceIdsOfSite(db, org.id, q.site));
    spaces = spaces.filter((s) => inSite.has(s.id));
  }
  const page = await store.listChangeRequests(
    db,
    // No change request here comes from a style guide run, a site finding or a topic.
    { ...q, spaceIds: spaces.map((s) => s.id), none: !!(q.styleguideRun || (q.finding && q.finding !== 'none') || q.topic) },
    q,
  );
  return { page, read: await readChangeRequests(db, page.rows, spaces) };
}

/**
 * Reviews a change request as the caller: a reviewer (review role) or someone asked to
 * review; only an active one, at its head. Answers the review with the change request as
 * it is after it.
 */
export async function reviewChangeRequestAs(
  db: Db,
  cr: store.ChangeRequestRow,
  role: Role | null,
  userId: string,
  review: { status: z.output<typeof ReviewStatusSchema>; markdown?: string },
): Promise<ReviewsRead> {
  const requested = await store.isRequestedReviewer(db, cr.id, userId);
  if (!mayReview(role, requested)) throw forbidden('This needs the review role on the space, or a review request.');
  if (!isActive(cr)) throw conflict(`The change request is ${cr.status}: it cannot be reviewed any more.`);
  const row = await db.transaction(async (tx) => {
    const head = await branchHead(tx, crBranch(cr));
    if (!head) throw notFound('change request');
    return store.insertReview(tx, {
      id: newId(),
      changeRequestId: cr.id,
      reviewerId: userId,
      status: review.status,
      revisionId: head.id,
      comment: review.markdown === undefined ? undefined : { markdown: review.markdown },
    });
  });
  const fresh = (await store.getChangeRequest(db, cr.id)) ?? cr;
  return readReviews(db, [row], fresh);
}

/**
 * Asks members of the space's organization to review (anyone else is unknown here), and
 * renames or describes the change request in the same call when asked. Answers every
 * requested reviewer.
 */
export async function requestReviewersAs(
  db: Db,
  space: SpaceRow,
  cr: store.ChangeRequestRow,
  b: { users: string[]; subject?: string; description?: unknown },
  userId: string,
): Promise<{ page: Page<store.ReviewerRow>; read: RequestedReviewersRead }> {
  for (const u of b.users) {
    const m = await getMembership(db, space.org_id, u);
    if (!m || m.disabled) throw notFound('user');
  }
  const renames = b.subject !== undefined || b.description !== undefined;
  const current = await db.transaction(async (tx) => {
    // The row lock first, as every writer of the change request takes it.
    if (renames && !(await store.lockChangeRequest(tx, cr.id))) throw notFound('change request');
    await store.addRequestedReviewers(tx, cr.id, b.users, userId);
    return renames ? store.updateChangeRequest(tx, cr.id, { subject: b.subject, description: b.description }) : cr;
  });
  const page = await store.listRequestedReviewers(db, cr.id, { limit: 1000 });
  return { page, read: await readRequestedReviewers(db, page.rows, current) };
}

/** Brings main's changes into a change request; the caller counts as one of its contributors. */
export async function updateFromMainAs(db: Db, cr: store.ChangeRequestRow, userId: string): Promise<{ revision: string }> {
  const { revision } = await updateFromMain(db, cr.id, userId);
  await store.addContributor(db, cr.id, userId);
  return { revision };
}

/** Withdraws the request that a user review a change request (one never asked changes nothing). */
export async function removeRequestedReviewerAs(db: Db, cr: store.ChangeRequestRow, userId: string): Promise<void> {
  await store.removeRequestedReviewer(db, cr.id, userId);
}
