import { closeSync, fdatasync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { type Db, DurabilityUnknownError, type Queryable } from '../db';
import { type JournalPosition, drainRecords, readCheckpoint, writeCheckpoint } from './drainSql';
import { type JournalRecord, decodeRecord, encodeRecord } from './frames';

/** What the journal reports: a record ignored on start, a drain that failed and is retried. */
export interface JournalLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Origin written on the rows the journal drains into the log. */
export const JOURNAL_ORIGIN = 'journal';
/** A new file is started once the current one passes this size and everything in it is on disk. */
const ROTATE_BYTES = 64 * 1024 * 1024;
/** Records drained in one statement, at most. */
const MAX_DRAIN_RECORDS = 512;
const MAX_DRAIN_BYTES = 8 * 1024 * 1024;
/** Wait before a failed drain is tried again. */
const DRAIN_RETRY_MS = 1000;
/**
 * How long records on disk may wait for the next drain when nobody needs them in the
 * database yet. Each drain is a transaction of the embedded database, whose cost barely
 * depends on its size: typing at a few keystrokes a second per writer would otherwise pay
 * one per keystroke. A read or a REST write that needs the log flushes at once, and a
 * full group drains at once. Measured with 500 writers at one keystroke a second: the
 * database's thread spent 11–13% of a core draining every 100 ms, 5–6% every second.
 */
const DRAIN_IDLE_MS = 1000;
/**
 * Zeros written ahead of the records. An append into space the file already has leaves its
 * size and blocks alone, so the fdatasync after it flushes data only; an append that grows
 * the file also has the filesystem commit its metadata. Measured here: the sync's p99
 * 2.6–3.1 ms growing, 0.8–1.5 ms in zeroed space, and a fifth less CPU.
 */
const ZEROED_AHEAD = 1024 * 1024;
const ZEROS = Buffer.alloc(64 * 1024);

interface Written extends JournalRecord {
  gen: number;
  end: number;
  /** Position of this record's end in the journal's whole history (all files), for comparisons. */
  lsn: number;
}

const fileName = (gen: number) => `${String(gen).padStart(12, '0')}.journal`;
const genOf = (name: string) => (/^\d{12}\.journal$/.test(name) ? Number(name.slice(0, 12)) : undefined);

/**
 * The append-only journal of sync updates on the embedded database (`DATA_DIR/journal`).
 *
 * A room's batch is one record written with one `write()` (`append`); one `fdatasync` in
 * flight covers every record written before it started, and what is written meanwhile
 * waits for the next one: the group is whatever arrived during the previous sync, no
 * timer. A record is acknowledged and relayed only once its sync returned. Records on disk
 * are drained into the database in the background, one statement per group with the
 * checkpoint in it (`drainRecords`); files the checkpoint has passed are deleted. On open,
 * the records past the checkpoint are replayed into the database before anything else
 * reads it. A failed write or sync stops the process (`onFatal`): after an I/O error a
 * later fsync may succeed without the lost pages ever reaching disk.
 */
export class Journal {
  private fd: number;
  private gen: number;
  private writePos = 0;
  /** Where the zeroed space of the current file ends. */
  private zeroedTo = 0;
  private lsn = 0;
  private durableLsn = 0;
  private drainedLsn = 0;
  private syncing = false;
  /** Told how long each sync took, in milliseconds (the server's metrics). */
  onSynced?: (ms: number) => void;
  private fatal?: Error;
  /** Written, not yet in the database, oldest first. */
  private pending: Written[] = [];
  private durableWaiters: { lsn: number; resolve: () => void; reject: (err: Error) => void }[] = [];
  private drainWaiters: { lsn: number; resolve: () => void; reject: (err: Error) => void }[] = [];
  private draining = false;
  private drainRetry?: NodeJS.Timeout;
  private trimming?: Promise<void>;
  private drainSoon?: NodeJS.Timeout;
  /** The file of the last record drained. */
  private drainedGen = 0;
  /** Files no longer written, deleted once the checkpoint is past them. */
  private retired: number[] = [];
  /** Handles of files no longer written whose last records the next sync covers. */
  private retiring: number[] = [];
  private closed = false;

  private constructor(
    private dir: string,
    private db: Queryable & Pick<Db, 'unsynced'>,
    private log: JournalLog,
    private onFatal: (err: Error) => void,
    gen: number,
    private disk: JournalDisk,
  ) {
    this.gen = gen;
    this.fd = this.createFile(gen);
  }

  /**
   * Opens the journal in `dir`: replays into `db` every record past the checkpoint (a torn
   * or corrupt record ends its file's replay: it and what follows are ignored, with a
   * warning), then starts a new file. Resolves once the database holds every record.
   */
  static async open(
    dir: string,
    db: Queryable & Pick<Db, 'unsynced'>,
    log: JournalLog,
    onFatal: (err: Error) => void,
    opts: Partial<JournalDisk> = {},
  ): Promise<Journal> {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const checkpoint = await readCheckpoint(db);
    const gens = readdirSync(dir)
      .map(genOf)
      .filter((g): g is number => g !== undefined)
      .sort((a, b) => a - b);
    for (const gen of gens) {
      if (checkpoint && gen < checkpoint.gen) continue;
      const from = checkpoint && gen === checkpoint.gen ? checkpoint.pos : 0;
      await replayFile(join(dir, fileName(gen)), gen, from, db, log);
    }
    const next = Math.max(checkpoint?.gen ?? 0, ...gens) + 1;
    const journal = new Journal(dir, db, log, onFatal, next, {
      rotateBytes: opts.rotateBytes ?? ROTATE_BYTES,
      datasync: opts.datasync ?? fdatasync,
      write: opts.write ?? writeSync,
    });
    // The database holds every record of the older files now: they are no longer needed.
    await writeCheckpoint(db, { gen: next, pos: 0 });
    for (const gen of gens) unlinkSync(join(dir, fileName(gen)));
    return journal;
  }

  private createFile(gen: number): number {
    const fd = openSync(join(this.dir, fileName(gen)), 'wx', 0o600);
    // The file's name must be on disk before records in it count as on disk.
    const dirFd = openSync(this.dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
    return fd;
  }

  /**
   * Writes one record; resolves once it is on disk. Throws at once (and stops the
   * process) when the write fails: a later record must never follow a torn one.
   */
  append(record: JournalRecord): Promise<void> {
    if (this.fatal) return Promise.reject(this.fatal);
    if (this.closed) return Promise.reject(new Error('the journal is closed'));
    const frame = encodeRecord(record);
    if (this.writePos > 0 && this.writePos + frame.length > this.disk.rotateBytes) {
      this.rotate();
      if (this.fatal) return Promise.reject(this.fatal);
    }
    try {
      this.zeroAhead(this.writePos + frame.length);
      let done = 0;
      while (done < frame.length) done += this.disk.write(this.fd, frame, done, frame.length - done, this.writePos + done);
    } catch (err) {
      this.die(err as Error);
      return Promise.reject(this.fatal);
    }
    this.writePos += frame.length;
    this.lsn += frame.length;
    const lsn = this.lsn;
    this.pending.push({ ...record, gen: this.gen, end: this.writePos, lsn });
    const durable = new Promise<void>((resolve, reject) => this.durableWaiters.push({ lsn, resolve, reject }));
    this.sync();
    return durable;
  }

  /** Starts a new file; the old one is synced one last time by the next sync, then closed. */
  private rotate() {
    try {
      this.retired.push(this.gen);
      this.retiring.push(this.fd);
      this.gen++;
      this.fd = this.createFile(this.gen);
      this.writePos = 0;
      this.zeroedTo = 0;
    } catch (err) {
      this.die(err as Error);
    }
  }

  /**
   * Makes sure the file has zeroed space up to `end`, and some beyond. The zeros reach disk
   * with the next sync; replay reads a zeroed tail as the end of the file.
   */
  private zeroAhead(end: number) {
    if (end <= this.zeroedTo) return;
    const target = Math.max(end, Math.min(this.writePos + ZEROED_AHEAD, this.disk.rotateBytes));
    while (this.zeroedTo < target) {
      const n = Math.min(ZEROS.length, target - this.zeroedTo);
      this.zeroedTo += this.disk.write(this.fd, ZEROS, 0, n, this.zeroedTo);
    }
  }

  /** One fdatasync at a time; each covers everything written before it started. */
  private sync() {
    if (this.syncing || this.fatal || this.durableLsn === this.lsn) return;
    this.syncing = true;
    const target = this.lsn;
    const fds = [...this.retiring.splice(0), this.fd];
    const started = performance.now();
    syncAll(this.disk.datasync, fds, (err) => {
      this.syncing = false;
      if (err) return this.die(err);
      this.onSynced?.(performance.now() - started);
      for (const fd of fds.slice(0, -1)) closeSync(fd);
      this.durableLsn = target;
      const waiting = this.durableWaiters;
      this.durableWaiters = [];
      for (const w of waiting) {
        if (w.lsn <= target) w.resolve();
        else this.durableWaiters.push(w);
      }
      this.sync();
      this.scheduleDrain();
    });
  }

  /** Drains soon, or at once when someone waits for the database or a group is full. */
  private scheduleDrain() {
    if (this.drainWaiters.length > 0 || this.pending.length >= MAX_DRAIN_RECORDS) return this.drain();
    // Records left undrained at exit are replayed on the next start: no need to hold the process.
    this.drainSoon ??= setTimeout(() => this.drain(), DRAIN_IDLE_MS).unref();
  }

  /** Writes the records on disk into the database, a group per statement, until none is left. */
  private drain() {
    clearTimeout(this.drainSoon);
    this.drainSoon = undefined;
    if (this.draining || this.fatal || this.drainRetry) return;
    const group: Written[] = [];
    let bytes = 0;
    for (const r of this.pending) {
      if (
        r.lsn > this.durableLsn ||
        group.length >= MAX_DRAIN_RECORDS ||
        (group.length > 0 && bytes + r.update.byteLength > MAX_DRAIN_BYTES)
      )
        break;
      group.push(r);
      bytes += r.update.byteLength;
    }
    const last = group.at(-1);
    if (!last) return;
    this.draining = true;
    // The commit skips the database's WAL sync: the records stay on disk here until a sync
    // before their file is deleted (`trim`) covers them, so a sync per group buys nothing.
    drainRecords(this.db.unsynced ?? this.db, group, { gen: last.gen, pos: last.end }, JOURNAL_ORIGIN).then(
      () => {
        this.draining = false;
        this.pending.splice(0, group.length);
        this.drainedLsn = last.lsn;
        this.drainedGen = last.gen;
        this.trim(last.gen);
        const waiting = this.drainWaiters;
        this.drainWaiters = [];
        for (const w of waiting) {
          if (w.lsn <= last.lsn) w.resolve();
          else this.drainWaiters.push(w);
        }
        this.drain();
      },
      (err: Error) => {
        this.draining = false;
        if (err instanceof DurabilityUnknownError) return this.die(err);
        this.log.error({ err }, 'writing journaled sync updates into the database failed; retrying');
        this.drainRetry = setTimeout(() => {
          this.drainRetry = undefined;
          this.drain();
        }, DRAIN_RETRY_MS);
      },
    );
  }

  /** Deletes the files the checkpoint has passed, once the database has synced what was drained from them. */
  private trim(checkpointGen: number) {
    if (this.trimming || this.retired.length === 0 || (this.retired[0] as number) >= checkpointGen) return;
    this.trimming = this.syncDrained().then(
      () => {
        this.trimming = undefined;
        while (this.retired.length > 0 && (this.retired[0] as number) < checkpointGen) {
          const gen = this.retired.shift() as number;
          try {
            unlinkSync(join(this.dir, fileName(gen)));
          } catch (err) {
            this.log.warn({ err, gen }, 'could not delete a drained journal file');
          }
        }
        // Drains that ended meanwhile may have passed more files.
        this.trim(this.drainedGen);
      },
      (err: Error) => {
        this.trimming = undefined;
        this.die(err);
      },
    );
  }

  /** Makes every drain committed so far durable in the database. */
  private syncDrained(): Promise<void> {
    return this.db.unsynced?.syncWrites() ?? Promise.resolve();
  }

  /** Resolves once every record written before the call is in the database. */
  flush(): Promise<void> {
    if (this.fatal) return Promise.reject(this.fatal);
    const target = this.lsn;
    if (this.drainedLsn >= target) return Promise.resolve();
    const drained = new Promise<void>((resolve, reject) => this.drainWaiters.push({ lsn: target, resolve, reject }));
    this.drain();
    return drained;
  }

  /** Records written and not yet in the database. */
  get backlog(): number {
    return this.pending.length;
  }

  private die(err: Error) {
    if (this.fatal) return;
    this.fatal = err;
    for (const w of [...this.durableWaiters, ...this.drainWaiters]) w.reject(err);
    this.durableWaiters = [];
    this.drainWaiters = [];
    this.onFatal(err);
  }

  /** Drains what is written, then closes the file. */
  async close() {
    if (this.closed) return;
    await this.flush().catch(() => {});
    await this.trimming;
    await this.syncDrained().catch((err: Error) =>
      this.log.error({ err }, 'the database could not sync the drained journal; it is replayed on the next start'),
    );
    this.closed = true;
    clearTimeout(this.drainRetry);
    clearTimeout(this.drainSoon);
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
  }
}

/** How the journal writes its files: the size it rotates at, and the calls it writes and syncs with (tests replace them). */
export interface JournalDisk {
  rotateBytes: number;
  datasync: DataSync;
  write: WriteAt;
}

/** `fs.writeSync` at a position, or a disk that fails on purpose in tests. */
export type WriteAt = (fd: number, buffer: Buffer, offset: number, length: number, position: number) => number;

/** `fs.fdatasync`, or a disk that fails on purpose in tests. */
export type DataSync = (fd: number, callback: (err: NodeJS.ErrnoException | null) => void) => void;

/** fdatasync of each handle in turn; the first error ends it. */
function syncAll(datasync: DataSync, fds: number[], done: (err: Error | null) => void) {
  const [fd, ...rest] = fds;
  if (fd === undefined) return done(null);
  datasync(fd, (err) => (err ? done(err) : syncAll(datasync, rest, done)));
}

/**
 * Replays the records of one file from `from` into the database, one statement per
 * group, each moving the checkpoint past its records. Stops at the first record that is
 * cut short or fails its checksum, says so, and keeps what came before.
 */
async function replayFile(path: string, gen: number, from: number, db: Queryable, log: JournalLog) {
  const buf = readFileSync(path);
  let at = from;
  let group: JournalRecord[] = [];
  let bytes = 0;
  const flushGroup = async () => {
    if (group.length === 0) return;
    await drainRecords(db, group, { gen, pos: at }, JOURNAL_ORIGIN);
    group = [];
    bytes = 0;
  };
  for (;;) {
    const next = decodeRecord(buf, at);
    if (next.kind === 'end') break;
    if (next.kind !== 'record') {
      log.warn(
        { file: path, offset: at, ignoredBytes: buf.length - at, reason: next.reason },
        `the sync journal has a ${next.kind} record: it and what follows it in this file are ignored`,
      );
      break;
    }
    group.push(next.record);
    bytes += next.record.update.byteLength;
    at = next.end;
    if (group.length >= MAX_DRAIN_RECORDS || bytes >= MAX_DRAIN_BYTES) await flushGroup();
  }
  await flushGroup();
}

export type { JournalPosition };
