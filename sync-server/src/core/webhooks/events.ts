import { newId } from '@quire/shared';
import type { WebhookEvent } from '@quire/shared/schemas/webhook';
import type { Queryable } from '../../store/db';
import type { Db } from '../../store/db';
import { type DeliveryRow, changeRequestNumber, insertDeliveries, subscribedWebhooks, wakeSenders } from '../../store/webhooks';

export { WEBHOOK_CHANNEL } from '../../store/webhooks';

export interface WebhookEventInput {
  type: WebhookEvent;
  orgId: string;
  /** Absent for events of the organization (a site). */
  spaceId?: string | null;
  /** Its `number` is looked up when left out (and some webhook wants the event). */
  changeRequest?: { id: string; number?: number } | null;
  revisionId?: string | null;
  /** The payload's `data`: what this kind of event adds, its links under the receiving webhook's base URL. */
  data?: (base: string) => Record<string, unknown>;
}

/** `/v1/spaces/<id>` or a change request's `/v1/spaces/<id>/change-requests/<crId>`: content links hang under it. */
export function branchPath(spaceId: string, changeRequestId?: string | null): string {
  return changeRequestId ? `/v1/spaces/${spaceId}/change-requests/${changeRequestId}` : `/v1/spaces/${spaceId}`;
}

function payload(e: WebhookEventInput, id: string, createdAt: string, base: string) {
  const space = e.spaceId ? { id: e.spaceId, url: `${base}/v1/spaces/${e.spaceId}` } : null;
  const branch = e.spaceId ? `${base}${branchPath(e.spaceId, e.changeRequest?.id)}` : undefined;
  return {
    object: 'webhook-event',
    id,
    type: e.type,
    createdAt,
    organization: { id: e.orgId, url: `${base}/v1/orgs/${e.orgId}` },
    space,
    changeRequest: e.changeRequest && e.spaceId ? { ...e.changeRequest, url: branch } : null,
    revision: e.revisionId && branch ? { id: e.revisionId, url: `${branch}/content` } : null,
    data: e.data?.(base) ?? {},
  };
}

/**
 * Queues the event for every webhook that wants it, in the caller's transaction: the
 * deliveries exist exactly when the change does. Costs one indexed read when no webhook
 * listens.
 */
export async function recordWebhookEvent(tx: Queryable, e: WebhookEventInput): Promise<void> {
  const hooks = await subscribedWebhooks(tx, e.orgId, e.type, e.spaceId ?? null);
  if (!hooks.length) return;
  if (e.changeRequest && e.changeRequest.number === undefined) {
    e = { ...e, changeRequest: { ...e.changeRequest, number: await changeRequestNumber(tx, e.changeRequest.id) } };
  }
  const id = newId();
  const now = new Date();
  const createdAt = now.toISOString();
  await insertDeliveries(
    tx,
    hooks.map((h) => ({
      webhookId: h.id,
      eventId: id,
      event: e.type,
      body: JSON.stringify(payload(e, id, createdAt, h.api_base)),
      due: now,
    })),
  );
  await wakeSenders(tx);
}

/** Queues the same event again for the same webhook: same body and event id, a new delivery id, due now. */
export async function queueRedelivery(db: Db, d: DeliveryRow): Promise<string> {
  return db.transaction(async (tx) => {
    const [id] = await insertDeliveries(tx, [
      { webhookId: d.webhook_id, eventId: d.event_id, event: d.event, body: d.body, due: new Date(), redeliveryOf: d.id },
    ]);
    await wakeSenders(tx);
    return id as string;
  });
}
