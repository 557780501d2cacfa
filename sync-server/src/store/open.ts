import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './db';
import { Journal, type JournalLog } from './journal/Journal';
import { journaledDb } from './journal/journaledDb';
import { lockDataDir } from './lock';
import { migrate } from './migrate';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';
import { makeDataDirPrivate, makeTreePrivate } from './privateDir';

/** What opening the database needs to know. */
export interface StoreSettings {
  dataDir: string;
  databaseUrl?: string;
  /** Connections to PostgreSQL. */
  databasePoolSize?: number;
  /** Sync updates go through a journal in `dataDir/journal` (embedded database only). */
  syncJournal?: boolean;
  /** The embedded database's buffer pool in megabytes (Postgres's default when absent). */
  pgliteSharedBuffersMb?: number;
  /** The embedded database runs on the caller's thread when false (see `pgliteThread.ts`). */
  pgliteThread?: boolean;
}

/** What opening the store reports, and what it does when the journal can no longer promise durability. */
export interface StoreHooks {
  log?: JournalLog;
  /** A journal write or sync failed: the process must stop (it recovers on restart). Exits by default. */
  onJournalFatal?: (err: Error) => void;
}

const consoleLog: JournalLog = {
  warn: (obj, msg) => console.warn(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};

/** A failed journal write or sync: nothing later can be promised durable, so the process stops and recovers on restart. */
export function exitOnJournalFatal(log: JournalLog) {
  return (err: Error) => {
    log.error({ err }, 'a sync journal write or sync failed; stopping so that a restart recovers from what is on disk');
    process.exit(70);
  };
}

export interface OpenedStore {
  db: Db;
  /** Releases the data-directory lock (PGlite only). */
  unlock: () => void;
}

/**
 * Opens the configured database and applies migrations. PGlite lives in
 * `DATA_DIR/pgdata` and is locked to this process; PostgreSQL needs no lock. With the
 * sync journal, the records past its checkpoint are replayed into PGlite here, before
 * anything reads it. The data
 * directory is made private first (see privateDir.ts).
 */
export async function openStore(config: StoreSettings, hooks: StoreHooks = {}): Promise<OpenedStore> {
  // With PostgreSQL the data directory holds only this instance's own files, when it exists.
  if (!config.databaseUrl || existsSync(config.dataDir)) makeDataDirPrivate(config.dataDir);
  if (config.databaseUrl) {
    const db = await openPostgres(config.databaseUrl, { poolSize: config.databasePoolSize });
    await migrate(db);
    return { db, unlock: () => {} };
  }
  const unlock = lockDataDir(config.dataDir);
  try {
    const raw = await openPglite(join(config.dataDir, 'pgdata'), undefined, {
      sharedBuffersMb: config.pgliteSharedBuffersMb,
      thread: config.pgliteThread,
    });
    await migrate(raw);
    // PGlite creates its files 0666 whatever the umask: those of its start (caches, WAL) are made private now.
    makeTreePrivate(join(config.dataDir, 'pgdata'));
    if (config.syncJournal === false) return { db: raw, unlock };
    const log = hooks.log ?? consoleLog;
    const journal = await Journal.open(join(config.dataDir, 'journal'), raw, log, hooks.onJournalFatal ?? exitOnJournalFatal(log));
    makeTreePrivate(join(config.dataDir, 'pgdata'));
    return { db: journaledDb(raw, journal), unlock };
  } catch (err) {
    unlock();
    throw err;
  }
}
