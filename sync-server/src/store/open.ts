import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';
import type { Db } from './db';
import { lockDataDir } from './lock';
import { migrate } from './migrate';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';
import { makeDataDirPrivate } from './privateDir';

export interface OpenedStore {
  db: Db;
  /** Releases the data-directory lock (PGlite only). */
  unlock: () => void;
}

/**
 * Opens the configured database and applies migrations. PGlite lives in
 * `DATA_DIR/pgdata` and is locked to this process; PostgreSQL needs no lock. The data
 * directory is made private first (see privateDir.ts).
 */
export async function openStore(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<OpenedStore> {
  // With PostgreSQL the data directory holds only this instance's own files, when it exists.
  if (!config.databaseUrl || existsSync(config.dataDir)) makeDataDirPrivate(config.dataDir);
  if (config.databaseUrl) {
    const db = await openPostgres(config.databaseUrl);
    await migrate(db);
    return { db, unlock: () => {} };
  }
  const unlock = lockDataDir(config.dataDir);
  try {
    const db = await openPglite(join(config.dataDir, 'pgdata'));
    await migrate(db);
    return { db, unlock };
  } catch (err) {
    unlock();
    throw err;
  }
}
