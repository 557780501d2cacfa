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

/** Resumes runs no process is doing: those whose instance died mid-run (their lease ran out). Answers their ids. */
export async function resumeAbandonedRuns(deps: ScheduleDeps, provider?: TranslationProvider): Promise<string[]> {
  const ids = await store.abandonedRuns(deps.db);
  for (const id of ids) void scheduleTranslationRun(deps, id, provider, { takeover: true });
  return ids;
}

/** How often runs left by a dead instance are looked for: a quarter of a lease. */
const TAKEOVER_MS = store.RUN_LEASE_MS / 4;

/**
 * Looks for due translations every few minutes (each has its own interval: hourly, daily,
 * weekly), and for abandoned runs every few seconds. The returned function stops looking.
 */
export function startTranslationSchedule(deps: ScheduleDeps, everyMs = 5 * 60 * 1000): () => void {
  const timer = setInterval(() => {
    runDueTranslations(deps).catch((err) => deps.log.error({ err }, 'scheduled translation runs failed'));
  }, everyMs);
  timer.unref();
  const takeover = setInterval(() => {
    resumeAbandonedRuns(deps).catch((err) => deps.log.error({ err }, 'resuming abandoned translation runs failed'));
  }, TAKEOVER_MS);
  takeover.unref();
  return () => {
    clearInterval(timer);
    clearInterval(takeover);
  };
}
