import { Worker } from 'node:worker_threads';

/**
 * YAML specs are parsed in a worker thread with a memory and a time budget, and their size
 * once aliases are resolved is counted before anything is built: a small document with an
 * anchor and many aliases to it (an "alias bomb") would otherwise take gigabytes and stall
 * every request while it expands.
 */
export const YAML_LIMITS = {
  /** Nodes once every alias is expanded; large real specs have a few hundred thousand. */
  maxNodes: 2_000_000,
  /** Heap of the parsing worker. */
  maxHeapMb: 512,
  timeoutMs: 20_000,
};

export type YamlResult = { ok: true; value: unknown } | { ok: false; message: string };

const WORKER = new URL('./yamlWorker.mjs', import.meta.url);

export function parseYamlIsolated(text: string, limits = YAML_LIMITS): Promise<YamlResult> {
  return new Promise((resolve) => {
    let settled = false;
    const worker = new Worker(WORKER, {
      workerData: { text, maxNodes: limits.maxNodes },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: 64 },
    });
    const settle = (r: YamlResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(r);
    };
    const timer = setTimeout(
      () => settle({ ok: false, message: `parsing took longer than ${limits.timeoutMs / 1000} s (too many aliases or too large)` }),
      limits.timeoutMs,
    );
    worker.once('message', (m: { ok: true; value: unknown } | { ok: false; message: string }) => settle(m));
    worker.once('error', (err: Error & { code?: string }) =>
      settle({
        ok: false,
        message: err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `it needs more than ${limits.maxHeapMb} MB to parse` : err.message,
      }),
    );
    worker.once('exit', () => settle({ ok: false, message: 'the parser stopped unexpectedly' }));
  });
}
