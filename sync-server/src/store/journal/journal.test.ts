import {
  closeSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { crc32 } from 'node:zlib';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { freshTestDb } from '../../testing/databases';
import type { Db, Queryable } from '../db';
import { loadDocUpdate } from '../ydocs';
import { DurabilityUnknownError } from '../db';
import { DRAIN_STATEMENT, readCheckpoint, writeCheckpoint } from './drainSql';
import { encodeRecord } from './frames';
import { type DataSync, Journal, type JournalLog, type WriteAt } from './Journal';

/** A drain nobody asked for starts a second after the sync (see `DRAIN_IDLE_MS`). */
const DRAIN_WAIT = { timeout: 5000, interval: 50 };

let db: Db;
let dir: string;
let warnings: { obj: object; msg: string }[];
let log: JournalLog;
const fatal = (err: Error) => {
  throw err;
};

beforeAll(async () => {
  db = await freshTestDb({ journal: false });
});
afterAll(async () => db?.close());
beforeEach(async () => {
  await db.query('DELETE FROM sync_journal_checkpoint');
  await db.query('DELETE FROM ydocs');
  dir = mkdtempSync(join(tmpdir(), 'quire-journal-test-'));
  warnings = [];
  log = { warn: (obj, msg) => warnings.push({ obj, msg }), error: () => {} };
});
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
});

/** An update inserting `s` at the end of text `t`, from a client of its own. */
function typed(s: string, client: number): Uint8Array {
  const doc = new Y.Doc();
  doc.clientID = client;
  doc.getText('t').insert(0, s);
  return Y.encodeStateAsUpdate(doc);
}

async function storedMap(docId: string): Promise<string[]> {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, (await loadDocUpdate(db, docId)).update);
  return [...doc.getMap('m').keys()].sort();
}

function keyRecord(docId: string, seq: number, key: string): Buffer {
  const doc = new Y.Doc();
  doc.getMap('m').set(key, true);
  return encodeRecord({ docId, seq, update: Y.encodeStateAsUpdate(doc) });
}

/** The test database, noting how many records each drain statement carries. */
function countingDrains(): { counting: Queryable; drained: number[] } {
  const drained: number[] = [];
  const counting: Queryable = {
    query: (sql, params) => {
      if (sql === DRAIN_STATEMENT) drained.push((params?.[0] as string[]).length);
      return db.query(sql, params);
    },
  };
  return { counting, drained };
}

/** A journal left by a process killed before its drain: records in a file, none in the database. */
function leftBehind(...frames: Buffer[]) {
  writeFileSync(join(dir, '000000000001.journal'), Buffer.concat(frames));
}

describe('the sync journal on start', () => {
  it('replays every record past the checkpoint into the database, then starts a new file', async () => {
    leftBehind(keyRecord('space:a', 1, 'a1'), keyRecord('space:a', 2, 'a2'), keyRecord('space:b', 1, 'b1'));
    const journal = await Journal.open(dir, db, log, fatal);
    expect(await storedMap('space:a')).toEqual(['a1', 'a2']);
    expect(await storedMap('space:b')).toEqual(['b1']);
    expect(warnings).toEqual([]);
    expect(readdirSync(dir)).toEqual(['000000000002.journal']);
    expect(await readCheckpoint(db)).toEqual({ gen: 2, pos: 0 });
    await journal.close();
    // Opened again, nothing is written twice.
    await (await Journal.open(dir, db, log, fatal)).close();
    expect(await storedMap('space:a')).toEqual(['a1', 'a2']);
  });

  it('ignores a last record cut short, keeps the ones before it, and says so', async () => {
    const torn = keyRecord('space:a', 3, 'a3');
    leftBehind(keyRecord('space:a', 1, 'a1'), keyRecord('space:a', 2, 'a2'), torn.subarray(0, torn.length - 5));
    await (await Journal.open(dir, db, log, fatal)).close();
    expect(await storedMap('space:a')).toEqual(['a1', 'a2']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/torn record: it and what follows it in this file are ignored/);
    expect(warnings[0]?.obj).toMatchObject({ ignoredBytes: torn.length - 5 });
  });

  it('reads zeros after the last record as the end of the file, and a record cut short before them as torn', async () => {
    const zeros = Buffer.alloc(4096);
    leftBehind(keyRecord('space:a', 1, 'a1'), keyRecord('space:a', 2, 'a2'), zeros);
    await (await Journal.open(dir, db, log, fatal)).close();
    expect(await storedMap('space:a')).toEqual(['a1', 'a2']);
    expect(warnings).toEqual([]);

    const torn = keyRecord('space:a', 3, 'a3');
    writeFileSync(join(dir, '000000000003.journal'), Buffer.concat([torn.subarray(0, torn.length - 5), zeros]));
    await (await Journal.open(dir, db, log, fatal)).close();
    expect(await storedMap('space:a')).toEqual(['a1', 'a2']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.obj).toMatchObject({ offset: 0, reason: 'its checksum does not match' });
  });

  it('ignores a record whose checksum fails and what follows it, keeps the ones before it, and says so', async () => {
    const bad = keyRecord('space:a', 2, 'a2');
    bad.writeUInt8(bad.readUInt8(bad.length - 1) ^ 0xff, bad.length - 1);
    leftBehind(keyRecord('space:a', 1, 'a1'), bad, keyRecord('space:a', 3, 'a3'));
    await (await Journal.open(dir, db, log, fatal)).close();
    expect(await storedMap('space:a')).toEqual(['a1']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/corrupt record: it and what follows it in this file are ignored/);
    expect(warnings[0]?.obj).toMatchObject({ reason: 'its checksum does not match' });
  });

  it('replays what was acknowledged but never drained (the process died first)', async () => {
    // A database that never answers the drain: as if the process were killed before it ran.
    const stuck: Queryable = {
      query: (sql, params) => (sql === DRAIN_STATEMENT ? new Promise(() => {}) : db.query(sql, params)),
    };
    const first = await Journal.open(dir, stuck, log, fatal);
    await first.append({ docId: 'space:a', seq: 1, update: typed('acknowledged', 1) });
    expect((await loadDocUpdate(db, 'space:a')).seq).toBe(0);
    // Zeroed a mebibyte ahead of its record, not the whole 64 MiB it may grow to.
    expect(statSync(join(dir, '000000000001.journal')).size).toBe(1024 * 1024);
    const restarted = await Journal.open(dir, db, log, fatal);
    const doc = new Y.Doc();
    Y.applyUpdate(doc, (await loadDocUpdate(db, 'space:a')).update);
    expect(doc.getText('t').toString()).toBe('acknowledged');
    // The file was zeroed ahead of its record: that space is its end, not damage.
    expect(warnings).toEqual([]);
    await restarted.close();
  });

  it('drains appended records into the database with the checkpoint past them', async () => {
    const journal = await Journal.open(dir, db, log, fatal);
    await journal.append({ docId: 'space:a', seq: 1, update: typed('one', 1) });
    await journal.append({ docId: 'space:a', seq: 2, update: typed('two', 2) });
    await journal.flush();
    const stored = await loadDocUpdate(db, 'space:a');
    expect(stored.seq).toBe(2);
    expect(await readCheckpoint(db)).toMatchObject({ gen: 1 });
    expect((await readCheckpoint(db))?.pos).toBeGreaterThan(0);
    await journal.close();
  });

  it('starts new files as it grows and deletes the ones the database holds', async () => {
    const journal = await Journal.open(dir, db, log, fatal, { rotateBytes: 300 });
    const keys = Array.from({ length: 30 }, (_, i) => `k${i}`);
    await Promise.all(
      keys.map((k, i) => {
        const doc = new Y.Doc();
        doc.getMap('m').set(k, true);
        return journal.append({ docId: 'space:a', seq: i + 1, update: Y.encodeStateAsUpdate(doc) });
      }),
    );
    await journal.flush();
    // No file zeroed past the size at which the next one starts.
    for (const f of readdirSync(dir)) expect(statSync(join(dir, f)).size).toBeLessThanOrEqual(300);
    // Deleted once drained and synced: the one being written, and at most the one the checkpoint stands in.
    await vi.waitFor(() => expect(readdirSync(dir).length).toBeLessThanOrEqual(2));
    await journal.close();
    await (await Journal.open(dir, db, log, fatal)).close();
    expect(await storedMap('space:a')).toEqual([...keys].sort());
    expect((await loadDocUpdate(db, 'space:a')).seq).toBe(30);
  });

  it('keeps a drained file until the database has synced its rows, and stops if that sync fails', async () => {
    const syncs: { resolve: () => void; reject: (err: Error) => void }[] = [];
    // PGlite's statements that skip the WAL sync; on PostgreSQL (no journal in production) plain ones.
    const query: Db['query'] = db.unsynced?.query ?? ((sql, params) => db.query(sql, params));
    const slowDisk: Db = {
      ...db,
      unsynced: { query, syncWrites: () => new Promise((resolve, reject) => syncs.push({ resolve, reject })) },
    };
    const failures: Error[] = [];
    const journal = await Journal.open(dir, slowDisk, log, (err) => failures.push(err), { rotateBytes: 300 });
    const append = (i: number) => {
      const doc = new Y.Doc();
      doc.getMap('m').set(`k${i}`, true);
      return journal.append({ docId: 'space:a', seq: i + 1, update: Y.encodeStateAsUpdate(doc) });
    };
    await Promise.all(Array.from({ length: 30 }, (_, i) => append(i)));
    await journal.flush();
    // In the database, not yet synced there: every file stays.
    const files = readdirSync(dir).length;
    expect(files).toBeGreaterThan(2);
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    expect(readdirSync(dir)).toHaveLength(files);
    syncs[0]?.resolve();
    await vi.waitFor(() => expect(readdirSync(dir).length).toBeLessThan(files));
    const kept = readdirSync(dir).length;

    await Promise.all(Array.from({ length: 30 }, (_, i) => append(30 + i)));
    await journal.flush();
    await vi.waitFor(() => expect(syncs).toHaveLength(2));
    syncs[1]?.reject(new Error('EIO'));
    await vi.waitFor(() => expect(failures).toHaveLength(1));
    expect(readdirSync(dir).length).toBeGreaterThan(kept);
    await expect(append(90)).rejects.toThrow();
  });

  it('stops at the first failed write: the caller is told, nothing later is accepted', async () => {
    const failures: Error[] = [];
    const journal = await Journal.open(dir, db, log, (err) => failures.push(err));
    // The file handle gone from under it: the next write fails as a full or broken disk would.
    const fd = (journal as unknown as { fd: number }).fd;
    closeSync(fd);
    const other = openSync(join(dir, 'placeholder'), 'w');
    closeSync(other);
    await expect(journal.append({ docId: 'space:a', seq: 1, update: typed('lost', 1) })).rejects.toThrow();
    expect(failures).toHaveLength(1);
    await expect(journal.append({ docId: 'space:a', seq: 2, update: typed('later', 2) })).rejects.toThrow();
    expect(failures).toHaveLength(1);
  });
});

describe('a disk that refuses a write', () => {
  it('refuses the record whose write failed even though the file still syncs, and everything after it', async () => {
    const failures: Error[] = [];
    let full = false;
    // A full disk (ENOSPC) fails the write but leaves the handle able to sync what it holds.
    const write: WriteAt = (fd, buffer, offset, length, position) => {
      if (full && buffer.readUInt32BE(offset) !== 0) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      return writeSync(fd, buffer, offset, length, position);
    };
    const journal = await Journal.open(dir, db, log, (err) => failures.push(err), { write });
    await journal.append({ docId: 'space:a', seq: 1, update: typed('kept', 1) });
    full = true;
    await expect(journal.append({ docId: 'space:a', seq: 2, update: typed('lost', 2) })).rejects.toThrow('no space left');
    expect(failures.map((e) => e.message)).toEqual(['no space left on device']);
    full = false;
    await expect(journal.append({ docId: 'space:a', seq: 3, update: typed('later', 3) })).rejects.toThrow();
    expect(failures).toHaveLength(1);
  });
});

/**
 * A disk whose fdatasync answers only when told: `calls` holds the syncs in flight (the
 * inode of each file synced, to tell the journal's files apart), `answer` lets the oldest
 * one return.
 */
function heldDisk() {
  const calls: { ino: number; done: (err: NodeJS.ErrnoException | null) => void }[] = [];
  const synced: number[] = [];
  const datasync: DataSync = (fd, done) => {
    const ino = fstatSync(fd).ino;
    synced.push(ino);
    calls.push({ ino, done });
  };
  const answer = (err: NodeJS.ErrnoException | null = null) => calls.shift()?.done(err);
  return { calls, synced, datasync, answer };
}

const inode = (gen: number) => statSync(join(dir, `${String(gen).padStart(12, '0')}.journal`)).ino;
const settle = () => new Promise((r) => setTimeout(r, 20));

/** The journal files this process holds open (Linux: through /proc). */
function openJournalFiles(): string[] {
  const open: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (dirname(target) === dir) open.push(basename(target));
    } catch {
      // closed meanwhile (the listing's own handle)
    }
  }
  return open.sort();
}

describe('the sync journal while it runs', () => {
  it('acknowledges a record only after a sync begun after its write; one sync covers all written meanwhile', async () => {
    const disk = heldDisk();
    const journal = await Journal.open(dir, db, log, fatal, { datasync: disk.datasync });
    const acked: number[] = [];
    const append = (seq: number) =>
      journal.append({ docId: 'space:a', seq, update: typed(`s${seq}`, seq) }).then(() => void acked.push(seq));
    const first = append(1);
    const flushed = journal.flush();
    await settle();
    expect(disk.calls).toHaveLength(1);
    const later = [2, 3, 4].map(append);
    await settle();
    // Not on disk yet: neither acknowledged nor in the database.
    expect(disk.calls).toHaveLength(1);
    expect(acked).toEqual([]);
    expect((await loadDocUpdate(db, 'space:a')).seq).toBe(0);

    disk.answer();
    await first;
    // Written while that sync ran, the others wait for the next one, which covers all three.
    expect(disk.calls).toHaveLength(1);
    await vi.waitFor(async () => expect((await loadDocUpdate(db, 'space:a')).seq).toBe(1));
    await settle();
    expect(acked).toEqual([1]);
    expect((await loadDocUpdate(db, 'space:a')).seq).toBe(1);

    disk.answer();
    await Promise.all(later);
    await flushed;
    expect(acked).toEqual([1, 2, 3, 4]);
    expect(disk.synced).toHaveLength(2);
    await journal.flush();
    expect((await loadDocUpdate(db, 'space:a')).seq).toBe(4);
    await journal.close();
    expect(disk.synced).toHaveLength(2);
  });

  it('syncs a file it stopped writing once more before acknowledging its last records', async () => {
    const disk = heldDisk();
    const journal = await Journal.open(dir, db, log, fatal, { datasync: disk.datasync, rotateBytes: 300 });
    const acked: number[] = [];
    const append = (seq: number) =>
      journal.append({ docId: 'space:a', seq, update: typed(`s${seq}`, seq) }).then(() => void acked.push(seq));
    const first = append(1);
    await settle();
    const later = [2, 3, 4, 5, 6, 7, 8].map(append);
    await settle();
    // Records 2.. went partly into file 1, the rest into a new file 2.
    expect(readdirSync(dir)).toEqual(['000000000001.journal', '000000000002.journal']);
    expect(disk.synced).toEqual([inode(1)]);
    disk.answer();
    await first;
    // The next sync covers the end of file 1, then file 2; nothing is acknowledged before both.
    expect(disk.synced).toEqual([inode(1), inode(1)]);
    disk.answer();
    expect(disk.synced).toEqual([inode(1), inode(1), inode(2)]);
    await settle();
    expect(acked).toEqual([1]);
    disk.answer();
    await Promise.all(later);
    expect(acked).toHaveLength(8);
    // File 1 is closed once its last sync returned; file 2 stays open for writing.
    expect(openJournalFiles()).toEqual(['000000000002.journal']);
    await journal.close();
  });

  it('keeps the file the checkpoint stands in while records after it wait for their sync', async () => {
    const disk = heldDisk();
    const journal = await Journal.open(dir, db, log, fatal, { datasync: disk.datasync, rotateBytes: 300 });
    const has = (gen: number) => readdirSync(dir).includes(`${String(gen).padStart(12, '0')}.journal`);
    let seq = 0;
    const acks: Promise<void>[] = [];
    const append = () => {
      seq++;
      acks.push(journal.append({ docId: 'space:a', seq, update: typed(`s${seq}`, seq) }));
    };
    append();
    await settle();
    while (!has(2)) append();
    // The first sync returns; the next covers the rest of file 1 and file 2 so far.
    disk.answer();
    const covered = seq;
    // Written meanwhile: more of file 2, then file 3. File 2 is no longer written.
    append();
    while (!has(3)) append();
    disk.answer();
    disk.answer();
    // Drained up to the middle of file 2 (the rest waits for the sync in flight): file 1 goes, file 2 stays.
    await vi.waitFor(async () => expect((await loadDocUpdate(db, 'space:a')).seq).toBe(covered), DRAIN_WAIT);
    await vi.waitFor(() => expect(has(1)).toBe(false), DRAIN_WAIT);
    await settle();
    expect(await readCheckpoint(db)).toMatchObject({ gen: 2 });
    expect(has(2)).toBe(true);
    disk.answer();
    disk.answer();
    await Promise.all(acks);
    await journal.close();
    expect((await loadDocUpdate(db, 'space:a')).seq).toBe(seq);
  });

  it('retries a drain the database refused, after a pause, and loses nothing', async () => {
    const attempts: number[] = [];
    const errors: object[] = [];
    const flaky: Queryable = {
      query: (sql, params) => {
        if (sql !== DRAIN_STATEMENT) return db.query(sql, params);
        attempts.push(Date.now());
        return attempts.length === 1 ? Promise.reject(new Error('connection reset')) : db.query(sql, params);
      },
    };
    const journal = await Journal.open(dir, flaky, { ...log, error: (obj) => errors.push(obj) }, fatal);
    await journal.append({ docId: 'space:a', seq: 1, update: typed('kept', 1) });
    await journal.flush();
    expect(attempts).toHaveLength(2);
    expect((attempts[1] as number) - (attempts[0] as number)).toBeGreaterThanOrEqual(900);
    expect(errors).toHaveLength(1);
    expect((await loadDocUpdate(db, 'space:a')).seq).toBe(1);
    await journal.close();
  });

  it('stops when a drain may not have reached the database, refusing whoever waits and whatever comes next', async () => {
    const failures: Error[] = [];
    const unsure: Queryable = {
      query: (sql, params) =>
        sql === DRAIN_STATEMENT ? Promise.reject(new DurabilityUnknownError(new Error('EIO'))) : db.query(sql, params),
    };
    const journal = await Journal.open(dir, unsure, log, (err) => failures.push(err));
    await journal.append({ docId: 'space:a', seq: 1, update: typed('unsure', 1) });
    await expect(journal.flush()).rejects.toThrow(DurabilityUnknownError);
    expect(failures).toHaveLength(1);
    await expect(journal.flush()).rejects.toThrow(DurabilityUnknownError);
    await expect(journal.append({ docId: 'space:a', seq: 2, update: typed('later', 2) })).rejects.toThrow(DurabilityUnknownError);
    expect(failures).toHaveLength(1);
  });

  it('drains at most 512 records per statement', async () => {
    const { counting, drained } = countingDrains();
    const journal = await Journal.open(dir, counting, log, fatal);
    await Promise.all(
      Array.from({ length: 600 }, (_, i) => journal.append({ docId: 'space:a', seq: i + 1, update: typed(`k${i}`, i + 1) })),
    );
    await journal.flush();
    expect(Math.max(...drained)).toBe(512);
    expect(drained.reduce((a, b) => a + b)).toBe(600);
    expect((await loadDocUpdate(db, 'space:a')).seq).toBe(600);
    await journal.close();
  });

  it('drains on its own shortly after a sync, without anyone asking', async () => {
    const journal = await Journal.open(dir, db, log, fatal);
    await journal.append({ docId: 'space:a', seq: 1, update: typed('one', 1) });
    await vi.waitFor(async () => expect((await loadDocUpdate(db, 'space:a')).seq).toBe(1), DRAIN_WAIT);
    await journal.append({ docId: 'space:a', seq: 2, update: typed('two', 2) });
    await vi.waitFor(async () => expect((await loadDocUpdate(db, 'space:a')).seq).toBe(2), DRAIN_WAIT);
    expect(journal.backlog).toBe(0);
    await journal.close();
  });

  it('drains a record larger than a whole group of bytes on its own', async () => {
    const { counting, drained } = countingDrains();
    const journal = await Journal.open(dir, counting, log, fatal);
    const big = (seq: number, mib: number) => journal.append({ docId: 'space:a', seq, update: typed('x'.repeat(mib * 1024 * 1024), seq) });
    await Promise.all([big(1, 5), big(2, 5), big(3, 9)]);
    await journal.flush();
    expect(drained).toEqual([1, 1, 1]);
    await journal.close();
  });

  it('stops when it cannot start its next file, refusing the record', async () => {
    const failures: Error[] = [];
    const journal = await Journal.open(dir, db, log, (err) => failures.push(err), { rotateBytes: 300 });
    // The next file's name is taken: creating it fails as a full or broken disk would.
    writeFileSync(join(dir, '000000000002.journal'), '');
    const appends = Array.from({ length: 8 }, (_, i) =>
      journal.append({ docId: 'space:a', seq: i + 1, update: typed(`s${i}`, i + 1) }).then(
        () => 'acknowledged',
        () => 'refused',
      ),
    );
    const outcomes = await Promise.all(appends);
    expect(outcomes).toContain('refused');
    expect(outcomes.slice(outcomes.indexOf('refused')).every((o) => o === 'refused')).toBe(true);
    expect(failures).toHaveLength(1);
  });

  it('refuses records once closed, after draining what it had', async () => {
    const journal = await Journal.open(dir, db, log, fatal);
    await journal.append({ docId: 'space:a', seq: 1, update: typed('before', 1) });
    await journal.close();
    expect((await loadDocUpdate(db, 'space:a')).seq).toBe(1);
    await expect(journal.append({ docId: 'space:a', seq: 2, update: typed('after', 2) })).rejects.toThrow(/closed/);
    await journal.close();
  });
});

describe('damaged records on start', () => {
  /** Opens the journal on what a crash left; returns the one warning and what space:a holds. */
  async function openOn(...frames: Buffer[]) {
    leftBehind(...frames);
    await (await Journal.open(dir, db, log, fatal)).close();
    expect(warnings).toHaveLength(1);
    return { warning: warnings[0]?.obj, stored: await storedMap('space:a') };
  }

  it('tells a header cut short', async () => {
    const a1 = keyRecord('space:a', 1, 'a1');
    const { warning, stored } = await openOn(a1, keyRecord('space:a', 2, 'a2').subarray(0, 7));
    expect(warning).toMatchObject({ offset: a1.length, ignoredBytes: 7, reason: 'the header is cut short' });
    expect(stored).toEqual(['a1']);
  });

  it('tells a record cut short after a whole header', async () => {
    const a1 = keyRecord('space:a', 1, 'a1');
    const { warning, stored } = await openOn(a1, keyRecord('space:a', 2, 'a2').subarray(0, 12));
    expect(warning).toMatchObject({ offset: a1.length, ignoredBytes: 12, reason: 'the record is cut short' });
    expect(stored).toEqual(['a1']);
  });

  it('tells bytes that are not a record', async () => {
    const a1 = keyRecord('space:a', 1, 'a1');
    const { warning, stored } = await openOn(a1, Buffer.from('not a journal record at all'), keyRecord('space:a', 2, 'a2'));
    expect(warning).toMatchObject({ offset: a1.length, reason: 'no record starts here' });
    expect(stored).toEqual(['a1']);
  });

  it('tells a record whose checksum holds but whose body is malformed', async () => {
    const a1 = keyRecord('space:a', 1, 'a1');
    // A body too short for the document id its length names, checksum made to match.
    const bad = keyRecord('space:a', 2, 'a2');
    bad.writeUInt16BE(bad.length, 12);
    bad.writeUInt32BE(crc32(bad.subarray(12)), 8);
    const { warning, stored } = await openOn(a1, bad);
    expect(warning).toMatchObject({ offset: a1.length, reason: 'its body is malformed' });
    expect(stored).toEqual(['a1']);
  });

  it('reads back a record exactly as written: document id, seq and update', async () => {
    const doc = new Y.Doc();
    doc.getMap('m').set('é', true);
    const update = Y.encodeStateAsUpdate(doc);
    leftBehind(encodeRecord({ docId: 'space:ä', seq: 1, update }), keyRecord('space:a', 1, 'a1'));
    await (await Journal.open(dir, db, log, fatal)).close();
    expect(warnings).toEqual([]);
    const stored = await loadDocUpdate(db, 'space:ä');
    expect(stored.seq).toBe(1);
    expect(Buffer.from(stored.update)).toEqual(Buffer.from(update));
    expect(await storedMap('space:a')).toEqual(['a1']);
  });
});

describe('the sync journal on start, against its checkpoint', () => {
  it('replays only the records past the checkpoint and skips the files before it', async () => {
    // What lies before the checkpoint is in the database already (here: left out of it, to tell).
    const drained = keyRecord('space:b', 1, 'b1');
    writeFileSync(join(dir, '000000000001.journal'), keyRecord('space:c', 1, 'c1'));
    writeFileSync(join(dir, '000000000002.journal'), Buffer.concat([drained, keyRecord('space:a', 1, 'a1')]));
    await writeCheckpoint(db, { gen: 2, pos: drained.length });
    await (await Journal.open(dir, db, log, fatal)).close();
    expect(await storedMap('space:a')).toEqual(['a1']);
    expect((await loadDocUpdate(db, 'space:b')).seq).toBe(0);
    expect((await loadDocUpdate(db, 'space:c')).seq).toBe(0);
    expect(readdirSync(dir)).toEqual(['000000000003.journal']);
    expect(await readCheckpoint(db)).toEqual({ gen: 3, pos: 0 });
  });

  it('keeps the groups it replayed when a start fails midway, and replays the rest on the next one', async () => {
    const keys = Array.from({ length: 600 }, (_, i) => `k${i}`);
    leftBehind(...keys.map((k, i) => keyRecord('space:a', i + 1, k)));
    const drained: number[] = [];
    const failingSecond: Queryable = {
      query: (sql, params) => {
        if (sql !== DRAIN_STATEMENT) return db.query(sql, params);
        drained.push((params?.[0] as string[]).length);
        return drained.length === 2 ? Promise.reject(new Error('connection reset')) : db.query(sql, params);
      },
    };
    await expect(Journal.open(dir, failingSecond, log, fatal)).rejects.toThrow(/connection reset/);
    // A group per statement, each moving the checkpoint: the first one stays.
    expect(drained).toEqual([512, 88]);
    expect((await loadDocUpdate(db, 'space:a')).seq).toBe(512);
    await (await Journal.open(dir, db, log, fatal)).close();
    expect(await storedMap('space:a')).toEqual([...keys].sort());
    expect(warnings).toEqual([]);
  });

  it('replays its files oldest first: a start that fails midway leaves none behind the checkpoint', async () => {
    // One record per file: each file's replay moves the checkpoint into it.
    const gens = [9, 10, 11, 100];
    for (const [i, gen] of gens.entries())
      writeFileSync(join(dir, `${String(gen).padStart(12, '0')}.journal`), keyRecord('space:a', i + 1, `g${gen}`));
    let drains = 0;
    const failingSecond: Queryable = {
      query: (sql, params) =>
        sql === DRAIN_STATEMENT && ++drains === 2 ? Promise.reject(new Error('connection reset')) : db.query(sql, params),
    };
    await expect(Journal.open(dir, failingSecond, log, fatal)).rejects.toThrow(/connection reset/);
    expect(await readCheckpoint(db)).toMatchObject({ gen: 9 });
    await (await Journal.open(dir, db, log, fatal)).close();
    expect(await storedMap('space:a')).toEqual(['g10', 'g100', 'g11', 'g9']);
  });

  it('leaves files in its directory that are not its own alone', async () => {
    const a1 = keyRecord('space:a', 1, 'a1');
    leftBehind(a1);
    writeFileSync(join(dir, '000000000001.journal.copy'), a1);
    writeFileSync(join(dir, 'copy-000000000001.journal'), a1);
    writeFileSync(join(dir, '00000000000x.journal'), a1);
    await (await Journal.open(dir, db, log, fatal)).close();
    expect(await storedMap('space:a')).toEqual(['a1']);
    expect(readdirSync(dir).sort()).toEqual([
      '000000000001.journal.copy',
      '000000000002.journal',
      '00000000000x.journal',
      'copy-000000000001.journal',
    ]);
  });

  it('replays at most 8 MiB of updates per statement, and a larger record alone', async () => {
    const big = (seq: number, mib: number) => encodeRecord({ docId: 'space:a', seq, update: typed('x'.repeat(mib * 1024 * 1024), seq) });
    leftBehind(big(1, 5), big(2, 5), big(3, 9), big(4, 1));
    const { counting, drained } = countingDrains();
    await (await Journal.open(dir, counting, log, fatal)).close();
    expect(drained).toEqual([2, 1, 1]);
    expect((await loadDocUpdate(db, 'space:a')).seq).toBe(4);
  });

  it('starts its new file past the checkpoint even when the files before it are gone', async () => {
    await writeCheckpoint(db, { gen: 7, pos: 120 });
    const journal = await Journal.open(dir, db, log, fatal);
    expect(readdirSync(dir)).toEqual(['000000000008.journal']);
    await journal.append({ docId: 'space:a', seq: 1, update: typed('new', 1) });
    await journal.flush();
    expect(await readCheckpoint(db)).toMatchObject({ gen: 8 });
    await journal.close();
  });
});
