import {
  ListMembersQuery,
  ListQuerySchema,
  MemberSchema,
  OrderSchema,
  RoleSchema,
  SpaceSchema,
  TeamRoleSchema,
  TeamSchema,
  UpdateMemberBody,
  listOf,
  text,
} from '@quire/shared';
import { z } from 'zod';
import { apiRoute, body, json, noContent } from '../openapi';
import { OrgParams, OrgUserParams } from '../params';

const tags = ['Organization members'];

export const listMembers = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/members',
  tags,
  summary: 'List members',
  request: { params: OrgParams, query: ListMembersQuery },
  responses: { 200: json(listOf(MemberSchema)) },
});
export const getMember = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/members/{userId}',
  tags,
  summary: 'Get a member',
  request: { params: OrgUserParams },
  responses: { 200: json(MemberSchema) },
});
export const deleteMember = apiRoute({
  method: 'delete',
  path: '/v1/orgs/{organizationId}/members/{userId}',
  tags,
  summary: 'Remove a member',
  request: { params: OrgUserParams },
  responses: noContent,
});
export const updateMember = apiRoute({
  method: 'patch',
  path: '/v1/orgs/{organizationId}/members/{userId}',
  tags,
  summary: "Change a member's role",
  request: { params: OrgUserParams, body: body(UpdateMemberBody) },
  responses: { 200: json(MemberSchema) },
});
export const setMemberSso = apiRoute({
  method: 'post',
  path: '/v1/orgs/{organizationId}/members/{userId}/sso',
  tags,
  summary: 'Make a member an SSO member',
  request: { params: OrgUserParams },
  responses: { 200: json(MemberSchema) },
});
export const listMemberSpaces = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/members/{userId}/spaces',
  tags,
  summary: 'Spaces a member can access',
  request: { params: OrgUserParams, query: ListQuerySchema.extend({ order: OrderSchema.optional() }) },
  responses: { 200: json(listOf(z.object({ permission: RoleSchema, space: SpaceSchema }))) },
});
export const listMemberTeams = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/members/{userId}/teams',
  tags,
  summary: 'Teams of a member',
  request: { params: OrgUserParams, query: ListQuerySchema.extend({ title: text(256).optional() }) },
  responses: { 200: json(listOf(z.object({ team: TeamSchema, member: z.object({ role: TeamRoleSchema }) }))) },
});
