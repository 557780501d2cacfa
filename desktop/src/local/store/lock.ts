import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Another live process holds the data directory. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`The data directory ${dataDir} is in use by another Quire process (pid ${pid}). Close it first.`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data directory for this process. The lock file holds the owner's pid; a lock
 * left by a process that is gone (killed, crashed) is stale and taken over, so reopening
 * after a crash never needs a manual cleanup.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, 'quire-desktop.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(path, 'utf8').trim());
      if (pid && pid !== process.pid && alive(pid)) throw new DataDirInUseError(dataDir, pid);
      unlinkSync(path);
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
