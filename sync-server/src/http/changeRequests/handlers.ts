import type { OpenAPIHono } from '@hono/zod-openapi';
import { newId } from '@quire/shared';
import type { z } from 'zod';
import type {
  ChangeRequestListQuery,
  CreateChangeRequestBody,
  CreateReviewBody,
  OrgChangeRequestListQuery,
} from '@quire/shared/schemas/changeRequest';
import type { Context } from 'hono';
import { BodyError, storedBody } from '../../core/comments/bodies';
import type { Branch } from '../../core/content/branches';
import { templatePages, writeTemplate } from '../../core/content/templates';
import type { DbHandle } from '../../core/deps';
import {
  crBranch,
  isActive,
  mergeChangeRequest,
  openChangeRequest,
  recordChangeRequestEvent,
  updateFromMain,
} from '../../core/content/changeRequests';
import { signedPdfUrl } from '../../core/content/exports';
import { contentAtRevision } from '../../core/content/revisions';
import { branchHead } from '../../core/content/revisions';
import { atLeast } from '../../core/roles';
import * as store from '../../store/changeRequests';
import { getMembership } from '../../store/members';
import { getSpace } from '../../store/spaces';
import type { SpaceRow } from '../../store/spaces';
import { orgSpaces } from '../../store/search';
import { badRequest, conflict, forbidden, notFound } from '@quire/shared/apiErrors';
import type { AppEnv } from '../env';
import { requireChangeRequest, requireOrg, requireSpace } from '../guards';
import { envelope } from '../listing';
import { guestVisibleSpaceIds } from '../organizations/handlers';
import { baseUrl } from '../urls';
import { presentChangeRequest, presentChangeRequests, presentRequestedReviewers, presentReviews } from '../presenters/changeRequest';
import * as r from './routes';

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
    const { db } = c.get('deps');
    const { space, access } = await requireSpace(c, c.req.valid('param').spaceId, 'edit');
    const cr = await openChangeRequestAs(c, space, c.req.valid('json'));
    const fresh = (await getSpace(db, space.id)) ?? space;
    return c.json(await presentChangeRequest(db, cr, fresh, access, baseUrl(c)), 200);
  });

  app.openapi(r.getChangeRequest, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { space, access, cr } = await requireChangeRequest(c, spaceId, changeRequestId);
    return c.json(await presentChangeRequest(c.get('deps').db, cr, space, access, baseUrl(c)), 200);
  });

  app.openapi(r.updateChangeRequest, async (c) => {
    const { db } = c.get('deps');
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { space, access, cr } = await requireChangeRequest(c, spaceId, changeRequestId, 'edit');
    const b = c.req.valid('json');
    const updated = await db.transaction(async (tx) => {
      const locked = await store.lockChangeRequest(tx, cr.id);
      if (!locked) throw notFound('change request');
      if (b.status && locked.status === 'merged') throw conflict('The change request is merged: its status cannot change any more.');
      const after = await store.updateChangeRequest(tx, cr.id, b);
      const closed = after.status === 'archived' && locked.status !== 'archived';
      await recordChangeRequestEvent(tx, closed ? 'change_request.closed' : 'change_request.updated', after, after.revision_id, {
        changes: Object.keys(b),
        updatedBy: c.get('caller').user.id,
      });
      return after;
    });
    return c.json(await presentChangeRequest(db, updated, space, access, baseUrl(c)), 200);
  });

  app.openapi(r.mergeChangeRequest, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    return c.json(await mergeChangeRequestAs(c, spaceId, changeRequestId), 200);
  });

  app.openapi(r.updateChangeRequestFromMain, async (c) => {
    const { db } = c.get('deps');
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { cr } = await requireChangeRequest(c, spaceId, changeRequestId, 'edit');
    const { revision } = await updateFromMain(db, cr.id, c.get('caller').user.id);
    await store.addContributor(db, cr.id, c.get('caller').user.id);
    return c.json({ revision, result: 'update' as const }, 200);
  });

  app.openapi(r.changeRequestPdf, async (c) => {
    const { db } = c.get('deps');
    const { spaceId, changeRequestId } = c.req.valid('param');
    const q = c.req.valid('query');
    const { cr } = await requireChangeRequest(c, spaceId, changeRequestId);
    if (q.only && !q.page) throw badRequest('Missing query parameter field "page": required when "only" is true.');
    const head = await db.transaction((tx) => branchHead(tx, crBranch(cr)));
    if (!head) throw notFound('change request');
    if (q.page && !(await contentAtRevision(db, head.id)).pages[q.page]) throw notFound('page');
    const url = await signedPdfUrl(db, baseUrl(c), {
      spaceId: cr.space_id,
      changeRequestId: cr.id,
      revisionId: head.id,
      page: q.page,
      only: !!q.only,
    });
    return c.json({ url }, 200);
  });

  app.openapi(r.listReviews, async (c) => {
    const { db } = c.get('deps');
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { cr } = await requireChangeRequest(c, spaceId, changeRequestId);
    const q = c.req.valid('query');
    const page = await store.listReviews(db, cr.id, { outdated: q.outdated, currentRevision: cr.revision_id }, q);
    const items = await presentReviews(db, page.rows, cr, baseUrl(c), q.format);
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
    const { db } = c.get('deps');
    const { spaceId, changeRequestId, reviewId } = c.req.valid('param');
    const { cr } = await requireChangeRequest(c, spaceId, changeRequestId);
    const review = await store.getReview(db, cr.id, reviewId);
    if (!review) throw notFound('review');
    const [shown] = await presentReviews(db, [review], cr, baseUrl(c), c.req.valid('query').format);
    return c.json(shown as NonNullable<typeof shown>, 200);
  });

  app.openapi(r.listRequestedReviewers, async (c) => {
    const { db } = c.get('deps');
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { cr, role } = await requireChangeRequest(c, spaceId, changeRequestId);
    const page = await store.listRequestedReviewers(db, cr.id, c.req.valid('query'));
    const latest = new Map((await store.latestReviews(db, cr.id)).map((rv) => [rv.reviewer_id, rv]));
    const items = await presentRequestedReviewers(db, page.rows, cr, latest, atLeast(role, 'edit'), baseUrl(c));
    return c.json(
      envelope({ ...page, rows: items }, (x) => x),
      200,
    );
  });

  app.openapi(r.requestReviewers, async (c) => {
    const { db } = c.get('deps');
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { space, cr } = await requireChangeRequest(c, spaceId, changeRequestId, 'edit');
    const { users, subject, description } = c.req.valid('json');
    // Reviewers are members of the space's organization; anyone else is unknown here.
    for (const u of users) {
      const m = await getMembership(db, space.org_id, u);
      if (!m || m.disabled) throw notFound('user');
    }
    // The public client may rename and describe the change request in the same call.
    const renames = subject !== undefined || description !== undefined;
    const current = await db.transaction(async (tx) => {
      // The row lock first, as every writer of the change request takes it.
      if (renames && !(await store.lockChangeRequest(tx, cr.id))) throw notFound('change request');
      await store.addRequestedReviewers(tx, cr.id, users, c.get('caller').user.id);
      return renames ? store.updateChangeRequest(tx, cr.id, { subject, description }) : cr;
    });
    const page = await store.listRequestedReviewers(db, cr.id, { limit: 1000 });
    const latest = new Map((await store.latestReviews(db, cr.id)).map((rv) => [rv.reviewer_id, rv]));
    const items = await presentRequestedReviewers(db, page.rows, current, latest, true, baseUrl(c));
    return c.json({ ...envelope({ ...page, rows: items }, (x) => x), users: items }, 200);
  });

  app.openapi(r.getRequestedReviewer, async (c) => {
    const { db } = c.get('deps');
    const { spaceId, changeRequestId, userId } = c.req.valid('param');
    const { cr, role } = await requireChangeRequest(c, spaceId, changeRequestId);
    const row = await store.getRequestedReviewer(db, cr.id, userId);
    if (!row) throw notFound('requested reviewer');
    const latest = new Map((await store.latestReviews(db, cr.id)).map((rv) => [rv.reviewer_id, rv]));
    const [item] = await presentRequestedReviewers(db, [row], cr, latest, atLeast(role, 'edit'), baseUrl(c));
    return c.json(item as NonNullable<typeof item>, 200);
  });

  app.openapi(r.removeRequestedReviewer, async (c) => {
    const { db } = c.get('deps');
    const { spaceId, changeRequestId, userId } = c.req.valid('param');
    const { cr } = await requireChangeRequest(c, spaceId, changeRequestId, 'edit');
    await store.removeRequestedReviewer(db, cr.id, userId);
    return c.body(null, 204);
  });

  app.openapi(r.listOrgChangeRequests, async (c) =>
    c.json(await orgChangeRequests(c, c.req.valid('param').organizationId, c.req.valid('query')), 200),
  );
}

/** A space's change requests (`GET /v1/spaces/{id}/change-requests`). */
export async function spaceChangeRequests(c: Ctx, spaceId: string, q: SpaceListQuery) {
  const { db } = c.get('deps');
  const { space, access } = await requireSpace(c, spaceId);
  const page = await store.listChangeRequests(db, { ...q, spaceIds: [space.id], none: !!q.topic }, q);
  const items = await presentChangeRequests(db, page.rows, new Map([[space.id, space]]), access, baseUrl(c));
  return envelope({ ...page, rows: items }, (x) => x);
}

/** Opens a change request on a space the caller may edit (checked by the caller of this function). */
export async function openChangeRequestAs(c: Ctx, space: SpaceRow, body: z.output<typeof CreateChangeRequestBody>) {
  const { db } = c.get('deps');
  const { template, ...fields } = body;
  const me = c.get('caller').user.id;
  // Checked before anything is opened: a bad template opens no change request.
  const pages = template && (await templatePages(db, space.org_id, template.id, template.params?.contentRefs ?? {}, 'template.'));
  const fill = pages ? (tx: DbHandle, branch: Branch) => writeTemplate(tx, branch, pages, me) : undefined;
  const cr = await openChangeRequest(db, space.id, me, fields, fill);
  if (pages) await store.addContributor(db, cr.id, me);
  return cr;
}

/** Merges a change request as the caller, who needs the review role (`POST .../merge`). */
export async function mergeChangeRequestAs(c: Ctx, spaceId: string, changeRequestId: string) {
  const { cr } = await requireChangeRequest(c, spaceId, changeRequestId, 'review');
  const { revision } = await mergeChangeRequest(c.get('deps').db, cr.id, c.get('caller').user.id);
  return { revision, result: 'merge' as const };
}

/** Reviews a change request as the caller: a reviewer or someone asked to review (`POST .../reviews`). */
export async function reviewChangeRequest(c: Ctx, spaceId: string, changeRequestId: string, b: CreateReviewBody) {
  const { db } = c.get('deps');
  const { cr, role } = await requireChangeRequest(c, spaceId, changeRequestId);
  const me = c.get('caller').user.id;
  const requested = await store.isRequestedReviewer(db, cr.id, me);
  if (!requested && !atLeast(role, 'review')) throw forbidden('This needs the review role on the space, or a review request.');
  if (!isActive(cr)) throw conflict(`The change request is ${cr.status}: it cannot be reviewed any more.`);
  const review = await db.transaction(async (tx) => {
    const head = await branchHead(tx, crBranch(cr));
    if (!head) throw notFound('change request');
    return store.insertReview(tx, {
      id: newId(),
      changeRequestId: cr.id,
      reviewerId: me,
      status: b.status,
      revisionId: head.id,
      comment: b.comment && { markdown: reviewComment(b.comment) },
    });
  });
  const fresh = (await store.getChangeRequest(db, cr.id)) ?? cr;
  const [shown] = await presentReviews(db, [review], fresh, baseUrl(c));
  return shown as NonNullable<typeof shown>;
}

/** Change requests across the spaces of an organization the caller may see (`GET /v1/orgs/{id}/change-requests`). */
export async function orgChangeRequests(c: Ctx, organizationId: string, q: OrgListQuery) {
  const { db } = c.get('deps');
  const { org, access } = await requireOrg(c, organizationId);
  const visible = await orgSpaces(db, org.id);
  const guestIds = access.orgRole === null ? new Set(await guestVisibleSpaceIds(c, org.id)) : undefined;
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
  const items = await presentChangeRequests(db, page.rows, new Map(spaces.map((s) => [s.id, s])), access, baseUrl(c));
  return envelope({ ...page, rows: items }, (x) => x);
}
