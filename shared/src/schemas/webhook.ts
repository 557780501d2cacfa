import { z } from 'zod';
import { IdSchema, ListQuerySchema, Timestamp, patchBody, text } from './common';
import { HttpUrlSchema } from './organization';

/** What a webhook can subscribe to. */
export const WEBHOOK_EVENTS = [
  'page.content_changed',
  'change_request.created',
  'change_request.updated',
  'change_request.merged',
  'change_request.closed',
  'comment.created',
  'comment.resolved',
  'site.published',
] as const;
export const WebhookEventSchema = z.enum(WEBHOOK_EVENTS).meta({ id: 'WebhookEvent' });
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

const Events = z
  .array(WebhookEventSchema)
  .min(1, 'must name at least one event')
  .max(WEBHOOK_EVENTS.length * 2);
/** Empty or absent: every space of the organization. */
const SpaceFilter = z.array(IdSchema).max(100);

export const WebhookSchema = z
  .object({
    object: z.literal('webhook'),
    id: z.string(),
    url: z.string(),
    events: z.array(WebhookEventSchema),
    /** The spaces whose events are sent; empty: every space (site and organization events are always sent). */
    spaces: z.array(z.string()),
    description: z.string().optional(),
    /** False once turned off by an admin, or after a day of failed deliveries. */
    enabled: z.boolean(),
    disabledReason: z.string().optional(),
    /** Deliveries have failed since then (cleared by the next success). */
    failingSince: Timestamp.optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    urls: z.object({ location: z.string(), deliveries: z.string() }),
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof WebhookSchema>;

/** The create answer: the only time the signing secret is shown. */
export const CreatedWebhookSchema = WebhookSchema.extend({
  secret: z.string().meta({ description: 'Signs every delivery (`Quire-Signature`). Shown once: keep it.' }),
}).meta({ id: 'CreatedWebhook' });

export const CreateWebhookBody = z.strictObject({
  url: HttpUrlSchema,
  events: Events,
  spaces: SpaceFilter.optional(),
  description: text(500).optional(),
  enabled: z.boolean().optional(),
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const UpdateWebhookBody = patchBody({
  url: HttpUrlSchema.optional(),
  events: Events.optional(),
  spaces: SpaceFilter.optional(),
  description: text(500).nullable().optional(),
  /** `true` turns a webhook disabled after failures back on. */
  enabled: z.boolean().optional(),
});
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;

export const WebhookAttemptSchema = z
  .object({
    at: Timestamp,
    /** The receiver's HTTP status; absent when no answer came (refused, timeout, network). */
    responseStatus: z.number().int().optional(),
    error: z.string().optional(),
    durationMs: z.number().int(),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookDeliverySchema = z
  .object({
    object: z.literal('webhook-delivery'),
    id: z.string(),
    /** The event's id: the same across redeliveries, so a receiver can drop duplicates. */
    eventId: z.string(),
    event: WebhookEventSchema,
    status: z.enum(WEBHOOK_DELIVERY_STATES),
    /** The last attempt's HTTP status. */
    responseStatus: z.number().int().optional(),
    attempts: z.array(WebhookAttemptSchema),
    nextAttemptAt: Timestamp.optional(),
    deliveredAt: Timestamp.optional(),
    /** The delivery this one sends again. */
    redeliveryOf: z.string().optional(),
    createdAt: Timestamp,
    /** The JSON sent, byte for byte as signed: the same on every attempt and redelivery. */
    body: z.string(),
    urls: z.object({ location: z.string() }),
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const ListWebhookDeliveriesQuery = ListQuerySchema.extend({
  status: z.enum(WEBHOOK_DELIVERY_STATES).optional(),
});
