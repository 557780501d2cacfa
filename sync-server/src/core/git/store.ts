import { createHash } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/*
 * A space's object store of a repository: a bare gitdir under `DATA_DIR/git/stores/`, one
 * per space and repository URL, kept between operations so an export or a sync fetches only
 * what is new since the commit it last saw (and nothing when the branch did not move), and
 * writes only the blobs and trees that changed. It is a cache: each instance keeps its own
 * (several instances on one PostgreSQL each fetch what theirs lacks), one missing or stale
 * is filled by the next fetch, one that fails an operation is dropped and built again, and
 * one grown past twice `GIT_MAX_BYTES` (packs of many fetches, loose objects of many
 * exports) is dropped before it is used. Disconnecting the space removes its stores.
 */

function spaceStores(dataDir: string, spaceId: string): string {
  return join(dataDir, 'git', 'stores', spaceId);
}

/** The store's folder of a space's repository (the URL without credentials). */
export function gitStorePath(dataDir: string, spaceId: string, url: string): string {
  const key = createHash('sha256').update(url).digest('hex').slice(0, 24);
  return join(spaceStores(dataDir, spaceId), key);
}

/** Drops a store (it is built again by the next fetch). */
export async function dropGitStore(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true });
}

/** Removes every store of a space (its connection is gone). */
export async function removeGitStores(dataDir: string, spaceId: string): Promise<void> {
  await rm(spaceStores(dataDir, spaceId), { recursive: true, force: true });
}

/** Drops the store when it holds more than `maxBytes` on disk. */
export async function boundGitStore(path: string, maxBytes: number): Promise<void> {
  if ((await sizeOf(path, maxBytes)) > maxBytes) await dropGitStore(path);
}

/** Bytes of the files under `path`, counted until they pass `limit`. */
async function sizeOf(path: string, limit: number): Promise<number> {
  let total = 0;
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (total > limit) return;
      const full = join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile()) total += (await stat(full).catch(() => ({ size: 0 }))).size;
    }
  };
  await walk(path);
  return total;
}
