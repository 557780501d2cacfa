import { SpaceParams } from '../params';
import { commentRoutes } from './commentRoutes';

export const {
  listComments,
  createComment,
  getComment,
  updateComment,
  deleteComment,
  listReplies,
  createReply,
  getReply,
  updateReply,
  deleteReply,
} = commentRoutes({ tag: 'Space comments', base: '/v1/spaces/{spaceId}/comments', params: SpaceParams, on: 'a space' });
