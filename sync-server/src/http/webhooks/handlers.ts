import type { OpenAPIHono } from '@hono/zod-openapi';
import { badRequest, conflict, notFound } from '@quire/shared/apiErrors';
import type { Context } from 'hono';
import { WEBHOOK_CHANNEL, queueRedelivery } from '../../core/webhooks/events';
import { newWebhookSecret } from '../../core/webhooks/signing';
import { refusedTarget } from '../../core/webhooks/targets';
import * as store from '../../store/webhooks';
import type { AppEnv } from '../env';
import { requireOrg } from '../guards';
import { envelope } from '../listing';
import { baseUrl } from '../urls';
import { presentDelivery, presentWebhook } from './present';
import * as r from './routes';

type Ctx = Context<AppEnv>;

async function requireWebhook(c: Ctx, orgId: string, id: string) {
  await requireOrg(c, orgId, 'admin');
  const hook = await store.getWebhook(c.get('deps').db, orgId, id);
  if (!hook) throw notFound('webhook');
  return hook;
}

/** A target on the server's own network is refused before it is ever stored (and again, by the fetch guard, on every delivery). */
async function checkTarget(c: Ctx, url: string) {
  const refused = await refusedTarget(url, c.get('deps').config.allowPrivateFetch);
  if (refused) throw badRequest(`Invalid body field "url": ${refused}.`);
}

/** Space filters name spaces of this organization; any other id is unknown, as everywhere. */
async function checkSpaces(c: Ctx, orgId: string, ids: string[] | undefined): Promise<string[] | undefined> {
  if (!ids) return undefined;
  const unique = [...new Set(ids)];
  const found = await store.spacesOfOrg(c.get('deps').db, orgId, unique);
  if (found.length < unique.length) throw notFound('space');
  return unique;
}

export function registerWebhooks(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.listWebhooks, async (c) => {
    const { organizationId } = c.req.valid('param');
    await requireOrg(c, organizationId, 'admin');
    const page = await store.listWebhooks(c.get('deps').db, organizationId, c.req.valid('query'));
    const base = baseUrl(c);
    return c.json(
      envelope(page, (w) => presentWebhook(w, base)),
      200,
    );
  });

  app.openapi(r.createWebhook, async (c) => {
    const { organizationId } = c.req.valid('param');
    await requireOrg(c, organizationId, 'admin');
    const b = c.req.valid('json');
    await checkTarget(c, b.url);
    const spaceIds = (await checkSpaces(c, organizationId, b.spaces)) ?? [];
    const secret = newWebhookSecret();
    const hook = await store.insertWebhook(c.get('deps').db, {
      orgId: organizationId,
      url: b.url,
      events: [...new Set(b.events)],
      spaceIds,
      secret,
      description: b.description ?? null,
      enabled: b.enabled ?? true,
      apiBase: baseUrl(c),
      createdBy: c.get('caller').user.id,
    });
    return c.json({ ...presentWebhook(hook, baseUrl(c)), secret }, 201);
  });

  app.openapi(r.getWebhook, async (c) => {
    const { organizationId, webhookId } = c.req.valid('param');
    return c.json(presentWebhook(await requireWebhook(c, organizationId, webhookId), baseUrl(c)), 200);
  });

  app.openapi(r.updateWebhook, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, webhookId } = c.req.valid('param');
    const hook = await requireWebhook(c, organizationId, webhookId);
    const b = c.req.valid('json');
    if (b.url !== undefined) await checkTarget(c, b.url);
    const spaceIds = await checkSpaces(c, organizationId, b.spaces);
    const updated = await store.updateWebhook(db, hook.id, {
      url: b.url,
      events: b.events && [...new Set(b.events)],
      spaceIds,
      description: b.description,
      enabled: b.enabled,
    });
    if (!updated) throw notFound('webhook');
    // Turned back on: what waited is due now.
    if (b.enabled) await db.notify(WEBHOOK_CHANNEL, '');
    return c.json(presentWebhook(updated, baseUrl(c)), 200);
  });

  app.openapi(r.deleteWebhook, async (c) => {
    const { organizationId, webhookId } = c.req.valid('param');
    await requireOrg(c, organizationId, 'admin');
    await store.deleteWebhook(c.get('deps').db, organizationId, webhookId);
    return c.body(null, 204);
  });

  app.openapi(r.listDeliveries, async (c) => {
    const { organizationId, webhookId } = c.req.valid('param');
    const hook = await requireWebhook(c, organizationId, webhookId);
    const q = c.req.valid('query');
    const page = await store.listDeliveries(c.get('deps').db, hook.id, q.status, q);
    const base = baseUrl(c);
    return c.json(
      envelope(page, (d) => presentDelivery(d, hook, base)),
      200,
    );
  });

  app.openapi(r.getDelivery, async (c) => {
    const { organizationId, webhookId, deliveryId } = c.req.valid('param');
    const hook = await requireWebhook(c, organizationId, webhookId);
    const d = await store.getDelivery(c.get('deps').db, hook.id, deliveryId);
    if (!d) throw notFound('delivery');
    return c.json(presentDelivery(d, hook, baseUrl(c)), 200);
  });

  app.openapi(r.redeliver, async (c) => {
    const { db } = c.get('deps');
    const { organizationId, webhookId, deliveryId } = c.req.valid('param');
    const hook = await requireWebhook(c, organizationId, webhookId);
    const d = await store.getDelivery(db, hook.id, deliveryId);
    if (!d) throw notFound('delivery');
    if (!hook.enabled) throw conflict('The webhook is turned off: turn it on (enabled: true) before sending deliveries again.');
    const id = await queueRedelivery(db, d);
    const fresh = await store.getDelivery(db, hook.id, id);
    if (!fresh) throw notFound('delivery');
    return c.json(presentDelivery(fresh, hook, baseUrl(c)), 201);
  });
}
