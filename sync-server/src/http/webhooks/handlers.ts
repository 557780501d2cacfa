import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  createWebhook,
  deleteWebhook,
  deliveriesOf,
  deliveryOf,
  redeliver,
  updateWebhook,
  webhookOf,
  webhooksOf,
} from '../../core/webhooks/subscriptions';
import type { AppEnv } from '../env';
import { requireOrg } from '../guards';
import { envelope } from '../../core/views/listing';
import { baseUrl } from '../urls';
import { presentDelivery, presentWebhook } from './present';
import * as r from './routes';

type Ctx = Context<AppEnv>;

async function requireWebhook(c: Ctx, orgId: string, id: string) {
  await requireOrg(c, orgId, 'manage');
  return webhookOf(c.get('deps').db, orgId, id);
}

export function registerWebhooks(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listWebhooks, async (c) => {
    const { organizationId } = c.req.valid('param');
    await requireOrg(c, organizationId, 'manage');
    const page = await webhooksOf(c.get('deps').db, organizationId, c.req.valid('query'));
    const base = baseUrl(c);
    return c.json(
      envelope(page, (w) => presentWebhook(w, base)),
      200,
    );
  });

  app.openapi(r.createWebhook, async (c) => {
    const { organizationId } = c.req.valid('param');
    await requireOrg(c, organizationId, 'manage');
    const by = { userId: c.get('caller').user.id, apiBase: baseUrl(c) };
    const { hook, secret } = await createWebhook(c.get('deps'), organizationId, c.req.valid('json'), by);
    return c.json({ ...presentWebhook(hook, baseUrl(c)), secret }, 201);
  });

  app.openapi(r.getWebhook, async (c) => {
    const { organizationId, webhookId } = c.req.valid('param');
    return c.json(presentWebhook(await requireWebhook(c, organizationId, webhookId), baseUrl(c)), 200);
  });

  app.openapi(r.updateWebhook, async (c) => {
    const { organizationId, webhookId } = c.req.valid('param');
    const hook = await requireWebhook(c, organizationId, webhookId);
    const updated = await updateWebhook(c.get('deps'), hook, c.req.valid('json'));
    return c.json(presentWebhook(updated, baseUrl(c)), 200);
  });

  app.openapi(r.deleteWebhook, async (c) => {
    const { organizationId, webhookId } = c.req.valid('param');
    await requireOrg(c, organizationId, 'manage');
    await deleteWebhook(c.get('deps').db, organizationId, webhookId);
    return c.body(null, 204);
  });

  app.openapi(r.listDeliveries, async (c) => {
    const { organizationId, webhookId } = c.req.valid('param');
    const hook = await requireWebhook(c, organizationId, webhookId);
    const q = c.req.valid('query');
    const page = await deliveriesOf(c.get('deps').db, hook, q.status, q);
    const base = baseUrl(c);
    return c.json(
      envelope(page, (d) => presentDelivery(d, hook, base)),
      200,
    );
  });

  app.openapi(r.getDelivery, async (c) => {
    const { organizationId, webhookId, deliveryId } = c.req.valid('param');
    const hook = await requireWebhook(c, organizationId, webhookId);
    const d = await deliveryOf(c.get('deps').db, hook, deliveryId);
    return c.json(presentDelivery(d, hook, baseUrl(c)), 200);
  });

  app.openapi(r.redeliver, async (c) => {
    const { organizationId, webhookId, deliveryId } = c.req.valid('param');
    const hook = await requireWebhook(c, organizationId, webhookId);
    return c.json(presentDelivery(await redeliver(c.get('deps').db, hook, deliveryId), hook, baseUrl(c)), 201);
  });
}
