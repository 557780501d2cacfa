import type { Webhook, WebhookDelivery, WebhookEvent } from '@quire/shared/schemas/webhook';
import type { DeliveryRow, WebhookRow } from '../../store/webhooks';
import { shownUrl } from '../security/shownUrl';
import { iso } from './iso';

export function webhookPath(w: Pick<WebhookRow, 'org_id' | 'id'>) {
  return `/v1/orgs/${w.org_id}/webhooks/${w.id}`;
}

export function presentWebhook(w: WebhookRow, base: string): Webhook {
  const location = `${base}${webhookPath(w)}`;
  return {
    object: 'webhook',
    id: w.id,
    // Credentials in the URL are a secret like the signing one: used for delivery, never shown.
    url: shownUrl(w.url),
    events: w.events as WebhookEvent[],
    spaces: w.space_ids,
    ...(w.description ? { description: w.description } : {}),
    enabled: w.enabled,
    ...(w.disabled_reason && !w.enabled ? { disabledReason: w.disabled_reason } : {}),
    ...(w.failing_since ? { failingSince: iso(w.failing_since) } : {}),
    createdAt: iso(w.created_at) as string,
    updatedAt: iso(w.updated_at) as string,
    urls: { location, deliveries: `${location}/deliveries` },
    // Only admins reach webhooks at all.
    permissions: { view: true, edit: true },
  };
}

export function presentDelivery(d: DeliveryRow, w: Pick<WebhookRow, 'org_id' | 'id'>, base: string): WebhookDelivery {
  return {
    object: 'webhook-delivery',
    id: d.id,
    eventId: d.event_id,
    event: d.event as WebhookEvent,
    status: d.status,
    ...(d.response_status !== null ? { responseStatus: d.response_status } : {}),
    attempts: d.attempts,
    ...(d.status === 'pending' ? { nextAttemptAt: iso(d.next_attempt_at) } : {}),
    ...(d.delivered_at ? { deliveredAt: iso(d.delivered_at) } : {}),
    ...(d.redelivery_of ? { redeliveryOf: d.redelivery_of } : {}),
    createdAt: iso(d.created_at) as string,
    body: d.body,
    urls: { location: `${base}${webhookPath(w)}/deliveries/${d.id}` },
    permissions: { view: true, edit: true },
  };
}
