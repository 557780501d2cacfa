import type { Queryable } from '../store/db';
import { allSiteHostnames } from '../store/sites';

/**
 * The custom hostnames of sites, kept in memory so that routing a request by its Host
 * header costs no query. Refreshed at most every few seconds (another instance may have
 * set a hostname) and at once after a change made by this process.
 */
const REFRESH_MS = 5000;

interface Known {
  generation: number;
  names: Set<string>;
  loadedAt: number;
  loading?: Promise<void>;
}

const byDb = new WeakMap<Queryable, Known>();
let generation = 0;

/** Drops what is known, so the next request reads the hostnames again. */
export function forgetSiteHostnames() {
  generation++;
}

export async function isSiteHostname(db: Queryable, host: string): Promise<boolean> {
  let k = byDb.get(db);
  if (!k || k.generation !== generation || Date.now() - k.loadedAt > REFRESH_MS) {
    const state: Known = k ?? { generation, names: new Set(), loadedAt: 0 };
    const wanted = generation;
    byDb.set(db, state);
    state.loading ??= allSiteHostnames(db)
      .then((names) => {
        state.names = new Set(names);
        state.loadedAt = Date.now();
        state.generation = wanted;
      })
      .finally(() => {
        state.loading = undefined;
      });
    await state.loading;
    k = state;
  }
  return k.names.has(host);
}
