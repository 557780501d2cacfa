import { listOf } from '@quire/shared';
import {
  CreateRedirectBody,
  ListRedirectsQuery,
  ResolvedRedirectSchema,
  ResolveRedirectQuery,
  SiteRedirectSchema,
  UpdateRedirectBody,
} from '@quire/shared/schemas/siteRedirect';
import { apiRoute, body, json, noContent } from '../../openapi';
import { RedirectParams, SiteParams } from '../params';

const tags = ['Site redirects'];
const SITE = '/v1/orgs/{organizationId}/sites/{siteId}';

export const listRedirects = apiRoute({
  method: 'get',
  path: `${SITE}/redirects`,
  tags,
  summary: 'List the redirects of a site',
  request: { params: SiteParams, query: ListRedirectsQuery },
  responses: { 200: json(listOf(SiteRedirectSchema)) },
});
export const createRedirect = apiRoute({
  method: 'post',
  path: `${SITE}/redirects`,
  tags,
  summary: 'Create a redirect',
  request: { params: SiteParams, body: body(CreateRedirectBody) },
  responses: { 200: json(SiteRedirectSchema) },
});
/** Where a redirect's `urls.location` points. */
export const getRedirect = apiRoute({
  method: 'get',
  path: `${SITE}/redirects/{siteRedirectId}`,
  tags,
  summary: 'A redirect of a site',
  request: { params: RedirectParams },
  responses: { 200: json(SiteRedirectSchema) },
});
export const deleteRedirect = apiRoute({
  method: 'delete',
  path: `${SITE}/redirects/{siteRedirectId}`,
  tags,
  summary: 'Delete a redirect',
  request: { params: RedirectParams },
  responses: noContent,
});
export const updateRedirect = apiRoute({
  method: 'patch',
  path: `${SITE}/redirects/{siteRedirectId}`,
  tags,
  summary: 'Update a redirect',
  request: { params: RedirectParams, body: body(UpdateRedirectBody) },
  responses: { 200: json(SiteRedirectSchema) },
});
export const resolveRedirect = apiRoute({
  method: 'get',
  path: `${SITE}/redirect`,
  tags,
  summary: 'Resolve a path through the redirects of a site',
  request: { params: SiteParams, query: ResolveRedirectQuery },
  responses: { 200: json(ResolvedRedirectSchema) },
});
