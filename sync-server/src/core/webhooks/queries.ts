import { notFound } from '@quire/shared/domainErrors';
import type { Webhook, WebhookDelivery } from '@quire/shared/schemas/webhook';
import { orgSeenBy } from '../access/resourceAccess';
import type { CommandContext } from '../platform/deps';
import { envelope } from '../views/listing';
import { presentDelivery, presentWebhook } from '../views/webhook';
import type { PageRequest } from '../../store/paginate';
import * as store from '../../store/webhooks';

/* The reads of the `/v1` webhook operations: an organization's admins only. */

/** A webhook of the organization, for its admins (403 for other members); 404 when there is none with that id. */
export async function webhookSeenBy(ctx: CommandContext, input: { organizationId: string; webhookId: string }): Promise<store.WebhookRow> {
  const { org } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId, 'manage');
  const hook = await store.getWebhook(ctx.deps.db, org.id, input.webhookId);
  if (!hook) throw notFound('webhook');
  return hook;
}

/** A page of the organization's webhooks. */
export async function listWebhooks(ctx: CommandContext, input: { organizationId: string; page: PageRequest }) {
  const { org } = await orgSeenBy(ctx.deps.db, ctx.access, input.organizationId, 'manage');
  const page = await store.listWebhooks(ctx.deps.db, org.id, input.page);
  return envelope(page, (w) => presentWebhook(w, ctx.baseUrl));
}

export async function getWebhook(ctx: CommandContext, input: { organizationId: string; webhookId: string }): Promise<Webhook> {
  return presentWebhook(await webhookSeenBy(ctx, input), ctx.baseUrl);
}

/** A page of a webhook's deliveries, of one status when given. */
export async function listDeliveries(
  ctx: CommandContext,
  input: { organizationId: string; webhookId: string; query: PageRequest & { status?: string } },
) {
  const hook = await webhookSeenBy(ctx, input);
  const page = await store.listDeliveries(ctx.deps.db, hook.id, input.query.status, input.query);
  return envelope(page, (d) => presentDelivery(d, hook, ctx.baseUrl));
}

/** One delivery of a webhook; 404 when it has none with that id. */
export async function getDelivery(
  ctx: CommandContext,
  input: { organizationId: string; webhookId: string; deliveryId: string },
): Promise<WebhookDelivery> {
  const hook = await webhookSeenBy(ctx, input);
  const d = await store.getDelivery(ctx.deps.db, hook.id, input.deliveryId);
  if (!d) throw notFound('delivery');
  return presentDelivery(d, hook, ctx.baseUrl);
}
