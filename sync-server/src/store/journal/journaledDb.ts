import { type Db, type Queryable, mayWrite } from '../db';
import type { JournalRecord } from './frames';
import type { Journal } from './Journal';
import { SectionGate } from './SectionGate';

/** Statements that read or write the sync log name one of its tables. */
const TOUCHES_LOG = /\bydoc/i;

/** What the sync rooms use of the journal. */
export interface SyncJournal {
  /** Writes a room's batch as one record; resolves once it is on disk. */
  append(record: JournalRecord): Promise<void>;
  /** Resolves once every record written before the call is in the database. */
  flush(): Promise<void>;
  /**
   * A transaction that changes nothing a room has read or decides by (a compaction from a
   * room's own document): it runs once every record written before the call is in the
   * database, without holding the rooms or telling them anything afterwards.
   */
  transactionWithoutHold<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Holds the rooms (see `SectionGate`). */
  readonly gate: SectionGate;
  /**
   * `listener` runs at the end of every section that may have written, before any room
   * journals again: it tells the rooms what changed, and must mark them stale before
   * anything that can fail. Returns the function that removes it.
   */
  onSectionEnd(listener: () => Promise<void>): () => void;
  /** `observer` is told how long each sync of the journal took, in milliseconds. */
  observeSyncs(observer: (ms: number) => void): void;
}

export interface JournaledDb extends Db {
  readonly journal: SyncJournal;
}

/** The journal behind a database, when sync updates go through one (the embedded database in a data directory). */
export function journalOf(db: Db | Queryable): SyncJournal | undefined {
  return (db as Partial<JournaledDb>).journal;
}

/**
 * The embedded database as everything but the journal sees it: any reader of the log
 * first waits for the journal's records to reach it, and every transaction or writing
 * statement runs as a section (`SectionGate`): records flushed first, rooms held until it
 * committed and then told what changed. Code above needs no knowledge of the journal to
 * read the latest content: revision cuts, merges, forks, copies, translations and exports
 * all read through here.
 */
export function journaledDb(raw: Db, journal: Journal): JournaledDb {
  const gate = new SectionGate();
  const listeners = new Set<() => Promise<void>>();
  const sync: SyncJournal = {
    append: (record) => journal.append(record),
    flush: () => journal.flush(),
    async transactionWithoutHold(fn) {
      await journal.flush();
      return raw.transaction(fn);
    },
    gate,
    observeSyncs(observer) {
      journal.onSynced = observer;
    },
    onSectionEnd(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const flush = () => journal.flush();
  const after = async (wrote: boolean) => {
    if (!wrote) return;
    await Promise.allSettled([...listeners].map((l) => l()));
  };
  const section = <T>(body: () => Promise<T>, wrote: () => boolean) => gate.run(flush, body, () => after(wrote()));
  // Unsynced statements are the journal's own: anyone else goes through the gate.
  const { unsynced: _journalsOwn, ...rest } = raw;
  return {
    ...rest,
    journal: sync,
    async query<T>(sql: string, params?: unknown[]) {
      if (gate.inSection) return raw.query<T>(sql, params);
      if (mayWrite(sql))
        return section(
          () => raw.query<T>(sql, params),
          () => true,
        );
      if (TOUCHES_LOG.test(sql)) await journal.flush();
      return raw.query<T>(sql, params);
    },
    async transaction(fn) {
      if (gate.inSection) return raw.transaction(fn);
      let wrote = false;
      return section(
        () =>
          raw.transaction((tx) =>
            fn({
              query<T>(sql: string, params?: unknown[]) {
                if (mayWrite(sql)) wrote = true;
                return tx.query<T>(sql, params);
              },
            }),
          ),
        () => wrote,
      );
    },
    async exec(sql) {
      if (gate.inSection) return raw.exec(sql);
      return section(
        () => raw.exec(sql),
        () => true,
      );
    },
    async close() {
      await journal.close();
      await raw.close();
    },
  };
}
