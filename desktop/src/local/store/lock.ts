import { lockDataDir as lock } from '@quire/shared/dataDirLock';

export { DataDirInUseError } from '@quire/shared/dataDirLock';

/**
 * Takes the desktop's data directory for this process (see shared/dataDirLock.ts): a lock
 * left by a process that is gone is taken over, so reopening after a crash never needs a
 * manual cleanup.
 */
export function lockDataDir(dataDir: string): () => void {
  return lock(dataDir, {
    file: 'quire-desktop.lock',
    inUse: (dir, pid) => `The data directory ${dir} is in use by another Quire process (pid ${pid}). Close it first.`,
  });
}
