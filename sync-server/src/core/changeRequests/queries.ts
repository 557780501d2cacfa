import type { Role } from '@quire/shared';
import { badRequest } from '@quire/shared/domainErrors';
import type { ChangeRequest, ChangeRequestListQuery, OrgChangeRequestListQuery } from '@quire/shared/schemas/changeRequest';
import type { CommentFormat } from '@quire/shared/schemas/comment';
import type { z } from 'zod';
import { changeRequestSeenBy, orgSeenBy, spaceSeenBy } from '../access/resourceAccess';
import { changeRequestPdfUrl } from '../content/branchOps';
import { isActive } from '../content/changeRequests';
import { requestedReviewerOf, requestedReviewersPage, reviewOf, reviewsPage } from '../content/changeRequestViews';
import { changeRequestsOfOrg, changeRequestsOfSpace, readChangeRequest } from '../content/changeRequestWrites';
import type { LinkBase } from '../content/exports';
import type { CommandContext } from '../platform/deps';
import { mayChangeRequest } from '../policies/changeRequests';
import { presentChangeRequest, presentChangeRequests, presentRequestedReviewers, presentReviews } from '../views/changeRequest';
import { envelope } from '../views/listing';
import type { ChangeRequestRow } from '../../store/changeRequests';
import type { PageRequest } from '../../store/paginate';
import type { SpaceRow } from '../../store/spaces';

/** Whether the caller may change who is asked to review (the list shows it as `permissions.remove`). */
const mayAskForReviews = (role: Role, cr: ChangeRequestRow, space: SpaceRow) =>
  mayChangeRequest(role, 'askForReviews', { active: isActive(cr) }, space);

/*
 * The lists of change requests that both the `/v1` routes and MCP's tools answer with, one
 * function each, taking the caller's context and the operation's input.
 */

/** Change requests of a space (`GET /v1/spaces/{id}/change-requests`). */
export async function listSpaceChangeRequests(ctx: CommandContext, input: { spaceId: string } & z.output<typeof ChangeRequestListQuery>) {
  const { spaceId, ...q } = input;
  const { space, access } = await spaceSeenBy(ctx.deps.db, ctx.access, spaceId, 'view');
  const { page, read } = await changeRequestsOfSpace(ctx.deps.db, space, q);
  return envelope({ ...page, rows: presentChangeRequests(read, access, ctx.baseUrl) }, (x) => x);
}

/** Change requests across the spaces of an organization the caller may see (`GET /v1/orgs/{id}/change-requests`). */
export async function listOrganizationChangeRequests(
  ctx: CommandContext,
  input: { organizationId: string } & z.output<typeof OrgChangeRequestListQuery>,
) {
  const { organizationId, ...q } = input;
  const { org, access } = await orgSeenBy(ctx.deps.db, ctx.access, organizationId);
  const { page, read } = await changeRequestsOfOrg(ctx.deps.db, org, access, q);
  return envelope({ ...page, rows: presentChangeRequests(read, access, ctx.baseUrl) }, (x) => x);
}

type ChangeRequestRef = { spaceId: string; changeRequestId: string };

/** One change request, by id or number, with its space as it is now. */
export async function getChangeRequest(ctx: CommandContext, input: ChangeRequestRef): Promise<ChangeRequest> {
  const { space, access, cr } = await changeRequestSeenBy(ctx.deps.db, ctx.access, input.spaceId, input.changeRequestId);
  return presentChangeRequest(await readChangeRequest(ctx.deps.db, cr, space), access, ctx.baseUrl);
}

/** A signed link to the PDF of a change request's content, or of one page of it. */
export async function changeRequestPdf(
  ctx: CommandContext,
  input: ChangeRequestRef & { links: LinkBase; query: { page?: string; only?: boolean } },
) {
  const { cr } = await changeRequestSeenBy(ctx.deps.db, ctx.access, input.spaceId, input.changeRequestId);
  if (input.query.only && !input.query.page) throw badRequest('Missing query parameter field "page": required when "only" is true.');
  return { url: await changeRequestPdfUrl(ctx.deps.db, input.links, cr, input.query) };
}

export async function listReviews(
  ctx: CommandContext,
  input: ChangeRequestRef & { query: PageRequest & { outdated?: boolean; format?: CommentFormat } },
) {
  const { cr } = await changeRequestSeenBy(ctx.deps.db, ctx.access, input.spaceId, input.changeRequestId);
  const { page, read } = await reviewsPage(ctx.deps.db, cr, input.query);
  return envelope({ ...page, rows: presentReviews(read, ctx.baseUrl, input.query.format) }, (x) => x);
}

export async function getReview(ctx: CommandContext, input: ChangeRequestRef & { reviewId: string; format?: CommentFormat }) {
  const { cr } = await changeRequestSeenBy(ctx.deps.db, ctx.access, input.spaceId, input.changeRequestId);
  const [shown] = presentReviews(await reviewOf(ctx.deps.db, cr, input.reviewId), ctx.baseUrl, input.format);
  return shown as NonNullable<typeof shown>;
}

/** Who is asked to review, with whether the caller may withdraw the requests (`permissions.remove`). */
export async function listRequestedReviewers(ctx: CommandContext, input: ChangeRequestRef & { page: PageRequest }) {
  const { cr, role, space } = await changeRequestSeenBy(ctx.deps.db, ctx.access, input.spaceId, input.changeRequestId);
  const { page, read } = await requestedReviewersPage(ctx.deps.db, cr, input.page);
  const items = presentRequestedReviewers(read, mayAskForReviews(role, cr, space), ctx.baseUrl);
  return envelope({ ...page, rows: items }, (x) => x);
}

export async function getRequestedReviewer(ctx: CommandContext, input: ChangeRequestRef & { userId: string }) {
  const { cr, role, space } = await changeRequestSeenBy(ctx.deps.db, ctx.access, input.spaceId, input.changeRequestId);
  const read = await requestedReviewerOf(ctx.deps.db, cr, input.userId);
  const [item] = presentRequestedReviewers(read, mayAskForReviews(role, cr, space), ctx.baseUrl);
  return item as NonNullable<typeof item>;
}
