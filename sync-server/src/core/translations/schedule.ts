import type { Deps } from '../platform/deps';
import * as store from '../../store/translations';
import { type TranslationProvider } from './provider';
import { scheduleTranslationRun } from './run';

type ScheduleDeps = Pick<Deps, 'db' | 'log' | 'config'>;

/** Starts a run of every scheduled translation that is due at `now`; answers their ids. */
export async function runDueTranslations(deps: ScheduleDeps, now = new Date(), provider?: TranslationProvider): Promise<string[]> {
  const due = await store.dueScheduledTranslations(deps.db, now);
  for (const id of due) {
    await store.requestRun(deps.db, id);
    void scheduleTranslationRun(deps, id, provider);
  }
  return due;
}

/**
 * Looks for due translations every few minutes (each has its own interval: hourly, daily,
 * weekly). The returned function stops looking.
 */
export function startTranslationSchedule(deps: ScheduleDeps, everyMs = 5 * 60 * 1000): () => void {
  const timer = setInterval(() => {
    runDueTranslations(deps).catch((err) => deps.log.error({ err }, 'scheduled translation runs failed'));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
