import { CollectionSchema, ListQuerySchema, MoveBody, SpaceSchema, TransferBody, UpdateCollectionBody, listOf } from '@quire/shared';
import { apiRoute, body, json, noContent } from '../openapi';
import { CollectionParams } from '../params';

const tags = ['Collections'];

export const getCollection = apiRoute({
  method: 'get',
  path: '/v1/collections/{collectionId}',
  tags,
  summary: 'Get a collection',
  request: { params: CollectionParams },
  responses: { 200: json(CollectionSchema) },
});
export const deleteCollection = apiRoute({
  method: 'delete',
  path: '/v1/collections/{collectionId}',
  tags,
  summary: 'Delete a collection and its content',
  request: { params: CollectionParams },
  responses: noContent,
});
export const updateCollection = apiRoute({
  method: 'patch',
  path: '/v1/collections/{collectionId}',
  tags,
  summary: 'Update a collection',
  request: { params: CollectionParams, body: body(UpdateCollectionBody) },
  responses: { 200: json(CollectionSchema) },
});
export const listCollectionSpaces = apiRoute({
  method: 'get',
  path: '/v1/collections/{collectionId}/spaces',
  tags,
  summary: 'Spaces in a collection',
  request: { params: CollectionParams, query: ListQuerySchema },
  responses: { 200: json(listOf(SpaceSchema)) },
});
export const moveCollection = apiRoute({
  method: 'post',
  path: '/v1/collections/{collectionId}/move',
  tags,
  summary: 'Move a collection',
  request: { params: CollectionParams, body: body(MoveBody) },
  responses: { 200: json(CollectionSchema) },
});
export const transferCollection = apiRoute({
  method: 'post',
  path: '/v1/collections/{collectionId}/transfer',
  tags,
  summary: 'Transfer a collection to another organization',
  request: { params: CollectionParams, body: body(TransferBody) },
  responses: { 200: json(CollectionSchema) },
});
