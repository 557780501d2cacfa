import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another process (pid ${pid}). ` +
        'Stop that server first, or start this one with another DATA_DIR. The embedded database serves one process only; use DATABASE_URL to run several.',
    );
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
 * When the process with this pid started (clock ticks since boot, from /proc on Linux),
 * or undefined where that cannot be read. A pid alone is reused: after a kill -9 and a
 * restart (a container's, typically) the dead owner's pid may belong to an unrelated
 * process, or to this server's own parent (npm, tsx), which must not pass for the owner.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22; the command name (field 2) is in parentheses and may hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The lock file's content: `<pid>` or `<pid> <start time>`. */
function ownerLine(pid: number): string {
  const started = processStartTime(pid);
  return started ? `${pid} ${started}` : String(pid);
}

/** Whether the process that wrote `line` still runs. */
function ownerAlive(line: string): { pid: number; alive: boolean } {
  const [pidText, started] = line.trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || !alive(pid)) return { pid, alive: false };
  // Same pid, another process: the owner is gone.
  const now = started ? processStartTime(pid) : undefined;
  return { pid, alive: !(started && now && now !== started) };
}

/** A lock file another process may remove at any moment: gone reads as empty. */
function readIfThere(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

function removeIfThere(path: string) {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * Takes the data directory for this process. The lock file names the owner (pid and start
 * time); a lock whose process is gone (SIGKILL, power cut) is stale and taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'quire.lock');
  const mine = ownerLine(process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, mine);
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(path, 'utf8').trim() === mine) unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = ownerAlive(readIfThere(path));
      if (owner.alive) throw new DataDirInUseError(dataDir, owner.pid);
      removeIfThere(path);
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
