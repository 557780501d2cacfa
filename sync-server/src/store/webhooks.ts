import { newId } from '@quire/shared';
import { type Queryable, maybeOne, one } from './db';
import { type PageRequest, keysetPage } from './paginate';

export interface WebhookRow {
  id: string;
  seq: number;
  org_id: string;
  url: string;
  events: string[];
  space_ids: string[];
  secret: string;
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  api_base: string;
  failing_since: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface NewWebhook {
  orgId: string;
  url: string;
  events: string[];
  spaceIds: string[];
  secret: string;
  description: string | null;
  enabled: boolean;
  apiBase: string;
  createdBy: string;
}

export async function insertWebhook(db: Queryable, w: NewWebhook): Promise<WebhookRow> {
  return one<WebhookRow>(
    db,
    `INSERT INTO webhooks (id, org_id, url, events, space_ids, secret, description, enabled, api_base, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
    [newId(), w.orgId, w.url, w.events, w.spaceIds, w.secret, w.description, w.enabled, w.apiBase, w.createdBy],
  );
}

export function getWebhook(db: Queryable, orgId: string, id: string) {
  return maybeOne<WebhookRow>(db, 'SELECT * FROM webhooks WHERE org_id = $1 AND id = $2', [orgId, id]);
}

export function listWebhooks(db: Queryable, orgId: string, page: PageRequest) {
  return keysetPage<WebhookRow>(db, { columns: 'w.*', from: 'FROM webhooks w WHERE w.org_id = $1', params: [orgId], seq: 'w.seq' }, page);
}

export interface WebhookChanges {
  url?: string;
  events?: string[];
  spaceIds?: string[];
  description?: string | null;
  enabled?: boolean;
}

/** Turning a webhook back on forgets its failures: it gets a new day before it is disabled again. */
export async function updateWebhook(db: Queryable, id: string, ch: WebhookChanges): Promise<WebhookRow | undefined> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  const set = (col: string, v: unknown) => {
    params.push(v);
    sets.push(`${col} = $${params.length}`);
  };
  if (ch.url !== undefined) set('url', ch.url);
  if (ch.events !== undefined) set('events', ch.events);
  if (ch.spaceIds !== undefined) set('space_ids', ch.spaceIds);
  if (ch.description !== undefined) set('description', ch.description);
  if (ch.enabled !== undefined) {
    set('enabled', ch.enabled);
    if (ch.enabled) sets.push('disabled_reason = NULL', 'failing_since = NULL');
    else sets.push(`disabled_reason = 'Turned off by an admin.'`);
  }
  sets.push('updated_at = now()');
  return maybeOne<WebhookRow>(db, `UPDATE webhooks SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, params);
}

export async function deleteWebhook(db: Queryable, orgId: string, id: string) {
  await db.query('DELETE FROM webhooks WHERE org_id = $1 AND id = $2', [orgId, id]);
}

/** Enabled webhooks of an organization that want `event` from `spaceId` (null: an organization-wide event). */
export function subscribedWebhooks(db: Queryable, orgId: string, event: string, spaceId: string | null) {
  return db.query<{ id: string; api_base: string }>(
    `SELECT id, api_base FROM webhooks
      WHERE org_id = $1 AND enabled AND $2 = ANY(events)
        AND ($3::text IS NULL OR cardinality(space_ids) = 0 OR $3 = ANY(space_ids))
      ORDER BY seq`,
    [orgId, event, spaceId],
  );
}

export interface NewDelivery {
  webhookId: string;
  eventId: string;
  event: string;
  body: string;
  due: Date;
  redeliveryOf?: string;
}

export async function insertDeliveries(db: Queryable, rows: NewDelivery[]): Promise<string[]> {
  const ids: string[] = [];
  for (const r of rows) {
    const id = newId();
    await db.query(
      `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event, body, next_attempt_at, redelivery_of, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $6)`,
      [id, r.webhookId, r.eventId, r.event, r.body, r.due, r.redeliveryOf ?? null],
    );
    ids.push(id);
  }
  return ids;
}

export interface DeliveryRow {
  id: string;
  seq: number;
  webhook_id: string;
  event_id: string;
  event: string;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  next_attempt_at: Date;
  attempt_count: number;
  attempts: { at: string; responseStatus?: number; error?: string; durationMs: number }[];
  response_status: number | null;
  delivered_at: Date | null;
  redelivery_of: string | null;
  created_at: Date;
}

export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  body: string;
  attempt_count: number;
  created_at: Date;
  url: string;
  secret: string;
}

/**
 * Takes up to `limit` due deliveries of enabled webhooks and leases them until `leaseUntil`:
 * their due time moves there, so no other sender takes them while this one sends, and a
 * sender that dies mid-send leaves them due again once the lease is over. SKIP LOCKED lets
 * instances claim side by side without waiting on each other's rows. `skipWebhooks` are
 * those with as many sends in flight here as they may have.
 */
export function claimDueDeliveries(db: Queryable, now: Date, leaseUntil: Date, limit: number, skipWebhooks: string[] = []) {
  return db.query<ClaimedDelivery>(
    `WITH due AS (
       SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.enabled
        WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND NOT (d.webhook_id = ANY($4::text[]))
        ORDER BY d.next_attempt_at, d.seq
        LIMIT $3
        FOR UPDATE OF d SKIP LOCKED
     )
     UPDATE webhook_deliveries d SET next_attempt_at = $2
       FROM due, webhooks w
      WHERE d.id = due.id AND w.id = d.webhook_id
     RETURNING d.id, d.webhook_id, d.event_id, d.event, d.body, d.attempt_count, d.created_at, w.url, w.secret`,
    [now, leaseUntil, limit, skipWebhooks],
  );
}

/** When the next pending delivery of an enabled webhook is due, if any. */
export async function nextDueAt(db: Queryable): Promise<Date | undefined> {
  const row = await maybeOne<{ due: Date | null }>(
    db,
    `SELECT min(d.next_attempt_at) AS due FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.enabled
      WHERE d.status = 'pending'`,
  );
  return row?.due ? new Date(row.due) : undefined;
}

export interface AttemptOutcome {
  at: Date;
  responseStatus?: number;
  error?: string;
  durationMs: number;
  /** The row's next state: delivered, due again at `retryAt`, or given up. */
  status: 'delivered' | 'pending' | 'failed';
  retryAt?: Date;
}

export async function recordAttempt(db: Queryable, id: string, o: AttemptOutcome) {
  const entry = {
    at: o.at.toISOString(),
    ...(o.responseStatus !== undefined ? { responseStatus: o.responseStatus } : {}),
    ...(o.error ? { error: o.error } : {}),
    durationMs: o.durationMs,
  };
  await db.query(
    `UPDATE webhook_deliveries
        SET status = $2, attempt_count = attempt_count + 1, attempts = attempts || $3::jsonb,
            response_status = $4, next_attempt_at = COALESCE($5, next_attempt_at),
            delivered_at = CASE WHEN $2 = 'delivered' THEN $6::timestamptz ELSE delivered_at END
      WHERE id = $1`,
    [id, o.status, JSON.stringify([entry]), o.responseStatus ?? null, o.retryAt ?? null, o.at],
  );
}

/** Notes a failure; answers since when the webhook has been failing. */
export async function markWebhookFailing(db: Queryable, id: string, at: Date): Promise<Date | undefined> {
  const row = await maybeOne<{ failing_since: Date }>(
    db,
    'UPDATE webhooks SET failing_since = COALESCE(failing_since, $2) WHERE id = $1 RETURNING failing_since',
    [id, at],
  );
  return row ? new Date(row.failing_since) : undefined;
}

export async function markWebhookHealthy(db: Queryable, id: string) {
  await db.query('UPDATE webhooks SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL', [id]);
}

/** Turns a webhook off for good (until an admin turns it on); its pending deliveries fail. */
export async function disableWebhook(db: Queryable, id: string, reason: string) {
  await db.query('UPDATE webhooks SET enabled = false, disabled_reason = $2, updated_at = now() WHERE id = $1 AND enabled', [id, reason]);
  await db.query("UPDATE webhook_deliveries SET status = 'failed' WHERE webhook_id = $1 AND status = 'pending'", [id]);
}

export function listDeliveries(db: Queryable, webhookId: string, status: string | undefined, page: PageRequest) {
  const params: unknown[] = [webhookId];
  let where = 'WHERE d.webhook_id = $1';
  if (status) {
    params.push(status);
    where += ` AND d.status = $${params.length}`;
  }
  // Newest first: what an admin looks for is the last thing that happened.
  return keysetPage<DeliveryRow>(
    db,
    { columns: 'd.*', from: `FROM webhook_deliveries d ${where}`, params, seq: 'd.seq', order: 'desc' },
    page,
  );
}

export function getDelivery(db: Queryable, webhookId: string, id: string) {
  return maybeOne<DeliveryRow>(db, 'SELECT * FROM webhook_deliveries WHERE webhook_id = $1 AND id = $2', [webhookId, id]);
}

export async function changeRequestNumber(db: Queryable, id: string): Promise<number | undefined> {
  const row = await maybeOne<{ number: number }>(db, 'SELECT number FROM change_requests WHERE id = $1', [id]);
  return row ? Number(row.number) : undefined;
}

export async function orgOfSpace(db: Queryable, spaceId: string): Promise<string | undefined> {
  return (await maybeOne<{ org_id: string }>(db, 'SELECT org_id FROM spaces WHERE id = $1', [spaceId]))?.org_id;
}

/** Which of `ids` are live spaces of the organization. */
export async function spacesOfOrg(db: Queryable, orgId: string, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db.query<{ id: string }>('SELECT id FROM spaces WHERE org_id = $1 AND id = ANY($2) AND deleted_at IS NULL', [
    orgId,
    ids,
  ]);
  return rows.map((r) => r.id);
}

/** Senders listen here to hear of new deliveries at once (on every instance, through PostgreSQL). */
export const WEBHOOK_CHANNEL = 'quire_webhooks';

/** Wakes the senders; inside a transaction, on its commit only (a rolled back change wakes no one). */
export async function wakeSenders(db: Queryable) {
  await db.query('SELECT pg_notify($1, $2)', [WEBHOOK_CHANNEL, '']);
}

/** Deliveries done with (sent or given up) are kept this long for the deliveries list. */
export async function purgeOldDeliveries(db: Queryable, keepDays = 30): Promise<void> {
  await db.query(`DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < now() - make_interval(days => $1)`, [keepDays]);
}
