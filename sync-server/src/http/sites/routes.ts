import { ListQuerySchema, listOf } from '@quire/shared';
import {
  CreateSiteBody,
  ListSitesQuery,
  PublishedContentSiteSchema,
  PutAdaptiveSchemaBody,
  ShareKeyQuery,
  SiteAdaptiveSchemaSchema,
  SiteSchema,
  TemplateConditionsSchema,
  UpdateSiteBody,
} from '@quire/shared/schemas/site';
import { apiRoute, body, json, noContent } from '../openapi';
import { OrgParams } from '../params';
import { SiteParams } from './params';

const tags = ['Sites'];
const SITE = '/v1/orgs/{organizationId}/sites/{siteId}';

export const listSites = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/sites',
  tags,
  summary: 'List sites',
  request: { params: OrgParams, query: ListSitesQuery },
  responses: { 200: json(listOf(SiteSchema)) },
});
export const createSite = apiRoute({
  method: 'post',
  path: '/v1/orgs/{organizationId}/sites',
  tags,
  summary: 'Create a site',
  request: { params: OrgParams, body: body(CreateSiteBody) },
  responses: { 200: json(SiteSchema, 'Site created') },
});
export const getSite = apiRoute({
  method: 'get',
  path: SITE,
  tags,
  summary: 'Get a site',
  request: { params: SiteParams },
  responses: { 200: json(SiteSchema) },
});
export const deleteSite = apiRoute({
  method: 'delete',
  path: SITE,
  tags,
  summary: 'Delete a site (it stops being published)',
  request: { params: SiteParams },
  responses: noContent,
});
export const updateSite = apiRoute({
  method: 'patch',
  path: SITE,
  tags,
  summary: 'Update a site',
  request: { params: SiteParams, body: body(UpdateSiteBody) },
  responses: { 200: json(SiteSchema) },
});
export const getAdaptiveSchema = apiRoute({
  method: 'get',
  path: `${SITE}/adaptive-schema`,
  tags,
  summary: 'Get the visitor schema of a site',
  request: { params: SiteParams },
  responses: { 200: json(SiteAdaptiveSchemaSchema) },
});
export const putAdaptiveSchema = apiRoute({
  method: 'put',
  path: `${SITE}/adaptive-schema`,
  tags,
  summary: 'Set the visitor schema of a site',
  request: { params: SiteParams, body: body(PutAdaptiveSchemaBody) },
  responses: { 200: json(SiteAdaptiveSchemaSchema) },
});
export const getTemplateConditions = apiRoute({
  method: 'get',
  path: `${SITE}/adaptive-schema/template-conditions`,
  tags,
  summary: 'Conditions built from the visitor schema',
  request: { params: SiteParams, query: ListQuerySchema },
  responses: { 200: json(TemplateConditionsSchema) },
});
export const getPublishedSite = apiRoute({
  method: 'get',
  path: `${SITE}/published`,
  tags,
  summary: 'The published content of a site',
  request: { params: SiteParams, query: ShareKeyQuery },
  responses: { 200: json(PublishedContentSiteSchema) },
});
export const publishSite = apiRoute({
  method: 'post',
  path: `${SITE}/publish`,
  tags,
  summary: 'Publish a site',
  request: { params: SiteParams },
  responses: { 200: json(SiteSchema) },
});
