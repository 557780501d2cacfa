import { IdSchema, ListQuerySchema, listOf } from '@quire/shared';
import { CreateSamlProviderBody, SamlProviderSchema, SsoListSchema, UpdateSamlProviderBody } from '@quire/shared/schemas/saml';
import { apiRoute, body, json, noContent } from '../openapi';
import { OrgParams } from '../params';

const tags = ['SSO'];
const ProviderParams = OrgParams.extend({ samlProviderId: IdSchema });

export const listProviders = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/saml',
  tags,
  summary: 'List SAML identity providers',
  request: { params: OrgParams, query: ListQuerySchema },
  responses: { 200: json(listOf(SamlProviderSchema)) },
});
export const createProvider = apiRoute({
  method: 'post',
  path: '/v1/orgs/{organizationId}/saml',
  tags,
  summary: 'Add a SAML identity provider',
  request: { params: OrgParams, body: body(CreateSamlProviderBody) },
  responses: { 200: json(SamlProviderSchema) },
});
export const getProvider = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/saml/{samlProviderId}',
  tags,
  summary: 'Get a SAML identity provider',
  request: { params: ProviderParams },
  responses: { 200: json(SamlProviderSchema) },
});
export const deleteProvider = apiRoute({
  method: 'delete',
  path: '/v1/orgs/{organizationId}/saml/{samlProviderId}',
  tags,
  summary: 'Remove a SAML identity provider',
  request: { params: ProviderParams },
  responses: noContent,
});
export const updateProvider = apiRoute({
  method: 'patch',
  path: '/v1/orgs/{organizationId}/saml/{samlProviderId}',
  tags,
  summary: 'Update a SAML identity provider',
  request: { params: ProviderParams, body: body(UpdateSamlProviderBody) },
  responses: { 200: json(SamlProviderSchema) },
});
export const listSso = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/sso',
  tags,
  summary: 'Where members of the organization start signing in',
  request: { params: OrgParams, query: ListQuerySchema },
  responses: { 200: json(SsoListSchema) },
});
