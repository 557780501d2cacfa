import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshTestDb } from '../../testing/databases';
import type { Db } from '../db';
import { Journal } from './Journal';

/** fdatasync answers an I/O error while `failing` is set, and counts its calls. */
const disk = vi.hoisted(() => ({ failing: false, syncs: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    fdatasync: (fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => {
      disk.syncs++;
      if (disk.failing) return setImmediate(() => cb(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })));
      return fs.fdatasync(fd, cb);
    },
  };
});

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
    const journal = await Journal.open(dir, db, { warn: () => {}, error: () => {} }, (err) => fatal.push(err));
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
