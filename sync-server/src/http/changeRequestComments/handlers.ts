import type { OpenAPIHono } from '@hono/zod-openapi';
import { countOpenCommentsOfChangeRequests } from '../../core/comments/threads';
import type { AppEnv } from '../env';
import { routes as r } from './routes';
import * as ops from '../../core/comments/operations';
import { commandContext } from '../../web/commandContext';

/** Comments on a change request's branch; the change request is named by id or number. */
export function registerChangeRequestComments(app: OpenAPIHono<AppEnv>) {
  countOpenCommentsOfChangeRequests();
  app.openapi(r.listComments, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const scope = await ops.changeRequestScope(commandContext(c), spaceId, changeRequestId);
    return c.json(await ops.listComments(commandContext(c), scope, c.req.valid('query')), 200);
  });
  app.openapi(r.createComment, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const scope = await ops.changeRequestScope(commandContext(c), spaceId, changeRequestId);
    return c.json(await ops.createComment(commandContext(c), scope, c.req.valid('json')), 200);
  });
  app.openapi(r.getComment, async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    const scope = await ops.changeRequestScope(commandContext(c), spaceId, changeRequestId);
    return c.json(await ops.getComment(commandContext(c), scope, commentId, c.req.valid('query').format), 200);
  });
  app.openapi(r.updateComment, async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    const scope = await ops.changeRequestScope(commandContext(c), spaceId, changeRequestId);
    return c.json(await ops.updateComment(commandContext(c), scope, commentId, c.req.valid('json')), 200);
  });
  app.openapi(r.deleteComment, async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    await ops.deleteComment(commandContext(c), await ops.changeRequestScope(commandContext(c), spaceId, changeRequestId), commentId);
    return c.body(null, 204);
  });
  app.openapi(r.listReplies, async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    const scope = await ops.changeRequestScope(commandContext(c), spaceId, changeRequestId);
    return c.json(await ops.listReplies(commandContext(c), scope, commentId, c.req.valid('query')), 200);
  });
  app.openapi(r.createReply, async (c) => {
    const { spaceId, changeRequestId, commentId } = c.req.valid('param');
    const scope = await ops.changeRequestScope(commandContext(c), spaceId, changeRequestId);
    return c.json(await ops.createReply(commandContext(c), scope, commentId, c.req.valid('json'), c.req.valid('query').format), 200);
  });
  app.openapi(r.getReply, async (c) => {
    const { spaceId, changeRequestId, commentId, commentReplyId } = c.req.valid('param');
    const scope = await ops.changeRequestScope(commandContext(c), spaceId, changeRequestId);
    return c.json(await ops.getReply(commandContext(c), scope, commentId, commentReplyId, c.req.valid('query').format), 200);
  });
  app.openapi(r.updateReply, async (c) => {
    const { spaceId, changeRequestId, commentId, commentReplyId } = c.req.valid('param');
    const scope = await ops.changeRequestScope(commandContext(c), spaceId, changeRequestId);
    return c.json(await ops.updateReply(commandContext(c), scope, commentId, commentReplyId, c.req.valid('json')), 200);
  });
  app.openapi(r.deleteReply, async (c) => {
    const { spaceId, changeRequestId, commentId, commentReplyId } = c.req.valid('param');
    await ops.deleteReply(
      commandContext(c),
      await ops.changeRequestScope(commandContext(c), spaceId, changeRequestId),
      commentId,
      commentReplyId,
    );
    return c.body(null, 204);
  });
}
