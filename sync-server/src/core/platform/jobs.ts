import type { Logger } from '../../logger';
import type { Db } from '../../store/db';
import { purgeOldKeys } from '../../store/idempotency';
import { forgetOldInsights } from '../insights/commands';
import { purgeDeletedSpaces } from '../../store/spaces';
import { purgeSpentSyncTickets } from '../../store/syncRooms';
import { purgeOldDeliveries } from '../../store/webhooks';

/**
 * One round of background work: spaces past their retention are purged for good (in one
 * transaction, so a purge is never half done), old idempotency keys, finished webhook
 * deliveries (30 days) and the uses of expired sync tickets are dropped, site insights past their retention deleted, and the embedded database gets the upkeep a PostgreSQL
 * server does on its own.
 */
export async function runBackgroundJobs(
  db: Db,
  log: Logger,
  opts: { insightsRetentionDays: number } = { insightsRetentionDays: 400 },
): Promise<{ purgedSpaces: string[] }> {
  let purgedSpaces: string[] = [];
  try {
    purgedSpaces = await db.transaction((tx) => purgeDeletedSpaces(tx));
    if (purgedSpaces.length) log.info({ purged: purgedSpaces }, 'purged deleted spaces');
  } catch (err) {
    log.error({ err }, 'space purge failed');
  }
  try {
    await purgeOldKeys(db);
  } catch (err) {
    log.error({ err }, 'idempotency key purge failed');
  }
  try {
    await purgeOldDeliveries(db);
  } catch (err) {
    log.error({ err }, 'webhook delivery purge failed');
  }
  try {
    await purgeSpentSyncTickets(db);
  } catch (err) {
    log.error({ err }, 'sync ticket purge failed');
  }
  try {
    const { deleted } = await forgetOldInsights({ deps: { db, config: opts } });
    if (deleted) log.info({ deleted }, 'deleted site insights past their retention');
  } catch (err) {
    log.error({ err }, 'site insights retention failed');
  }
  if (db.kind === 'pglite') {
    // PostgreSQL's autovacuum does this on a server; the embedded database has no such
    // daemon, so without it the planner keeps the statistics of an empty database (a
    // 1000-member page then sorts the whole organization) and dead rows are never reclaimed.
    try {
      await vacuumEachTable(db);
    } catch (err) {
      log.error({ err }, 'database maintenance failed');
    }
  }
  return { purgedSpaces };
}

/**
 * The embedded database runs on the event loop: one VACUUM of every table would hold sync
 * and requests for most of a second. A table at a time, with the loop's other work (socket
 * reads, timers) let in between, keeps each pause to one table's.
 */
async function vacuumEachTable(db: Db) {
  const tables = await db.query<{ name: string }>(
    `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
      ORDER BY c.relname`,
  );
  for (const { name } of tables) {
    await new Promise((resolve) => setImmediate(resolve));
    await db.query(`VACUUM (ANALYZE) ${name}`);
  }
}

/**
 * Runs the background work on start and then on a timer. The returned stop function waits
 * for a round in progress, so the database is never closed under it.
 */
export function startJobs(
  db: Db,
  log: Logger,
  everyMs = 60 * 60 * 1000,
  opts: { insightsRetentionDays: number } = { insightsRetentionDays: 400 },
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = running.then(() => runBackgroundJobs(db, log, opts));
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
