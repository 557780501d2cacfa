import { prepareTestDatabases } from '../sync-server/src/testing/databases';

/** Prepares one migrated database template per run; each test file then copies it. */
export default async function setup() {
  const cleanup = await prepareTestDatabases();
  return cleanup;
}
