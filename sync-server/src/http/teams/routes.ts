import {
  CreateTeamBody,
  ListQuerySchema,
  ListTeamsQuery,
  PutTeamMemberBody,
  TeamMemberItemSchema,
  TeamSchema,
  UpdateTeamBody,
  UpdateTeamMembersBody,
  listOf,
} from '@quire/shared';
import { apiRoute, body, json, noContent } from '../openapi';
import { OrgParams, TeamParams, TeamUserParams } from '../params';

const tags = ['Teams'];

export const listTeams = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/teams',
  tags,
  summary: 'List teams',
  request: { params: OrgParams, query: ListTeamsQuery },
  responses: { 200: json(listOf(TeamSchema)) },
});
export const createTeam = apiRoute({
  method: 'put',
  path: '/v1/orgs/{organizationId}/teams',
  tags,
  summary: 'Create a team',
  request: { params: OrgParams, body: body(CreateTeamBody) },
  responses: { 200: json(TeamSchema) },
});
export const getTeam = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/teams/{teamId}',
  tags,
  summary: 'Get a team',
  request: { params: TeamParams },
  responses: { 200: json(TeamSchema) },
});
export const deleteTeam = apiRoute({
  method: 'delete',
  path: '/v1/orgs/{organizationId}/teams/{teamId}',
  tags,
  summary: 'Delete a team',
  request: { params: TeamParams },
  responses: noContent,
});
export const updateTeam = apiRoute({
  method: 'patch',
  path: '/v1/orgs/{organizationId}/teams/{teamId}',
  tags,
  summary: 'Rename a team',
  request: { params: TeamParams, body: body(UpdateTeamBody) },
  responses: { 200: json(TeamSchema) },
});
export const listTeamMembers = apiRoute({
  method: 'get',
  path: '/v1/orgs/{organizationId}/teams/{teamId}/members',
  tags,
  summary: 'Members of a team',
  request: { params: TeamParams, query: ListQuerySchema },
  responses: { 200: json(listOf(TeamMemberItemSchema)) },
});
export const updateTeamMembers = apiRoute({
  method: 'put',
  path: '/v1/orgs/{organizationId}/teams/{teamId}/members',
  tags,
  summary: 'Add, remove and set roles of team members',
  request: { params: TeamParams, body: body(UpdateTeamMembersBody) },
  responses: noContent,
});
export const putTeamMember = apiRoute({
  method: 'put',
  path: '/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}',
  tags,
  summary: 'Add or update a team member',
  request: { params: TeamUserParams, body: body(PutTeamMemberBody) },
  responses: noContent,
});
export const deleteTeamMember = apiRoute({
  method: 'delete',
  path: '/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}',
  tags,
  summary: 'Remove a team member',
  request: { params: TeamUserParams },
  responses: noContent,
});
