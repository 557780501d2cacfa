import { listOf } from '@quire/shared';
import {
  CreateSectionBody,
  ListSectionsQuery,
  MoveSectionBody,
  SiteSectionSchema,
  UpdateSectionBody,
} from '@quire/shared/schemas/siteStructure';
import { apiRoute, body, json, noContent } from '../../openapi';
import { SectionParams, SiteParams } from '../params';

const tags = ['Site sections'];
const BASE = '/v1/orgs/{organizationId}/sites/{siteId}/sections';

export const listSections = apiRoute({
  method: 'get',
  path: BASE,
  tags,
  summary: 'List the sections of a site',
  request: { params: SiteParams, query: ListSectionsQuery },
  responses: { 200: json(listOf(SiteSectionSchema)) },
});
export const createSection = apiRoute({
  method: 'post',
  path: BASE,
  tags,
  summary: 'Add a section holding a space',
  request: { params: SiteParams, body: body(CreateSectionBody) },
  responses: { 200: json(SiteSectionSchema) },
});
export const deleteSection = apiRoute({
  method: 'delete',
  path: `${BASE}/{siteSectionId}`,
  tags,
  summary: 'Remove a section',
  request: { params: SectionParams },
  responses: noContent,
});
export const updateSection = apiRoute({
  method: 'patch',
  path: `${BASE}/{siteSectionId}`,
  tags,
  summary: 'Update a section',
  request: { params: SectionParams, body: body(UpdateSectionBody) },
  responses: { 200: json(SiteSectionSchema) },
});
export const moveSection = apiRoute({
  method: 'post',
  path: `${BASE}/{siteSectionId}/move`,
  tags,
  summary: 'Move a section among its siblings',
  request: { params: SectionParams, body: body(MoveSectionBody) },
  responses: { 200: json(SiteSectionSchema) },
});
