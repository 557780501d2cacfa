// Makes PGlite's commits durable (see walSyncer in pglite.ts) in a thread of its own: the
// listing, the stats and the fdatasyncs run one after another here, so a commit waits for
// one message back instead of a dozen file-system callbacks, each queued behind whatever
// the server's event loop is busy with.
// The segments stay open between syncs, and the directory is synced only when the set of
// segment names changed (a segment created, recycled or removed): a name is metadata the
// file's own fdatasync does not cover, its contents are.
// Plain JavaScript, so the worker starts without a TypeScript loader.
import { closeSync, fdatasyncSync, fstatSync, fsyncSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const walDir = join(workerData.dataDir, 'pg_wal');
/** Open segments by name, valid while the set of names is `synced`. */
const handles = new Map();
/** The segment names as of the last directory sync. */
let synced = '';

function closeAll() {
  for (const fd of handles.values()) {
    try {
      closeSync(fd);
    } catch {}
  }
  handles.clear();
}

function handleOf(name) {
  let fd = handles.get(name);
  if (fd === undefined) {
    try {
      fd = openSync(join(walDir, name), 'r');
    } catch (err) {
      // A segment removed since the listing was recycled by a checkpoint: nothing in it is needed.
      if (err.code === 'ENOENT') return undefined;
      throw err;
    }
    handles.set(name, fd);
  }
  return fd;
}

function syncOnce() {
  const names = readdirSync(walDir)
    .filter((f) => /^[0-9A-F]{24}$/.test(f))
    .sort();
  const set = names.join(',');
  // A handle kept under a name may be another segment's file now (renamed for reuse).
  if (set !== synced) closeAll();
  const segments = [];
  for (const name of names) {
    const fd = handleOf(name);
    if (fd !== undefined) segments.push({ fd, modified: fstatSync(fd).mtimeMs });
  }
  const written = segments.sort((a, b) => b.modified - a.modified).slice(0, 2);
  for (const { fd } of written) fdatasyncSync(fd);
  if (set !== synced) {
    const dir = openSync(walDir, 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
    synced = set;
  }
}

parentPort.on('message', (msg) => {
  const id = typeof msg === 'number' ? msg : msg.id;
  try {
    // Stopping: the open segments are the process's descriptors, not the thread's.
    if (typeof msg === 'object' && msg.close) closeAll();
    else syncOnce();
    parentPort.postMessage({ id });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: err?.message ?? String(err), code: err?.code } });
  }
});
