import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl, testAdapter } from '../testing/databases';
import { DataDirInUseError, lockDataDir, processStartTime } from './lock';
import { openStore } from './open';

/**
 * The embedded database's data directory belongs to one process. A lock left by a process
 * that died (kill -9, power cut) is stale and taken over, even when its pid now names
 * another process; a live owner is never displaced.
 */

let dir: string;
let other: ChildProcess;
const lockFile = () => join(dir, 'quire.lock');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-lock-'));
  other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await new Promise((r) => other.once('spawn', r));
});
afterAll(() => {
  other?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const hasProc = processStartTime(process.pid) !== undefined;

describe('the data directory lock', () => {
  it('names its owner (pid and start time) and is released by its owner', () => {
    const unlock = lockDataDir(dir);
    const line = readFileSync(lockFile(), 'utf8');
    expect(line.split(' ')[0]).toBe(String(process.pid));
    if (hasProc) expect(line).toBe(`${process.pid} ${processStartTime(process.pid)}`);
    unlock();
    expect(() => readFileSync(lockFile())).toThrow(/ENOENT/);
  });

  it('refuses while another live process holds it, naming that process', () => {
    writeFileSync(lockFile(), hasProc ? `${other.pid} ${processStartTime(other.pid as number)}` : String(other.pid));
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dir)).toThrow(`is in use by another process (pid ${other.pid})`);
    // A lock written before start times were recorded: a live pid is taken at its word.
    writeFileSync(lockFile(), String(other.pid));
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
  });

  it('takes over the lock of a process that is gone', async () => {
    const dead = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await new Promise((r) => dead.once('exit', r));
    writeFileSync(lockFile(), `${dead.pid} 12345`);
    const unlock = lockDataDir(dir);
    expect(readFileSync(lockFile(), 'utf8').split(' ')[0]).toBe(String(process.pid));
    unlock();
  });

  it.skipIf(!hasProc)('takes over a lock whose pid was reused by another process after a crash', () => {
    const started = Number(processStartTime(other.pid as number));
    writeFileSync(lockFile(), `${other.pid} ${started - 1}`);
    const unlock = lockDataDir(dir);
    expect(readFileSync(lockFile(), 'utf8').split(' ')[0]).toBe(String(process.pid));
    unlock();
  });

  it('takes over a lock left empty by a process killed while writing it', () => {
    writeFileSync(lockFile(), '');
    lockDataDir(dir)();
  });

  it('never removes a lock it no longer owns when released', () => {
    const unlock = lockDataDir(dir);
    writeFileSync(lockFile(), `${other.pid}`);
    unlock();
    expect(readFileSync(lockFile(), 'utf8')).toBe(`${other.pid}`);
    rmSync(lockFile());
  });

  it.skipIf(testAdapter() !== 'postgres')('is not taken with DATABASE_URL: instances share the database, not a lock', async () => {
    const { url, drop } = await freshPostgresUrl();
    const shared = join(dir, 'with-postgres');
    const [a, b] = [await openStore({ dataDir: shared, databaseUrl: url }), await openStore({ dataDir: shared, databaseUrl: url })];
    try {
      expect(() => readFileSync(join(shared, 'quire.lock'))).toThrow(/ENOENT/);
      expect(await a.db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(await b.db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await a.db.close();
      await b.db.close();
      await drop();
    }
  });
});
