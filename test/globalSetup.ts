import { prepareTestDatabases } from '../sync-server/src/testing/databases';
import { startSharedChromium } from './chromium';
import { buildProcessBundles } from './serverBundles';

/**
 * Once per run: a migrated database template that each test file copies, and the bundles
 * that tests start as server and local-node processes, and the Chromium browser tests share.
 */
export default async function setup() {
  // Every server and local node a test starts zeroes its database's buffer pool first: at
  // Postgres's 128 MB that is most of a second of CPU each, hundreds of times a run.
  process.env.PGLITE_SHARED_BUFFERS_MB ??= '8';
  const removeBundles = await buildProcessBundles();
  const cleanup = await prepareTestDatabases();
  const closeChromium = await startSharedChromium();
  return async () => {
    await closeChromium?.();
    removeBundles();
    await cleanup();
  };
}
