import { ErrorBodySchema, IdSchema, ListQuerySchema, listOf } from '@quire/shared';
import {
  ChangeRequestListQuery,
  ChangeRequestPdfQuery,
  ChangeRequestReviewSchema,
  ChangeRequestSchema,
  CreateChangeRequestBody,
  CreateReviewBody,
  ListReviewsQuery,
  MergeResultSchema,
  OrgChangeRequestListQuery,
  PdfUrlSchema,
  RequestReviewersBody,
  RequestReviewersResultSchema,
  RequestedReviewerSchema,
  ReviewQuery,
  UpdateChangeRequestBody,
  UpdateResultSchema,
} from '@quire/shared/schemas/changeRequest';
import { apiRoute, body, json, noContent } from '../openapi';
import { OrgParams, SpaceParams } from '../params';

const tags = ['Change requests'];

/** `changeRequestId` is the id or the number of the change request within the space. */
export const ChangeRequestParams = SpaceParams.extend({ changeRequestId: IdSchema });
const ReviewerParams = ChangeRequestParams.extend({ userId: IdSchema });
const ReviewParams = ChangeRequestParams.extend({ reviewId: IdSchema });

const CR = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}';

export const listChangeRequests = apiRoute({
  method: 'get',
  path: '/v1/spaces/{spaceId}/change-requests',
  tags,
  summary: 'List the change requests of a space',
  request: { params: SpaceParams, query: ChangeRequestListQuery },
  responses: { 200: json(listOf(ChangeRequestSchema)) },
});
export const createChangeRequest = apiRoute({
  method: 'post',
  path: '/v1/spaces/{spaceId}/change-requests',
  tags,
  summary: 'Open a change request (a branch of the main content)',
  request: { params: SpaceParams, body: body(CreateChangeRequestBody) },
  responses: { 200: json(ChangeRequestSchema) },
});
export const getChangeRequest = apiRoute({
  method: 'get',
  path: CR,
  tags,
  summary: 'Get a change request',
  request: { params: ChangeRequestParams },
  responses: { 200: json(ChangeRequestSchema) },
});
export const updateChangeRequest = apiRoute({
  method: 'patch',
  path: CR,
  tags,
  summary: 'Update the subject, description or status of a change request',
  request: { params: ChangeRequestParams, body: body(UpdateChangeRequestBody) },
  responses: { 200: json(ChangeRequestSchema) },
});
export const mergeChangeRequest = apiRoute({
  method: 'post',
  path: `${CR}/merge`,
  tags,
  summary: 'Merge a change request into the main content',
  request: { params: ChangeRequestParams },
  responses: { 200: json(MergeResultSchema), 409: json(ErrorBodySchema, 'Already merged, archived, locked space, or merge rules not met') },
});
export const updateChangeRequestFromMain = apiRoute({
  method: 'post',
  path: `${CR}/update`,
  tags,
  summary: 'Take the main content changes into a change request',
  request: { params: ChangeRequestParams },
  responses: { 200: json(UpdateResultSchema), 409: json(ErrorBodySchema, 'Merged or archived') },
});
export const changeRequestPdf = apiRoute({
  method: 'get',
  path: `${CR}/pdf`,
  tags,
  summary: 'A URL serving the change request content (or one page) as PDF',
  request: { params: ChangeRequestParams, query: ChangeRequestPdfQuery },
  responses: { 200: json(PdfUrlSchema) },
});
export const listReviews = apiRoute({
  method: 'get',
  path: `${CR}/reviews`,
  tags,
  summary: 'Reviews of a change request',
  request: { params: ChangeRequestParams, query: ListReviewsQuery },
  responses: { 200: json(listOf(ChangeRequestReviewSchema)) },
});
export const createReview = apiRoute({
  method: 'post',
  path: `${CR}/reviews`,
  tags,
  summary: 'Approve a change request or request changes',
  request: { params: ChangeRequestParams, body: body(CreateReviewBody) },
  responses: { 201: json(ChangeRequestReviewSchema) },
});
export const getReview = apiRoute({
  method: 'get',
  path: `${CR}/reviews/{reviewId}`,
  tags,
  summary: 'A review of a change request',
  request: { params: ReviewParams, query: ReviewQuery },
  responses: { 200: json(ChangeRequestReviewSchema) },
});
export const listRequestedReviewers = apiRoute({
  method: 'get',
  path: `${CR}/requested-reviewers`,
  tags,
  summary: 'Reviewers requested on a change request',
  request: { params: ChangeRequestParams, query: ListQuerySchema },
  responses: { 200: json(listOf(RequestedReviewerSchema)) },
});
export const requestReviewers = apiRoute({
  method: 'post',
  path: `${CR}/requested-reviewers`,
  tags,
  summary: 'Request reviews from users',
  description: 'Answers every requested reviewer of the change request, under `items` and under `users`.',
  request: { params: ChangeRequestParams, body: body(RequestReviewersBody) },
  responses: { 200: json(RequestReviewersResultSchema) },
});
/** Where a requested reviewer's `urls.location` points. */
export const getRequestedReviewer = apiRoute({
  method: 'get',
  path: `${CR}/requested-reviewers/{userId}`,
  tags,
  summary: 'A reviewer requested on a change request',
  request: { params: ReviewerParams },
  responses: { 200: json(RequestedReviewerSchema) },
});
export const removeRequestedReviewer = apiRoute({
  method: 'delete',
  path: `${CR}/requested-reviewers/{userId}`,
  tags,
  summary: 'Withdraw a review request',
  request: { params: ReviewerParams },
  responses: noContent,
});
export const listOrgChangeRequests = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/change-requests',
  tags: ['Organizations'],
  summary: 'Change requests of every space the caller sees',
  request: { params: OrgParams, query: OrgChangeRequestListQuery },
  responses: { 200: json(listOf(ChangeRequestSchema)) },
});
