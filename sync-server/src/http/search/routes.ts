import { OrgSearchListSchema, SearchQuery, SpaceSearchListSchema } from '@quire/shared/schemas/search';
import { apiRoute, json } from '../openapi';
import { OrgParams, SpaceParams } from '../params';

export const searchSpace = apiRoute({
  method: 'get',
  path: '/v1/spaces/{spaceId}/search',
  tags: ['Space content'],
  summary: 'Search the pages of a space',
  request: { params: SpaceParams, query: SearchQuery },
  responses: { 200: json(SpaceSearchListSchema) },
});

export const searchOrganization = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/search',
  tags: ['Organizations'],
  summary: 'Search the spaces of an organization the caller sees',
  request: { params: OrgParams, query: SearchQuery },
  responses: { 200: json(OrgSearchListSchema) },
});
