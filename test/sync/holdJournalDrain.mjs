import { isMainThread } from 'node:worker_threads';

/**
 * Loaded before the server (`--import`) by tests that kill it before its journal is
 * drained: records then live in the journal alone, as on a machine too busy to drain.
 * The server's worker threads load it too and are left alone.
 */
if (isMainThread) {
  const { Journal } = await import('../../sync-server/src/store/journal/Journal.ts');
  Journal.prototype.drain = () => {};
}
