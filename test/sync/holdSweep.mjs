import { isMainThread } from 'node:worker_threads';

/**
 * Loaded before the server (`--import`) by tests of what the bus alone delivers: the rooms'
 * periodic look at the log (every 5 s) never runs, so an edit reaches a room only when the
 * bus announces it or tells the room to catch up. The server's worker threads load it too
 * and are left alone.
 */
if (isMainThread) {
  const { SyncService } = await import('../../sync-server/src/sync/SyncService.ts');
  SyncService.prototype.sweep = async () => {};
}
