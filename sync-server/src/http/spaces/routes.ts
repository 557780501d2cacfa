import { GetSpaceQuery, MoveBody, SpaceSchema, TransferBody, UpdateSpaceBody } from '@quire/shared';
import { apiRoute, body, json, noContent } from '../openapi';
import { SpaceParams } from '../params';

const tags = ['Spaces'];

export const getSpace = apiRoute({
  method: 'get',
  path: '/v1/spaces/{spaceId}',
  tags,
  summary: 'Get a space',
  request: { params: SpaceParams, query: GetSpaceQuery },
  responses: { 200: json(SpaceSchema) },
});
export const deleteSpace = apiRoute({
  method: 'delete',
  path: '/v1/spaces/{spaceId}',
  tags,
  summary: 'Delete a space (restorable for 7 days)',
  request: { params: SpaceParams },
  responses: noContent,
});
export const updateSpace = apiRoute({
  method: 'patch',
  path: '/v1/spaces/{spaceId}',
  tags,
  summary: 'Update a space',
  request: { params: SpaceParams, body: body(UpdateSpaceBody) },
  responses: { 200: json(SpaceSchema) },
});
export const duplicateSpace = apiRoute({
  method: 'post',
  path: '/v1/spaces/{spaceId}/duplicate',
  tags,
  summary: 'Duplicate a space',
  request: { params: SpaceParams },
  responses: { 200: json(SpaceSchema) },
});
export const restoreSpace = apiRoute({
  method: 'post',
  path: '/v1/spaces/{spaceId}/restore',
  tags,
  summary: 'Restore a deleted space',
  request: { params: SpaceParams },
  responses: { 200: json(SpaceSchema) },
});
export const moveSpace = apiRoute({
  method: 'post',
  path: '/v1/spaces/{spaceId}/move',
  tags,
  summary: 'Move a space',
  request: { params: SpaceParams, body: body(MoveBody) },
  responses: { 200: json(SpaceSchema) },
});
export const transferSpace = apiRoute({
  method: 'post',
  path: '/v1/spaces/{spaceId}/transfer',
  tags,
  summary: 'Transfer a space to another organization',
  request: { params: SpaceParams, body: body(TransferBody) },
  responses: { 200: json(SpaceSchema) },
});
