import type { OpenAPIHono } from '@hono/zod-openapi';
import * as commands from '../../core/comments/commands';
import * as queries from '../../core/comments/queries';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import { routes as r } from './routes';

/** Comments on a space's main branch. */
export function registerComments(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listComments, async (c) =>
    c.json(await queries.listComments(commandContext(c), { ...c.req.valid('param'), query: c.req.valid('query') }), 200),
  );

  app.openapi(r.createComment, async (c) =>
    c.json(await commands.createComment(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 200),
  );

  app.openapi(r.getComment, async (c) =>
    c.json(await queries.getComment(commandContext(c), { ...c.req.valid('param'), format: c.req.valid('query').format }), 200),
  );

  app.openapi(r.updateComment, async (c) =>
    c.json(await commands.updateComment(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.deleteComment, async (c) => {
    await commands.deleteComment(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.listReplies, async (c) =>
    c.json(await queries.listReplies(commandContext(c), { ...c.req.valid('param'), query: c.req.valid('query') }), 200),
  );

  app.openapi(r.createReply, async (c) => {
    const input = { ...c.req.valid('param'), fields: c.req.valid('json'), format: c.req.valid('query').format };
    return c.json(await commands.createReply(commandContext(c), input), 200);
  });

  app.openapi(r.getReply, async (c) =>
    c.json(await queries.getReply(commandContext(c), { ...c.req.valid('param'), format: c.req.valid('query').format }), 200),
  );

  app.openapi(r.updateReply, async (c) =>
    c.json(await commands.updateReply(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.deleteReply, async (c) => {
    await commands.deleteReply(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });
}
