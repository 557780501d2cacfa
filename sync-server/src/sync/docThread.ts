import { Worker } from 'node:worker_threads';
import * as Y from 'yjs';

/**
 * Large documents are read, diffed and folded on a thread of their own (`docWorker.mjs`):
 * Yjs decodes a 4 MB document (a 40,000-paragraph page) in seconds on a busy two-core
 * machine, which would stall every room and REST request of the instance meanwhile. A room
 * whose stored log is at least `LARGE_DOC_BYTES` keeps that log's bytes (`RoomDocument`)
 * and asks this thread for what needs a pass over all of it; it applies a large update to
 * its document in slices of `SLICE_BYTES`, yielding between them (`applySliced`).
 */
export const LARGE_DOC_BYTES = 64 * 1024;
/** About 500 structs: 2 to 3 ms of Yjs on a quiet machine, tens on a loaded one. */
export const SLICE_BYTES = 4 * 1024;

type Pending = { resolve: (v: never) => void; reject: (err: Error) => void };

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

function thread(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('./docWorker.mjs', import.meta.url));
  w.unref();
  const failAll = (err: Error) => {
    if (worker === w) worker = undefined;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on('message', (m: { id: number; result?: never; error?: string }) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error !== undefined) p.reject(new Error(m.error));
    else p.resolve(m.result as never);
  });
  w.on('error', failAll);
  w.on('exit', (code) => failAll(new Error(`the document thread stopped (${code})`)));
  worker = w;
  return w;
}

function call<T>(op: string, args: object): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const id = nextId++;
    const w = thread();
    // Only while a call waits does the thread keep the process alive.
    w.ref();
    const settle = () => {
      if (pending.size === 0) w.unref();
    };
    pending.set(id, {
      resolve: (v: never) => {
        settle();
        resolve(v);
      },
      reject: (err) => {
        settle();
        reject(err);
      },
    });
    w.postMessage({ id, op, args });
  });
}

export const sizeOf = (parts: Uint8Array[]) => parts.reduce((n, p) => n + p.byteLength, 0);

/** The log merged into one update, and that update cut into slices to apply one by one. */
export const loadSliced = (parts: Uint8Array[]) =>
  call<{ state: Uint8Array; slices: Uint8Array[] }>('load', { parts, budget: SLICE_BYTES });

/** What the log holds past `stateVector`, as one update and in slices. */
export const missingSliced = (parts: Uint8Array[], stateVector: Uint8Array) =>
  call<{ diff: Uint8Array; slices: Uint8Array[] }>('missing', { parts, stateVector, budget: SLICE_BYTES });

/** What the log holds past `stateVector` (a sync step 2's update), with the log merged. */
export const diffLog = (parts: Uint8Array[], stateVector: Uint8Array) =>
  call<{ state: Uint8Array; diff: Uint8Array }>('diff', { parts, stateVector });

/** The log as a document's state, deleted content collected (a compaction's snapshot). */
export const collectLog = (parts: Uint8Array[]) => call<{ state: Uint8Array }>('collect', { parts });

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Applies `slices` to `doc` in order, one per turn of the event loop. */
export async function applySliced(doc: Y.Doc, slices: Uint8Array[]) {
  for (const [i, slice] of slices.entries()) {
    if (i > 0) await turn();
    Y.applyUpdate(doc, slice);
  }
}
