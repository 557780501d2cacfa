import { fdatasync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTestDb } from '../../testing/databases';
import type { Db } from '../db';
import { type DataSync, Journal } from './Journal';

/** fdatasync answers an I/O error while `failing` is set, and counts its calls. */
const disk = { failing: false, syncs: 0 };
const datasync: DataSync = (fd, cb) => {
  disk.syncs++;
  if (disk.failing) return setImmediate(() => cb(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })));
  return fdatasync(fd, cb);
};

let db: Db;
let dir: string;
beforeAll(async () => {
  db = await freshTestDb({ journal: false });
  dir = mkdtempSync(join(tmpdir(), 'quire-journal-eio-'));
});
afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the sync journal when fdatasync fails', () => {
  it('refuses what was waiting, stops the process once, and never syncs again', async () => {
    const fatal: Error[] = [];
    const journal = await Journal.open(dir, db, { warn: () => {}, error: () => {} }, (err) => fatal.push(err), { datasync });
    await journal.append({ docId: 'space:a', seq: 1, update: new Uint8Array([0]) });
    disk.failing = true;
    const before = disk.syncs;
    const waiting = [1, 2, 3].map((i) => journal.append({ docId: 'space:a', seq: 1 + i, update: new Uint8Array([i]) }));
    for (const w of waiting) await expect(w).rejects.toThrow(/EIO/);
    expect(fatal).toHaveLength(1);
    disk.failing = false;
    await expect(journal.append({ docId: 'space:a', seq: 5, update: new Uint8Array([5]) })).rejects.toThrow(/EIO/);
    // One failed sync; none after it, even with the disk answering again.
    expect(disk.syncs - before).toBe(1);
    expect(fatal).toHaveLength(1);
  });
});
