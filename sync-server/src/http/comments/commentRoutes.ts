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
import type { z } from 'zod';
import { apiRoute, body, json, noContent } from '../openapi';

/**
 * The ten comment operations, the same on a space and on a change request: only the path,
 * its parameters and the words of the reference differ.
 */
export function commentRoutes<S extends z.ZodRawShape>(opts: { tag: string; base: string; params: z.ZodObject<S>; on: string }) {
  const { base, params } = opts;
  const tags = [opts.tag];
  const CommentParams = params.extend({ commentId: IdSchema });
  const ReplyParams = CommentParams.extend({ commentReplyId: IdSchema });
  return {
    listComments: apiRoute({
      method: 'get',
      path: base,
      tags,
      summary: `List comments on ${opts.on}`,
      request: { params, query: ListCommentsQuery },
      responses: { 200: json(listOf(CommentSchema)) },
    }),
    createComment: apiRoute({
      method: 'post',
      path: base,
      tags,
      summary: `Comment on ${opts.on}`,
      request: { params, body: body(CreateCommentBody) },
      responses: { 200: json(CommentSchema) },
    }),
    getComment: apiRoute({
      method: 'get',
      path: `${base}/{commentId}`,
      tags,
      summary: 'Get a comment',
      request: { params: CommentParams, query: CommentFormatQuery },
      responses: { 200: json(CommentSchema) },
    }),
    updateComment: apiRoute({
      method: 'put',
      path: `${base}/{commentId}`,
      tags,
      summary: 'Update a comment (body, resolution, reactions)',
      request: { params: CommentParams, body: body(UpdateCommentBody) },
      responses: { 200: json(CommentSchema) },
    }),
    deleteComment: apiRoute({
      method: 'delete',
      path: `${base}/{commentId}`,
      tags,
      summary: 'Delete a comment',
      request: { params: CommentParams },
      responses: noContent,
    }),
    listReplies: apiRoute({
      method: 'get',
      path: `${base}/{commentId}/replies`,
      tags,
      summary: 'List the replies to a comment',
      request: { params: CommentParams, query: ListRepliesQuery },
      responses: { 200: json(listOf(CommentReplySchema)) },
    }),
    createReply: apiRoute({
      method: 'post',
      path: `${base}/{commentId}/replies`,
      tags,
      summary: 'Reply to a comment',
      request: { params: CommentParams, query: CommentFormatQuery, body: body(CreateCommentReplyBody) },
      responses: { 200: json(CommentReplySchema) },
    }),
    getReply: apiRoute({
      method: 'get',
      path: `${base}/{commentId}/replies/{commentReplyId}`,
      tags,
      summary: 'Get a reply',
      request: { params: ReplyParams, query: CommentFormatQuery },
      responses: { 200: json(CommentReplySchema) },
    }),
    updateReply: apiRoute({
      method: 'put',
      path: `${base}/{commentId}/replies/{commentReplyId}`,
      tags,
      summary: 'Update a reply (body, reactions)',
      request: { params: ReplyParams, body: body(UpdateCommentReplyBody) },
      responses: { 200: json(CommentReplySchema) },
    }),
    deleteReply: apiRoute({
      method: 'delete',
      path: `${base}/{commentId}/replies/{commentReplyId}`,
      tags,
      summary: 'Delete a reply',
      request: { params: ReplyParams },
      responses: noContent,
    }),
  };
}
