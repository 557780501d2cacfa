import { isMainThread } from 'node:worker_threads';

/**
 * Loaded before the server (`--import`) by tests of an instance whose announcements never
 * reach Redis after its commits: as if it died between its commit and its XADD, or Redis
 * refused the XADD. Its stored groups are in the database alone. The server's worker
 * threads load it too and are left alone.
 */
if (isMainThread) {
  const { RedisBus } = await import('../../sync-server/src/sync/RedisBus.ts');
  RedisBus.prototype.announce = () => {};
}
