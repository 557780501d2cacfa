import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Role } from '@quire/shared';
import type { ChangeRequestRow } from '../../store/changeRequests';
import type { SpaceRow } from '../../store/spaces';
import { requestedReviewerOf, requestedReviewersPage, reviewOf, reviewsPage } from '../../core/content/changeRequestViews';
import {
  removeRequestedReviewerAs,
  updateFromMainAs,
  openChangeRequestAs,
  readChangeRequest,
  requestReviewersAs,
  updateChangeRequestAs,
} from '../../core/content/changeRequestWrites';
import { changeRequestPdfUrl } from '../../core/content/branchOps';
import { mayChangeRequest } from '../../core/policies/changeRequests';
import { isActive } from '../../core/content/changeRequests';
import { badRequest } from '@quire/shared/domainErrors';
import type { AppEnv } from '../env';
import { requireChangeRequest, requireSpace } from '../guards';
import { envelope } from '../../core/views/listing';
import { baseUrl, linkBase } from '../urls';
import { presentChangeRequest, presentRequestedReviewers, presentReviews } from '../../core/views/changeRequest';
import * as r from './routes';
import { mergeChangeRequest, reviewChangeRequest } from '../../core/changeRequests/commands';
import { listOrganizationChangeRequests, listSpaceChangeRequests } from '../../core/changeRequests/queries';
import { commandContext } from '../../web/commandContext';

/** Whether the caller may change who is asked to review (the list shows it as `permissions.remove`). */
const mayAskForReviews = (role: Role, cr: ChangeRequestRow, space: SpaceRow) =>
  mayChangeRequest(role, 'askForReviews', { active: isActive(cr) }, space);

export function registerChangeRequests(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listChangeRequests, async (c) =>
    c.json(await listSpaceChangeRequests(commandContext(c), { ...c.req.valid('param'), ...c.req.valid('query') }), 200),
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
    return c.json(await mergeChangeRequest(commandContext(c), { spaceId, changeRequestId }), 200);
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
    const shown = await reviewChangeRequest(commandContext(c), { spaceId, changeRequestId, ...c.req.valid('json') });
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
    c.json(await listOrganizationChangeRequests(commandContext(c), { ...c.req.valid('param'), ...c.req.valid('query') }), 200),
  );
}
