import { ListQuerySchema, listOf } from '@quire/shared';
import {
  AddSectionToGroupBody,
  CreateSectionGroupBody,
  MoveSectionGroupBody,
  SiteSectionGroupSchema,
  UpdateSectionGroupBody,
} from '@quire/shared/schemas/siteStructure';
import { apiRoute, body, json, noContent } from '../../openapi';
import { SectionGroupParams, SectionGroupSectionParams, SiteParams } from '../params';

const tags = ['Site section groups'];
const BASE = '/v1/orgs/{organizationId}/sites/{siteId}/section-groups';

export const listSectionGroups = apiRoute({
  method: 'get',
  path: BASE,
  tags,
  summary: 'List the section groups of a site',
  request: { params: SiteParams, query: ListQuerySchema },
  responses: { 200: json(listOf(SiteSectionGroupSchema)) },
});
export const createSectionGroup = apiRoute({
  method: 'post',
  path: BASE,
  tags,
  summary: 'Create a section group',
  request: { params: SiteParams, body: body(CreateSectionGroupBody) },
  responses: { 200: json(SiteSectionGroupSchema) },
});
/** Where a group's `urls.location` points. */
export const getSectionGroup = apiRoute({
  method: 'get',
  path: `${BASE}/{siteSectionGroupId}`,
  tags,
  summary: 'A section group, with its sections and nested groups',
  request: { params: SectionGroupParams },
  responses: { 200: json(SiteSectionGroupSchema) },
});
export const deleteSectionGroup = apiRoute({
  method: 'delete',
  path: `${BASE}/{siteSectionGroupId}`,
  tags,
  summary: 'Remove a section group (its sections move up)',
  request: { params: SectionGroupParams },
  responses: noContent,
});
export const updateSectionGroup = apiRoute({
  method: 'patch',
  path: `${BASE}/{siteSectionGroupId}`,
  tags,
  summary: 'Update a section group',
  request: { params: SectionGroupParams, body: body(UpdateSectionGroupBody) },
  responses: { 200: json(SiteSectionGroupSchema) },
});
export const addSectionToGroup = apiRoute({
  method: 'post',
  path: `${BASE}/{siteSectionGroupId}/sections`,
  tags,
  summary: 'Put a section in a group',
  request: { params: SectionGroupParams, body: body(AddSectionToGroupBody) },
  responses: { 200: json(SiteSectionGroupSchema) },
});
export const removeSectionFromGroup = apiRoute({
  method: 'delete',
  path: `${BASE}/{siteSectionGroupId}/sections/{siteSectionId}`,
  tags,
  summary: 'Take a section out of a group',
  request: { params: SectionGroupSectionParams },
  responses: noContent,
});
export const moveSectionGroup = apiRoute({
  method: 'post',
  path: `${BASE}/{siteSectionGroupId}/move`,
  tags,
  summary: 'Move a section group among its siblings',
  request: { params: SectionGroupParams, body: body(MoveSectionGroupBody) },
  responses: { 200: json(SiteSectionGroupSchema) },
});
