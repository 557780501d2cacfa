// Makes PGlite's commits durable (see walSyncer in pglite.ts) in a thread of its own: the
// listing, the stats and the fsyncs run one after another here, so a commit waits for one
// message back instead of a dozen file-system callbacks, each queued behind whatever the
// server's event loop is busy with.
// Plain JavaScript, so the worker starts without a TypeScript loader.
import { closeSync, fsyncSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const walDir = join(workerData.dataDir, 'pg_wal');

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function fsyncPath(path) {
  let fd;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    // A segment removed since the listing was recycled by a checkpoint: nothing in it is needed.
    if (err.code === 'ENOENT' && path !== walDir) return;
    throw err;
  }
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function syncOnce() {
  const segments = readdirSync(walDir)
    .filter((f) => /^[0-9A-F]{24}$/.test(f))
    .map((name) => ({ path: join(walDir, name), modified: mtime(join(walDir, name)) }));
  const written = segments.sort((a, b) => b.modified - a.modified).slice(0, 2);
  for (const path of [...written.map((s) => s.path), walDir]) fsyncPath(path);
}

parentPort.on('message', (id) => {
  try {
    syncOnce();
    parentPort.postMessage({ id });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: err?.message ?? String(err), code: err?.code } });
  }
});
