import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { freshTestDb } from '../../testing/databases';
import type { Db, Queryable } from '../db';
import { loadDocUpdate } from '../ydocs';
import { DRAIN_STATEMENT, readCheckpoint } from './drainSql';
import { encodeRecord } from './frames';
import { Journal, type JournalLog } from './Journal';

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
    expect(statSync(join(dir, '000000000001.journal')).size).toBeGreaterThan(64 * 1024);
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
