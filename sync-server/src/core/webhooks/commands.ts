import { badRequest, conflict, notFound } from '@quire/shared/domainErrors';
import type { CreateWebhookBody, UpdateWebhookBody, Webhook, WebhookDelivery } from '@quire/shared/schemas/webhook';
import { orgSeenBy } from '../access/resourceAccess';
import type { CommandContext, Deps } from '../platform/deps';
import { presentDelivery, presentWebhook } from '../views/webhook';
import type { Db } from '../../store/db';
import * as store from '../../store/webhooks';
import { WEBHOOK_CHANNEL, queueRedelivery } from './events';
import { webhookSeenBy } from './queries';
import { newWebhookSecret } from './signing';
import { refusedTarget } from './targets';

/*
 * The writes of the `/v1` webhook operations, one function each, taking the caller's
 * context and the operation's input. Webhooks are the organization's admins' (the
 * organization policy's `manage`).
 */

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

/** Subscribes a URL to events; answers the webhook with its signing secret, which is never shown again. */
export async function createWebhook(
  ctx: CommandContext,
  input: { organizationId: string; fields: CreateWebhookBody },
): Promise<Webhook & { secret: string }> {
  const { deps } = ctx;
  const b = input.fields;
  const { org } = await orgSeenBy(deps.db, ctx.access, input.organizationId, 'manage');
  await checkTarget(deps, b.url);
  const spaceIds = (await checkSpaces(deps.db, org.id, b.spaces)) ?? [];
  const secret = newWebhookSecret();
  const hook = await store.insertWebhook(deps.db, {
    orgId: org.id,
    url: b.url,
    events: [...new Set(b.events)],
    spaceIds,
    secret,
    description: b.description ?? null,
    enabled: b.enabled ?? true,
    apiBase: ctx.baseUrl,
    createdBy: ctx.userId,
  });
  return { ...presentWebhook(hook, ctx.baseUrl), secret };
}

/** Changes a webhook; turned back on, what waited for it is due at once. */
export async function updateWebhook(
  ctx: CommandContext,
  input: { organizationId: string; webhookId: string; changes: UpdateWebhookBody },
): Promise<Webhook> {
  const { db } = ctx.deps;
  const b = input.changes;
  const hook = await webhookSeenBy(ctx, input);
  if (b.url !== undefined) await checkTarget(ctx.deps, b.url);
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
  return presentWebhook(updated, ctx.baseUrl);
}

/** Queues a delivery's event again (the webhook must be on); answers the new delivery. */
export async function redeliver(
  ctx: CommandContext,
  input: { organizationId: string; webhookId: string; deliveryId: string },
): Promise<WebhookDelivery> {
  const { db } = ctx.deps;
  const hook = await webhookSeenBy(ctx, input);
  const d = await store.getDelivery(db, hook.id, input.deliveryId);
  if (!d) throw notFound('delivery');
  if (!hook.enabled) throw conflict('The webhook is turned off: turn it on (enabled: true) before sending deliveries again.');
  const id = await queueRedelivery(db, d);
  const fresh = await store.getDelivery(db, hook.id, id);
  if (!fresh) throw notFound('delivery');
  return presentDelivery(fresh, hook, ctx.baseUrl);
}

/** Unsubscribes a webhook (nothing to do when it is gone). */
export async function deleteWebhook(ctx: CommandContext, input: { organizationId: string; webhookId: string }): Promise<void> {
  const { org } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId, 'manage');
  await store.deleteWebhook(ctx.deps.db, org.id, input.webhookId);
}
