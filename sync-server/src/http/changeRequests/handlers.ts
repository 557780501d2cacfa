import type { OpenAPIHono } from '@hono/zod-openapi';
import type { z } from 'zod';
import type { ChangeRequestListQuery, CreateReviewBody, OrgChangeRequestListQuery } from '@quire/shared/schemas/changeRequest';
import type { Role } from '@quire/shared';
import type { Context } from 'hono';
import type { ChangeRequestRow } from '../../store/changeRequests';
import type { SpaceRow } from '../../store/spaces';
import { BodyError, storedBody } from '../../core/comments/bodies';
import { mergeChangeRequest } from '../../core/content/changeRequests';
import { requestedReviewerOf, requestedReviewersPage, reviewOf, reviewsPage } from '../../core/content/changeRequestViews';
import {
  changeRequestsOfOrg,
  removeRequestedReviewerAs,
  updateFromMainAs,
  changeRequestsOfSpace,
  openChangeRequestAs,
  readChangeRequest,
  requestReviewersAs,
  reviewChangeRequestAs,
  updateChangeRequestAs,
} from '../../core/content/changeRequestWrites';
import { changeRequestPdfUrl } from '../../core/content/branchOps';
import { mayChangeRequest } from '../../core/policies/changeRequests';
import { isActive } from '../../core/content/changeRequests';
import { badRequest } from '@quire/shared/domainErrors';
import type { AppEnv } from '../env';
import { requireChangeRequest, requireOrg, requireSpace } from '../guards';
import { envelope } from '../listing';
import { baseUrl, linkBase } from '../urls';
import { presentChangeRequest, presentChangeRequests, presentRequestedReviewers, presentReviews } from '../presenters/changeRequest';
import * as r from './routes';

/** Whether the caller may change who is asked to review (the list shows it as `permissions.remove`). */
const mayAskForReviews = (role: Role, cr: ChangeRequestRow, space: SpaceRow) =>
  mayChangeRequest(role, 'askForReviews', { active: isActive(cr) }, space);

type Ctx = Context<AppEnv>;
type OrgListQuery = z.output<typeof OrgChangeRequestListQuery>;
type SpaceListQuery = z.output<typeof ChangeRequestListQuery>;

/** A review's comment as markdown: a comment body, or a bare Document as earlier clients sent it. */
function reviewComment(input: NonNullable<CreateReviewBody['comment']>): string {
  try {
    return storedBody('object' in input ? { document: input } : input);
  } catch (err) {
    if (err instanceof BodyError) throw badRequest(err.message.replace(/"body(\.document)?"/, '"comment"'));
    throw err;
  }
}

export function registerChangeRequests(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listChangeRequests, async (c) =>
    c.json(await spaceChangeRequests(c, c.req.valid('param').spaceId, c.req.valid('query')), 200),
  );

  app.openapi(r.createChangeRequest, async (c) => {
    const { space, access } = await requireSpace(c, c.req.valid('param').spaceId, 'openChangeRequest');
    const opened = await openChangeRequestAs(c.get('deps').db, space, c.get('caller').user.id, c.req.valid('json'));
    return c.json(presentChangeRequest(opened, access, baseUrl(c)), 200);
  });

  app.openapi(r.getChangeRequest, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { space, access, cr } = await requireChangeRequest(c, spaceId, changeRequestId);
    return c.json(presentChangeRequest(await readChangeRequest(c.get('deps').db, cr, space), access, baseUrl(c)), 200);
  });

  app.openapi(r.updateChangeRequest, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { space, access, cr } = await requireChangeRequest(c, spaceId, changeRequestId, 'edit');
    const updated = await updateChangeRequestAs(c.get('deps').db, cr, space, c.req.valid('json'), c.get('caller').user.id);
    return c.json(presentChangeRequest(updated, access, baseUrl(c)), 200);
  });

  app.openapi(r.mergeChangeRequest, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    return c.json(await mergeChangeRequestAs(c, spaceId, changeRequestId), 200);
  });

  app.openapi(r.updateChangeRequestFromMain, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { cr } = await requireChangeRequest(c, spaceId, changeRequestId, 'edit');
    const { revision } = await updateFromMainAs(c.get('deps').db, cr, c.get('caller').user.id);
    return c.json({ revision, result: 'update' as const }, 200);
  });

  app.openapi(r.changeRequestPdf, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const q = c.req.valid('query');
    const { cr } = await requireChangeRequest(c, spaceId, changeRequestId);
    if (q.only && !q.page) throw badRequest('Missing query parameter field "page": required when "only" is true.');
    return c.json({ url: await changeRequestPdfUrl(c.get('deps').db, linkBase(c), cr, q) }, 200);
  });

  app.openapi(r.listReviews, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { cr } = await requireChangeRequest(c, spaceId, changeRequestId);
    const q = c.req.valid('query');
    const { page, read } = await reviewsPage(c.get('deps').db, cr, q);
    const items = presentReviews(read, baseUrl(c), q.format);
    return c.json(
      envelope({ ...page, rows: items }, (x) => x),
      200,
    );
  });

  app.openapi(r.createReview, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const shown = await reviewChangeRequest(c, spaceId, changeRequestId, c.req.valid('json'));
    c.header('Location', shown.urls.location);
    return c.json(shown, 201);
  });

  app.openapi(r.getReview, async (c) => {
    const { spaceId, changeRequestId, reviewId } = c.req.valid('param');
    const { cr } = await requireChangeRequest(c, spaceId, changeRequestId);
    const [shown] = presentReviews(await reviewOf(c.get('deps').db, cr, reviewId), baseUrl(c), c.req.valid('query').format);
    return c.json(shown as NonNullable<typeof shown>, 200);
  });

  app.openapi(r.listRequestedReviewers, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { cr, role, space } = await requireChangeRequest(c, spaceId, changeRequestId);
    const { page, read } = await requestedReviewersPage(c.get('deps').db, cr, c.req.valid('query'));
    const items = presentRequestedReviewers(read, mayAskForReviews(role, cr, space), baseUrl(c));
    return c.json(
      envelope({ ...page, rows: items }, (x) => x),
      200,
    );
  });

  app.openapi(r.requestReviewers, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { space, cr } = await requireChangeRequest(c, spaceId, changeRequestId, 'askForReviews');
    const { page, read } = await requestReviewersAs(c.get('deps').db, space, cr, c.req.valid('json'), c.get('caller').user.id);
    const items = presentRequestedReviewers(read, true, baseUrl(c));
    return c.json({ ...envelope({ ...page, rows: items }, (x) => x), users: items }, 200);
  });

  app.openapi(r.getRequestedReviewer, async (c) => {
    const { spaceId, changeRequestId, userId } = c.req.valid('param');
    const { cr, role, space } = await requireChangeRequest(c, spaceId, changeRequestId);
    const read = await requestedReviewerOf(c.get('deps').db, cr, userId);
    const [item] = presentRequestedReviewers(read, mayAskForReviews(role, cr, space), baseUrl(c));
    return c.json(item as NonNullable<typeof item>, 200);
  });

  app.openapi(r.removeRequestedReviewer, async (c) => {
    const { spaceId, changeRequestId, userId } = c.req.valid('param');
    const { cr } = await requireChangeRequest(c, spaceId, changeRequestId, 'askForReviews');
    await removeRequestedReviewerAs(c.get('deps').db, cr, userId);
    return c.body(null, 204);
  });

  app.openapi(r.listOrgChangeRequests, async (c) =>
    c.json(await orgChangeRequests(c, c.req.valid('param').organizationId, c.req.valid('query')), 200),
  );
}

/** A space's change requests (`GET /v1/spaces/{id}/change-requests`). */
export async function spaceChangeRequests(c: Ctx, spaceId: string, q: SpaceListQuery) {
  const { space, access } = await requireSpace(c, spaceId);
  const { page, read } = await changeRequestsOfSpace(c.get('deps').db, space, q);
  return envelope({ ...page, rows: presentChangeRequests(read, access, baseUrl(c)) }, (x) => x);
}

/** Merges a change request as the caller (`POST .../merge`). */
export async function mergeChangeRequestAs(c: Ctx, spaceId: string, changeRequestId: string) {
  const { cr } = await requireChangeRequest(c, spaceId, changeRequestId, 'merge');
  const { revision } = await mergeChangeRequest(c.get('deps').db, cr.id, c.get('caller').user.id);
  return { revision, result: 'merge' as const };
}

/** Reviews a change request as the caller: a reviewer or someone asked to review (`POST .../reviews`). */
export async function reviewChangeRequest(c: Ctx, spaceId: string, changeRequestId: string, b: CreateReviewBody) {
  const { cr, role } = await requireChangeRequest(c, spaceId, changeRequestId);
  const markdown = b.comment && reviewComment(b.comment);
  const read = await reviewChangeRequestAs(c.get('deps').db, cr, role, c.get('caller').user.id, { status: b.status, markdown });
  const [shown] = presentReviews(read, baseUrl(c));
  return shown as NonNullable<typeof shown>;
}

/** Change requests across the spaces of an organization the caller may see (`GET /v1/orgs/{id}/change-requests`). */
export async function orgChangeRequests(c: Ctx, organizationId: string, q: OrgListQuery) {
  const { org, access } = await requireOrg(c, organizationId);
  const { page, read } = await changeRequestsOfOrg(c.get('deps').db, org, access, q);
  return envelope({ ...page, rows: presentChangeRequests(read, access, baseUrl(c)) }, (x) => x);
}
