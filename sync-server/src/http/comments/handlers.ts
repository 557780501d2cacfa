import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../env';
import { routes as r } from './routes';
import * as ops from './threads';

/** Comments on a space's main branch. */
export function registerComments(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listComments, async (c) => {
    const scope = await ops.spaceScope(c, c.req.valid('param').spaceId);
    return c.json(await ops.listComments(c, scope, c.req.valid('query')), 200);
  });
  app.openapi(r.createComment, async (c) => {
    const scope = await ops.spaceScope(c, c.req.valid('param').spaceId);
    return c.json(await ops.createComment(c, scope, c.req.valid('json')), 200);
  });
  app.openapi(r.getComment, async (c) => {
    const { spaceId, commentId } = c.req.valid('param');
    const scope = await ops.spaceScope(c, spaceId);
    return c.json(await ops.getComment(c, scope, commentId, c.req.valid('query').format), 200);
  });
  app.openapi(r.updateComment, async (c) => {
    const { spaceId, commentId } = c.req.valid('param');
    const scope = await ops.spaceScope(c, spaceId);
    return c.json(await ops.updateComment(c, scope, commentId, c.req.valid('json')), 200);
  });
  app.openapi(r.deleteComment, async (c) => {
    const { spaceId, commentId } = c.req.valid('param');
    await ops.deleteComment(c, await ops.spaceScope(c, spaceId), commentId);
    return c.body(null, 204);
  });
  app.openapi(r.listReplies, async (c) => {
    const { spaceId, commentId } = c.req.valid('param');
    const scope = await ops.spaceScope(c, spaceId);
    return c.json(await ops.listReplies(c, scope, commentId, c.req.valid('query')), 200);
  });
  app.openapi(r.createReply, async (c) => {
    const { spaceId, commentId } = c.req.valid('param');
    const scope = await ops.spaceScope(c, spaceId);
    return c.json(await ops.createReply(c, scope, commentId, c.req.valid('json'), c.req.valid('query').format), 200);
  });
  app.openapi(r.getReply, async (c) => {
    const { spaceId, commentId, commentReplyId } = c.req.valid('param');
    const scope = await ops.spaceScope(c, spaceId);
    return c.json(await ops.getReply(c, scope, commentId, commentReplyId, c.req.valid('query').format), 200);
  });
  app.openapi(r.updateReply, async (c) => {
    const { spaceId, commentId, commentReplyId } = c.req.valid('param');
    const scope = await ops.spaceScope(c, spaceId);
    return c.json(await ops.updateReply(c, scope, commentId, commentReplyId, c.req.valid('json')), 200);
  });
  app.openapi(r.deleteReply, async (c) => {
    const { spaceId, commentId, commentReplyId } = c.req.valid('param');
    await ops.deleteReply(c, await ops.spaceScope(c, spaceId), commentId, commentReplyId);
    return c.body(null, 204);
  });
}
