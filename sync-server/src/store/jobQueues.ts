import type { Queryable } from './db';

export interface JobQueueDepths {
  webhookDeliveries: number;
  openapiSpecs: number;
  translations: number;
}

/** Background work waiting or under way, queue by queue: one statement, each count on an index or a small table. */
export async function jobQueueDepths(db: Queryable): Promise<JobQueueDepths> {
  const [row] = await db.query<{ webhooks: string; specs: string; translations: string }>(
    `SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') AS webhooks,
            (SELECT count(*) FROM openapi_specs WHERE processing_state IN ('pending', 'progress')) AS specs,
            (SELECT count(*) FROM translations WHERE status IN ('pending', 'running')) AS translations`,
  );
  return {
    webhookDeliveries: Number(row?.webhooks ?? 0),
    openapiSpecs: Number(row?.specs ?? 0),
    translations: Number(row?.translations ?? 0),
  };
}
