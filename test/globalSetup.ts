import { prepareTestDatabases } from '../sync-server/src/testing/databases';
import { buildProcessBundles } from './serverBundles';

/**
 * Once per run: a migrated database template that each test file copies, and the bundles
 * that tests start as server and local-node processes.
 */
export default async function setup() {
  const removeBundles = await buildProcessBundles();
  const cleanup = await prepareTestDatabases();
  return async () => {
    removeBundles();
    await cleanup();
  };
}
