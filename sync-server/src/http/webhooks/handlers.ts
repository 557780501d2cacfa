import type { OpenAPIHono } from '@hono/zod-openapi';
import * as commands from '../../core/webhooks/commands';
import * as queries from '../../core/webhooks/queries';
import { commandContext } from '../../web/commandContext';
import type { AppEnv } from '../env';
import * as r from './routes';

export function registerWebhooks(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listWebhooks, async (c) =>
    c.json(await queries.listWebhooks(commandContext(c), { ...c.req.valid('param'), page: c.req.valid('query') }), 200),
  );

  app.openapi(r.createWebhook, async (c) =>
    c.json(await commands.createWebhook(commandContext(c), { ...c.req.valid('param'), fields: c.req.valid('json') }), 201),
  );

  app.openapi(r.getWebhook, async (c) => c.json(await queries.getWebhook(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.updateWebhook, async (c) =>
    c.json(await commands.updateWebhook(commandContext(c), { ...c.req.valid('param'), changes: c.req.valid('json') }), 200),
  );

  app.openapi(r.deleteWebhook, async (c) => {
    await commands.deleteWebhook(commandContext(c), c.req.valid('param'));
    return c.body(null, 204);
  });

  app.openapi(r.listDeliveries, async (c) =>
    c.json(await queries.listDeliveries(commandContext(c), { ...c.req.valid('param'), query: c.req.valid('query') }), 200),
  );

  app.openapi(r.getDelivery, async (c) => c.json(await queries.getDelivery(commandContext(c), c.req.valid('param')), 200));

  app.openapi(r.redeliver, async (c) => c.json(await commands.redeliver(commandContext(c), c.req.valid('param')), 201));
}
