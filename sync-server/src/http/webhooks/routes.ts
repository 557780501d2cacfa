import { IdSchema, ListQuerySchema, listOf } from '@quire/shared';
import {
  CreateWebhookBody,
  CreatedWebhookSchema,
  ListWebhookDeliveriesQuery,
  UpdateWebhookBody,
  WebhookDeliverySchema,
  WebhookSchema,
} from '@quire/shared/schemas/webhook';
import { apiRoute, body, json, noContent } from '../openapi';
import { OrgParams } from '../params';

const tags = ['Webhooks'];
const HOOKS = '/v1/orgs/{organizationId}/webhooks';
const HOOK = `${HOOKS}/{webhookId}`;
const WebhookParams = OrgParams.extend({ webhookId: IdSchema });
const DeliveryParams = WebhookParams.extend({ deliveryId: IdSchema });

/** Every webhook operation is an extension beside the specification, for admins of the organization. */
const extension = (description: string) => ({
  description: `An extension beside the specification, for admins of the organization. ${description}`,
  'x-quire-extension': true,
});

export const listWebhooks = apiRoute({
  method: 'get',
  path: HOOKS,
  tags,
  summary: 'List webhooks',
  ...extension('Oldest first.'),
  request: { params: OrgParams, query: ListQuerySchema },
  responses: { 200: json(listOf(WebhookSchema)) },
});
export const createWebhook = apiRoute({
  method: 'post',
  path: HOOKS,
  tags,
  summary: 'Create a webhook',
  ...extension(
    'The answer carries the signing secret, once. Each delivery is a POST of the event as JSON, signed in `Quire-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>`; a 2xx answer acknowledges it, anything else is retried with backoff, and a webhook failing for a day is turned off.',
  ),
  request: { params: OrgParams, body: body(CreateWebhookBody) },
  responses: { 201: json(CreatedWebhookSchema) },
});
export const getWebhook = apiRoute({
  method: 'get',
  path: HOOK,
  tags,
  summary: 'Get a webhook',
  ...extension('The secret is not shown again.'),
  request: { params: WebhookParams },
  responses: { 200: json(WebhookSchema) },
});
export const updateWebhook = apiRoute({
  method: 'patch',
  path: HOOK,
  tags,
  summary: 'Change a webhook, or turn it on or off',
  ...extension('`enabled: true` turns a webhook disabled after failures back on; its failures are forgotten.'),
  request: { params: WebhookParams, body: body(UpdateWebhookBody) },
  responses: { 200: json(WebhookSchema) },
});
export const deleteWebhook = apiRoute({
  method: 'delete',
  path: HOOK,
  tags,
  summary: 'Delete a webhook',
  ...extension('Deliveries not sent yet are dropped.'),
  request: { params: WebhookParams },
  responses: noContent,
});
export const listDeliveries = apiRoute({
  method: 'get',
  path: `${HOOK}/deliveries`,
  tags,
  summary: 'Deliveries of a webhook, newest first, with each attempt',
  ...extension('Each attempt shows the receiver’s HTTP status, or why no answer came.'),
  request: { params: WebhookParams, query: ListWebhookDeliveriesQuery },
  responses: { 200: json(listOf(WebhookDeliverySchema)) },
});
export const getDelivery = apiRoute({
  method: 'get',
  path: `${HOOK}/deliveries/{deliveryId}`,
  tags,
  summary: 'A delivery of a webhook',
  ...extension(''),
  request: { params: DeliveryParams },
  responses: { 200: json(WebhookDeliverySchema) },
});
export const redeliver = apiRoute({
  method: 'post',
  path: `${HOOK}/deliveries/{deliveryId}/redeliver`,
  tags,
  summary: 'Send a delivery again',
  ...extension('Queues a new delivery of the same event (same body and event id), sent at once even if the webhook is failing.'),
  request: { params: DeliveryParams },
  responses: { 201: json(WebhookDeliverySchema) },
});
