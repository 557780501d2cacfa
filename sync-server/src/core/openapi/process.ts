import type { OpenAPIErrorCode } from '@quire/shared/schemas/openapi';
import type { Deps } from '../platform/deps';
import * as specs from '../../store/openapiSpecs';
import { FetchError, guardedFetch } from '../security/fetchGuard';
import { parseSpecText, type SpecProblem } from './parse';

/** Limits of a spec fetch: generous for large public APIs, bounded so one spec cannot exhaust memory. */
export interface SpecFetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

export const DEFAULT_SPEC_FETCH_LIMITS: SpecFetchLimits = { timeoutMs: 30_000, maxBytes: 20 * 1024 * 1024 };

type ProcessingDeps = Pick<Deps, 'db' | 'config' | 'log'>;

class ProcessingFailure extends Error {
  constructor(
    readonly code: OpenAPIErrorCode,
    readonly errors: SpecProblem[],
  ) {
    super(errors[0]?.message ?? code);
  }
}

const running = new Map<string, Promise<void>>();

/**
 * Starts processing a spec in the background and returns at once; the returned promise
 * settles when this run ends (tests and shutdown may await it, requests never do).
 */
export function scheduleSpecProcessing(deps: ProcessingDeps, specId: string, limits = DEFAULT_SPEC_FETCH_LIMITS): Promise<void> {
  const previous = running.get(specId) ?? Promise.resolve();
  // Runs of one spec queue up; the generation check makes any stale one a no-op.
  const run = previous
    .then(() => processSpec(deps, specId, limits))
    .catch((err) => deps.log.error({ err, specId }, 'spec processing crashed'));
  running.set(specId, run);
  void run.finally(() => {
    if (running.get(specId) === run) running.delete(specId);
  });
  return run;
}

/**
 * One processing of a spec's current source: pending → progress → complete (a new version)
 * or failed (with the error code and problems). The generation read at the start guards
 * every write, so a put that lands meanwhile wins over this older run.
 */
export async function processSpec(deps: ProcessingDeps, specId: string, limits = DEFAULT_SPEC_FETCH_LIMITS): Promise<void> {
  const { db } = deps;
  const spec = await specs.getSpecForProcessing(db, specId);
  if (!spec) return;
  const generation = spec.generation;
  if (!(await specs.markInProgress(db, specId, generation))) return;
  try {
    const text = spec.source_url ? await fetchSpecText(spec.source_url, deps.config.allowPrivateFetch, limits) : (spec.source_text ?? '');
    const parsed = await parseSpecText(text);
    if (!parsed.ok) throw new ProcessingFailure(parsed.code, parsed.errors);
    const apiVersion = parsed.document.info?.version;
    await db.transaction((tx) =>
      specs.completeProcessing(tx, specId, generation, parsed.document, apiVersion === undefined ? null : String(apiVersion)),
    );
  } catch (err) {
    const failure =
      err instanceof ProcessingFailure
        ? err
        : new ProcessingFailure('INTERNAL_ERROR', [
            { code: 'INTERNAL_ERROR', message: 'Processing failed unexpectedly; the error has been logged.' },
          ]);
    if (!(err instanceof ProcessingFailure)) deps.log.error({ err, specId }, 'spec processing failed unexpectedly');
    await specs.failProcessing(db, specId, generation, failure.code, failure.errors);
  }
}

async function fetchSpecText(url: string, allowPrivate: boolean, limits: SpecFetchLimits): Promise<string> {
  let res: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    res = await guardedFetch(url, { allowPrivate, timeoutMs: limits.timeoutMs, maxBytes: limits.maxBytes });
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    const code: OpenAPIErrorCode = err.failure === 'TIMEOUT' ? 'FETCH_TIMEOUT' : err.failure === 'TOO_LARGE' ? 'TOO_LARGE' : 'FETCH_FAILED';
    throw new ProcessingFailure(code, [{ code, message: err.message }]);
  }
  if (res.status < 200 || res.status >= 300) {
    throw new ProcessingFailure('FETCH_FAILED', [{ code: 'FETCH_FAILED', message: `Fetching ${url} answered HTTP ${res.status}.` }]);
  }
  return res.body.toString('utf8');
}

/** Resumes specs whose processing a stopped process left unfinished; call once on start. */
export async function resumeUnfinishedSpecs(deps: ProcessingDeps): Promise<number> {
  const rows = await specs.unfinishedSpecs(deps.db);
  for (const r of rows) void scheduleSpecProcessing(deps, r.id);
  return rows.length;
}
