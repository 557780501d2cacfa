import { badRequest, conflict, notFound } from '@quire/shared/domainErrors';
import type { CreateWebhookBody, UpdateWebhookBody } from '@quire/shared/schemas/webhook';
import type { Deps } from '../platform/deps';
import type { Db } from '../../store/db';
import type { PageRequest } from '../../store/paginate';
import * as store from '../../store/webhooks';
import { WEBHOOK_CHANNEL, queueRedelivery } from './events';
import { newWebhookSecret } from './signing';
import { refusedTarget } from './targets';

/** A target on the server's own network is refused before it is ever stored (and again, by the fetch guard, on every delivery). */
async function checkTarget(deps: Deps, url: string) {
  const refused = await refusedTarget(url, deps.config.allowPrivateFetch);
  if (refused) throw badRequest(`Invalid body field "url": ${refused}.`);
}

/** Space filters name spaces of this organization; any other id is unknown, as everywhere. */
async function checkSpaces(db: Db, orgId: string, ids: string[] | undefined): Promise<string[] | undefined> {
  if (!ids) return undefined;
  const unique = [...new Set(ids)];
  const found = await store.spacesOfOrg(db, orgId, unique);
  if (found.length < unique.length) throw notFound('space');
  return unique;
}

/** Subscribes a URL to events; answers the webhook and its signing secret, which is never shown again. */
export async function createWebhook(
  deps: Deps,
  orgId: string,
  b: CreateWebhookBody,
  by: { userId: string; apiBase: string },
): Promise<{ hook: store.WebhookRow; secret: string }> {
  await checkTarget(deps, b.url);
  const spaceIds = (await checkSpaces(deps.db, orgId, b.spaces)) ?? [];
  const secret = newWebhookSecret();
  const hook = await store.insertWebhook(deps.db, {
    orgId,
    url: b.url,
    events: [...new Set(b.events)],
    spaceIds,
    secret,
    description: b.description ?? null,
    enabled: b.enabled ?? true,
    apiBase: by.apiBase,
    createdBy: by.userId,
  });
  return { hook, secret };
}

/** Changes a webhook; turned back on, what waited for it is due at once. */
export async function updateWebhook(deps: Deps, hook: store.WebhookRow, b: UpdateWebhookBody): Promise<store.WebhookRow> {
  const { db } = deps;
  if (b.url !== undefined) await checkTarget(deps, b.url);
  const spaceIds = await checkSpaces(db, hook.org_id, b.spaces);
  const updated = await store.updateWebhook(db, hook.id, {
    url: b.url,
    events: b.events && [...new Set(b.events)],
    spaceIds,
    description: b.description,
    enabled: b.enabled,
  });
  if (!updated) throw notFound('webhook');
  if (b.enabled) await db.notify(WEBHOOK_CHANNEL, '');
  return updated;
}

/** Queues a delivery's event again (the webhook must be on); answers the new delivery. */
export async function redeliver(db: Db, hook: store.WebhookRow, deliveryId: string): Promise<store.DeliveryRow> {
  const d = await store.getDelivery(db, hook.id, deliveryId);
  if (!d) throw notFound('delivery');
  if (!hook.enabled) throw conflict('The webhook is turned off: turn it on (enabled: true) before sending deliveries again.');
  const id = await queueRedelivery(db, d);
  const fresh = await store.getDelivery(db, hook.id, id);
  if (!fresh) throw notFound('delivery');
  return fresh;
}

/** A webhook of the organization; 404 when there is none with that id. */
export async function webhookOf(db: Db, orgId: string, id: string): Promise<store.WebhookRow> {
  const hook = await store.getWebhook(db, orgId, id);
  if (!hook) throw notFound('webhook');
  return hook;
}

/** A page of the organization's webhooks. */
export function webhooksOf(db: Db, orgId: string, page: PageRequest) {
  return store.listWebhooks(db, orgId, page);
}

/** Unsubscribes a webhook (nothing to do when it is gone). */
export async function deleteWebhook(db: Db, orgId: string, id: string): Promise<void> {
  await store.deleteWebhook(db, orgId, id);
}

/** A page of a webhook's deliveries, of one status when given. */
export function deliveriesOf(db: Db, hook: store.WebhookRow, status: string | undefined, page: PageRequest) {
  return store.listDeliveries(db, hook.id, status, page);
}

/** One delivery of a webhook; 404 when it has none with that id. */
export async function deliveryOf(db: Db, hook: store.WebhookRow, deliveryId: string): Promise<store.DeliveryRow> {
  const d = await store.getDelivery(db, hook.id, deliveryId);
  if (!d) throw notFound('delivery');
  return d;
}
