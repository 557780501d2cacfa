import { lockDataDir as lock } from '@quire/shared/dataDirLock';

export { DataDirInUseError, processStartTime } from '@quire/shared/dataDirLock';

/** Takes the server's data directory for this process (see shared/dataDirLock.ts). */
export function lockDataDir(dataDir: string): () => void {
  return lock(dataDir, {
    file: 'quire.lock',
    inUse: (dir, pid) =>
      `The data directory ${dir} is in use by another process (pid ${pid}). ` +
      'Stop that server first, or start this one with another DATA_DIR. The embedded database serves one process only; use DATABASE_URL to run several.',
  });
}
