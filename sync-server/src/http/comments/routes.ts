import { IdSchema, listOf } from '@quire/shared';
import {
  CommentFormatQuery,
  CommentReplySchema,
  CommentSchema,
  CreateCommentBody,
  CreateCommentReplyBody,
  ListCommentsQuery,
  ListRepliesQuery,
  UpdateCommentBody,
  UpdateCommentReplyBody,
} from '@quire/shared/schemas/comment';
import { apiRoute, body, json, noContent } from '../openapi';
import { SpaceParams } from '../params';

const tags = ['Space comments'];
const base = '/v1/spaces/{spaceId}/comments';
const CommentParams = SpaceParams.extend({ commentId: IdSchema });
const ReplyParams = CommentParams.extend({ commentReplyId: IdSchema });

export const listComments = apiRoute({
  method: 'get', path: base, tags, summary: 'List comments on a space',
  request: { params: SpaceParams, query: ListCommentsQuery },
  responses: { 200: json(listOf(CommentSchema)) },
});
export const createComment = apiRoute({
  method: 'post', path: base, tags, summary: 'Comment on a space',
  request: { params: SpaceParams, body: body(CreateCommentBody) },
  responses: { 200: json(CommentSchema) },
});
export const getComment = apiRoute({
  method: 'get', path: `${base}/{commentId}`, tags, summary: 'Get a comment',
  request: { params: CommentParams, query: CommentFormatQuery },
  responses: { 200: json(CommentSchema) },
});
export const updateComment = apiRoute({
  method: 'put', path: `${base}/{commentId}`, tags, summary: 'Update a comment (body, resolution, reactions)',
  request: { params: CommentParams, body: body(UpdateCommentBody) },
  responses: { 200: json(CommentSchema) },
});
export const deleteComment = apiRoute({
  method: 'delete', path: `${base}/{commentId}`, tags, summary: 'Delete a comment',
  request: { params: CommentParams },
  responses: noContent,
});
export const listReplies = apiRoute({
  method: 'get', path: `${base}/{commentId}/replies`, tags, summary: 'List the replies to a comment',
  request: { params: CommentParams, query: ListRepliesQuery },
  responses: { 200: json(listOf(CommentReplySchema)) },
});
export const createReply = apiRoute({
  method: 'post', path: `${base}/{commentId}/replies`, tags, summary: 'Reply to a comment',
  request: { params: CommentParams, query: CommentFormatQuery, body: body(CreateCommentReplyBody) },
  responses: { 200: json(CommentReplySchema) },
});
export const getReply = apiRoute({
  method: 'get', path: `${base}/{commentId}/replies/{commentReplyId}`, tags, summary: 'Get a reply',
  request: { params: ReplyParams, query: CommentFormatQuery },
  responses: { 200: json(CommentReplySchema) },
});
export const updateReply = apiRoute({
  method: 'put', path: `${base}/{commentId}/replies/{commentReplyId}`, tags, summary: 'Update a reply (body, reactions)',
  request: { params: ReplyParams, body: body(UpdateCommentReplyBody) },
  responses: { 200: json(CommentReplySchema) },
});
export const deleteReply = apiRoute({
  method: 'delete', path: `${base}/{commentId}/replies/{commentReplyId}`, tags, summary: 'Delete a reply',
  request: { params: ReplyParams },
  responses: noContent,
});
