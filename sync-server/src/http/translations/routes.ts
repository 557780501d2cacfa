import { IdSchema, ListQuerySchema, listOf } from '@quire/shared';
import { CreateTranslationBody, TranslationSchema, UpdateTranslationBody } from '@quire/shared/schemas/translation';
import { apiRoute, body, json, noContent } from '../openapi';
import { OrgParams } from '../params';

const tags = ['Translations'];
const TranslationParams = OrgParams.extend({ translationId: IdSchema });

export const listTranslations = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/translations',
  tags,
  summary: 'List translations',
  request: { params: OrgParams, query: ListQuerySchema },
  responses: { 200: json(listOf(TranslationSchema)) },
});
export const createTranslation = apiRoute({
  method: 'post',
  path: '/v1/orgs/{organizationId}/translations',
  tags,
  summary: 'Create a translation of a space',
  description: 'Nothing is translated until a run: POST `.../run`.',
  request: { params: OrgParams, body: body(CreateTranslationBody) },
  responses: { 200: json(TranslationSchema) },
});
export const getTranslation = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/translations/{translationId}',
  tags,
  summary: 'Get a translation',
  request: { params: TranslationParams },
  responses: { 200: json(TranslationSchema) },
});
export const updateTranslation = apiRoute({
  method: 'put',
  path: '/v1/orgs/{organizationId}/translations/{translationId}',
  tags,
  summary: "Change a translation's instructions",
  request: { params: TranslationParams, body: body(UpdateTranslationBody) },
  responses: { 200: json(TranslationSchema) },
});
export const deleteTranslation = apiRoute({
  method: 'delete',
  path: '/v1/orgs/{organizationId}/translations/{translationId}',
  tags,
  summary: 'Delete a translation (its result space stays)',
  request: { params: TranslationParams },
  responses: noContent,
});
export const runTranslation = apiRoute({
  method: 'post',
  path: '/v1/orgs/{organizationId}/translations/{translationId}/run',
  tags,
  summary: 'Run a translation',
  description: 'Starts a run in the background; watch `status`, `error` and `stats`.',
  request: { params: TranslationParams },
  responses: { 204: { description: 'A run is triggered' } },
});
