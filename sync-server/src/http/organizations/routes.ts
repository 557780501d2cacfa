import {
  AgentInstructionsSchema,
  CollectionSchema,
  CreateCollectionBody,
  CreateOrganizationBody,
  CreateOrganizationQuery,
  IdSchema,
  InviteBody,
  InviteResult,
  ListCollectionsQuery,
  ListQuerySchema,
  OrganizationSchema,
  PingResponse,
  SpaceSchema,
  UpdateAgentInstructionsBody,
  UpdateOrganizationBody,
  listOf,
} from '@quire/shared';
import { CreateSpaceBody } from '@quire/shared/schemas/spaceCreate';
import { z } from 'zod';
import { apiRoute, body, json, noContent } from '../openapi';
import { OrgParams } from '../params';

const tags = ['Organizations'];

export const listOrganizations = apiRoute({
  method: 'get',
  path: '/v1/orgs',
  tags,
  summary: 'Organizations of the caller',
  request: { query: ListQuerySchema },
  responses: { 200: json(listOf(OrganizationSchema)) },
});
export const createOrganization = apiRoute({
  method: 'post',
  path: '/v1/orgs',
  tags,
  summary: 'Create an organization; the caller becomes its admin',
  request: { query: CreateOrganizationQuery, body: body(CreateOrganizationBody) },
  responses: { 201: json(OrganizationSchema) },
});
export const getOrganization = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}',
  tags,
  summary: 'Get an organization',
  request: { params: OrgParams },
  responses: { 200: json(OrganizationSchema) },
});
export const updateOrganization = apiRoute({
  method: 'patch',
  path: '/v1/orgs/{organizationId}',
  tags,
  summary: 'Update an organization',
  request: { params: OrgParams, body: body(UpdateOrganizationBody) },
  responses: { 200: json(OrganizationSchema) },
});
export const deleteLinkInvite = apiRoute({
  method: 'delete',
  path: '/v1/orgs/{organizationId}/link-invites/{inviteId}',
  tags,
  summary: 'Delete an invite link',
  request: { params: OrgParams.extend({ inviteId: IdSchema }) },
  responses: noContent,
});
export const joinOrganization = apiRoute({
  method: 'post',
  path: '/v1/orgs/{organizationId}/join',
  tags,
  summary: 'Join an organization through its email domain',
  request: { params: OrgParams },
  responses: noContent,
});
export const inviteMembers = apiRoute({
  method: 'post',
  path: '/v1/orgs/{organizationId}/invites',
  tags,
  summary: 'Add members by email with a role',
  request: { params: OrgParams, body: body(InviteBody) },
  responses: { 200: json(InviteResult) },
});
export const getAgentInstructions = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/agent-instructions',
  tags,
  summary: 'Agent instructions',
  request: { params: OrgParams },
  responses: { 200: json(AgentInstructionsSchema) },
});
export const putAgentInstructions = apiRoute({
  method: 'put',
  path: '/v1/orgs/{organizationId}/agent-instructions',
  tags,
  summary: 'Set agent instructions',
  request: { params: OrgParams, body: body(UpdateAgentInstructionsBody) },
  responses: { 200: json(AgentInstructionsSchema) },
});
export const listOrgsByEmailDomain = apiRoute({
  method: 'get',
  path: '/v1/email-domains/{emailDomain}/orgs',
  tags,
  summary: 'Organizations the caller can join with their email domain',
  request: {
    params: z.object({
      emailDomain: z
        .string()
        .max(253)
        .regex(/^[A-Za-z0-9.-]+$/, 'must be a domain name'),
    }),
  },
  responses: { 200: json(z.object({ organizations: z.array(OrganizationSchema) })) },
});
export const pingOrganization = apiRoute({
  method: 'post',
  path: '/v1/orgs/{organizationId}/ping',
  tags: ['Organization members'],
  summary: 'Record activity; returns visitor claims',
  request: { params: OrgParams },
  responses: { 200: json(PingResponse) },
});
export const listOrgSpaces = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/spaces',
  tags,
  summary: 'Spaces of an organization',
  request: { params: OrgParams, query: ListQuerySchema },
  responses: { 200: json(listOf(SpaceSchema)) },
});
export const createOrgSpace = apiRoute({
  method: 'post',
  path: '/v1/orgs/{organizationId}/spaces',
  tags: ['Spaces'],
  summary: 'Create a space',
  request: { params: OrgParams, body: body(CreateSpaceBody) },
  responses: { 201: json(SpaceSchema) },
});
export const listOrgCollections = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/collections',
  tags,
  summary: 'Collections of an organization',
  request: { params: OrgParams, query: ListCollectionsQuery },
  responses: { 200: json(listOf(CollectionSchema)) },
});
export const createOrgCollection = apiRoute({
  method: 'post',
  path: '/v1/orgs/{organizationId}/collections',
  tags,
  summary: 'Create a collection',
  request: { params: OrgParams, body: body(CreateCollectionBody) },
  responses: { 200: json(CollectionSchema) },
});
