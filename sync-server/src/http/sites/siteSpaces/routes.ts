import { listOf } from '@quire/shared';
import {
  CreateSiteSpaceBody,
  ListSiteSpacesQuery,
  MoveSiteSpaceBody,
  SiteSpaceSchema,
  UpdateSiteSpaceBody,
} from '@quire/shared/schemas/siteStructure';
import { apiRoute, body, json, noContent } from '../../openapi';
import { SiteParams, SiteSpaceParams } from '../params';

const tags = ['Site spaces'];
const BASE = '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces';

export const listSiteSpaces = apiRoute({
  method: 'get',
  path: BASE,
  tags,
  summary: 'List the site spaces (variants) of a site',
  request: { params: SiteParams, query: ListSiteSpacesQuery },
  responses: { 200: json(listOf(SiteSpaceSchema)) },
});
export const createSiteSpace = apiRoute({
  method: 'post',
  path: BASE,
  tags,
  summary: 'Publish a space in a site',
  request: { params: SiteParams, body: body(CreateSiteSpaceBody) },
  responses: { 200: json(SiteSpaceSchema) },
});
export const deleteSiteSpace = apiRoute({
  method: 'delete',
  path: `${BASE}/{siteSpaceId}`,
  tags,
  summary: 'Remove a site space',
  request: { params: SiteSpaceParams },
  responses: noContent,
});
export const updateSiteSpace = apiRoute({
  method: 'patch',
  path: `${BASE}/{siteSpaceId}`,
  tags,
  summary: 'Update a site space',
  request: { params: SiteSpaceParams, body: body(UpdateSiteSpaceBody) },
  responses: { 200: json(SiteSpaceSchema) },
});
export const moveSiteSpace = apiRoute({
  method: 'post',
  path: `${BASE}/{siteSpaceId}/move`,
  tags,
  summary: 'Move a site space among its siblings',
  request: { params: SiteSpaceParams, body: body(MoveSiteSpaceBody) },
  responses: { 200: json(SiteSpaceSchema) },
});
