import { Worker } from 'node:worker_threads';
import * as Y from 'yjs';

/**
 * Large documents are read, diffed and folded on a thread of their own (`docWorker.mjs`):
 * Yjs decodes a 4 MB document (a 40,000-paragraph page) in seconds on a busy two-core
 * machine, which would stall every room and REST request of the instance meanwhile. A room
 * whose stored log is at least `LARGE_DOC_BYTES` keeps a replica of its document there
 * (`DocReplica`), fed every row the room applies, and asks it for what needs a pass over
 * the whole document (a sync step 2, a compaction's snapshot); it applies a large update
 * to its own document in slices of `SLICE_BYTES`, yielding between them (`applySliced`).
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

let nextKey = 0;

/**
 * A room's large document held on the document thread as a replica: fed every row the room
 * applies, in order (`apply`), it answers for the room's document at that point of that
 * order (`encode`), as the room's own document would have.
 */
export class DocReplica {
  private readonly key = nextKey++;
  private closed = false;

  private constructor() {}

  /** A replica of the log's `parts`, and its state in slices for the room's own document. */
  static async open(parts: Uint8Array[]): Promise<{ replica: DocReplica; slices: Uint8Array[] }> {
    const replica = new DocReplica();
    const { slices } = await call<{ slices: Uint8Array[] }>('open', { key: replica.key, parts, budget: SLICE_BYTES });
    return { replica, slices };
  }

  /** A row the room applied. Rejects if the thread could not (the replica is then of no use). */
  apply(update: Uint8Array): Promise<unknown> {
    return call('apply', { key: this.key, update });
  }

  /**
   * The document as one update, past `stateVector` when given (a sync step 2), holding
   * every row applied before this call.
   */
  async encode(stateVector?: Uint8Array): Promise<Uint8Array> {
    return (await call<{ update: Uint8Array }>('encode', { key: this.key, stateVector })).update;
  }

  /** Drops the replica; questions asked before are answered first. A stopped thread holds none. */
  close() {
    if (this.closed) return;
    this.closed = true;
    if (worker) call('close', { key: this.key }).catch(() => {});
  }
}

/** What `update` holds past `stateVector`, as one update and in slices. */
export const missingSliced = (update: Uint8Array, stateVector: Uint8Array) =>
  call<{ diff: Uint8Array; slices: Uint8Array[] }>('missing', { update, stateVector, budget: SLICE_BYTES });

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Applies `slices` to `doc` in order, one per turn of the event loop. */
export async function applySliced(doc: Y.Doc, slices: Uint8Array[]) {
  for (const [i, slice] of slices.entries()) {
    if (i > 0) await turn();
    Y.applyUpdate(doc, slice);
  }
}
