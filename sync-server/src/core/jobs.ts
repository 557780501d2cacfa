import type { Logger } from '../logger';
import type { Db } from '../store/db';
import { purgeOldKeys } from '../store/idempotency';
import { purgeDeletedSpaces } from '../store/spaces';

/** Background work on a timer: purging spaces past their retention and old idempotency keys. Returns a stop function. */
export function startJobs(db: Db, log: Logger, everyMs = 60 * 60 * 1000): () => void {
  const run = async () => {
    try {
      const purged = await purgeDeletedSpaces(db);
      if (purged.length) log.info({ purged }, 'purged deleted spaces');
      await purgeOldKeys(db);
    } catch (err) {
      log.error({ err }, 'space purge failed');
    }
  };
  void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
