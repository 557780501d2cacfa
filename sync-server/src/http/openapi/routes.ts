import { ErrorBodySchema, ListQuerySchema, listOf } from '@quire/shared';
import {
  CreateOpenAPISpecBody,
  OpenAPISpecSchema,
  PutOpenAPISpecBody,
  SpecSlugSchema,
  UpdateOpenAPISpecBody,
} from '@quire/shared/schemas/openapi';
import { apiRoute, body, json, noContent } from '../openapi';
import { OrgParams } from '../params';

const tags = ['OpenAPI specifications'];
const SpecParams = OrgParams.extend({ specSlug: SpecSlugSchema });
const conflict = { 409: json(ErrorBodySchema, 'The slug is already taken in the organization.') };

export const listSpecs = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/openapi',
  tags,
  summary: 'List OpenAPI specifications',
  request: { params: OrgParams, query: ListQuerySchema },
  responses: { 200: json(listOf(OpenAPISpecSchema)) },
});
export const createSpec = apiRoute({
  method: 'post',
  path: '/v1/orgs/{organizationId}/openapi',
  tags,
  summary: 'Create an OpenAPI specification',
  description: 'The source (a URL, or the document inline as `text`) is processed in the background: watch `processingState`.',
  request: { params: OrgParams, body: body(CreateOpenAPISpecBody) },
  responses: { 201: json(OpenAPISpecSchema), ...conflict },
});
export const getSpec = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
  tags,
  summary: 'Get an OpenAPI specification',
  request: { params: SpecParams },
  responses: { 200: json(OpenAPISpecSchema) },
});
export const putSpec = apiRoute({
  method: 'put',
  path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
  tags,
  summary: 'Create or replace an OpenAPI specification',
  request: { params: SpecParams, body: body(PutOpenAPISpecBody) },
  responses: { 200: json(OpenAPISpecSchema) },
});
export const deleteSpec = apiRoute({
  method: 'delete',
  path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
  tags,
  summary: 'Delete an OpenAPI specification',
  request: { params: SpecParams },
  responses: noContent,
});
export const updateSpec = apiRoute({
  method: 'patch',
  path: '/v1/orgs/{organizationId}/openapi/{specSlug}',
  tags,
  summary: 'Change who can see an OpenAPI specification',
  request: { params: SpecParams, body: body(UpdateOpenAPISpecBody) },
  responses: { 200: json(OpenAPISpecSchema) },
});
