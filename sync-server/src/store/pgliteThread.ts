import { Worker } from 'node:worker_threads';
import type { PGliteLike } from './pgliteLike';

interface Reply {
  id?: number;
  rows?: unknown[];
  tx?: number;
  error?: { message: string } & Record<string, unknown>;
  notify?: string;
  payload?: string;
  ready?: boolean;
}

/**
 * The embedded database in a worker thread (`pgliteWorker.mjs`), behind the part of
 * PGlite's interface the adapter uses. PGlite runs every statement synchronously, in
 * WebAssembly, on the thread that calls it: on the server's event loop a journal drain or
 * a cold read held up every socket for as long as it ran, and its garbage piled onto the
 * loop's heap. In a thread of its own it holds up nothing but the statements queued
 * behind it, as a database server would; rows cross as structured clones.
 *
 * The thread keeps the order of what is asked of it, as PGlite's one connection does: a
 * statement sent while a transaction is open waits for it. A notification raised by a
 * statement arrives before that statement's answer, as in process.
 */
export async function startPgliteThread(dataDir: string, startParams: string[]): Promise<PGliteLike> {
  const worker = new Worker(new URL('./pgliteWorker.mjs', import.meta.url), { workerData: { dataDir, startParams } });
  const pending = new Map<number, { resolve: (r: Reply) => void; reject: (err: Error) => void }>();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  const subscriptions = new Map<string, Promise<Reply>>();
  let nextId = 0;
  let stopped: Error | undefined;
  let closed = false;

  const stop = (err: Error) => {
    stopped ??= err;
    for (const p of pending.values()) p.reject(stopped);
    pending.clear();
  };
  const ready = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the database thread stopped while starting (exit code ${code})`)));
    worker.on('message', (m: Reply) => {
      if (m.ready) return resolve();
      if (m.notify !== undefined) {
        for (const l of listeners.get(m.notify) ?? []) l(m.payload ?? '');
        return;
      }
      const p = pending.get(m.id as number);
      if (!p) return;
      pending.delete(m.id as number);
      // Idle, the thread does not keep the process alive; a statement in flight does.
      if (pending.size === 0) worker.unref();
      if (m.error) p.reject(Object.assign(new Error(m.error.message), m.error));
      else p.resolve(m);
    });
  });
  await ready;
  worker.removeAllListeners('error').removeAllListeners('exit');
  worker.on('error', (err) => stop(err));
  worker.on('exit', (code) => stop(new Error(`the database thread stopped (exit code ${code})`)));
  worker.unref();

  const ask = (message: Record<string, unknown>) =>
    new Promise<Reply>((resolve, reject) => {
      if (stopped) return reject(stopped);
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ ...message, id });
    });
  const queryOn =
    (tx?: number) =>
    async <T>(sql: string, params?: unknown[]) => {
      const reply = await ask({ op: 'query', sql, params, tx });
      return { rows: reply.rows as T[] };
    };

  return {
    query: queryOn(),
    async exec(sql: string) {
      await ask({ op: 'exec', sql });
      return [];
    },
    async transaction<T>(fn: (tx: Pick<PGliteLike, 'query'>) => Promise<T>): Promise<T> {
      const { tx } = await ask({ op: 'begin' });
      let out: T;
      try {
        out = await fn({ query: queryOn(tx) });
      } catch (err) {
        await ask({ op: 'end', tx, commit: false }).catch(() => {});
        throw err;
      }
      await ask({ op: 'end', tx, commit: true });
      return out;
    },
    async listen(channel: string, onPayload: (payload: string) => void) {
      let subscribed = subscriptions.get(channel);
      if (!subscribed) {
        subscribed = ask({ op: 'listen', channel });
        subscriptions.set(channel, subscribed);
        listeners.set(channel, new Set());
      }
      const set = listeners.get(channel) as Set<(payload: string) => void>;
      set.add(onPayload);
      // A second listener of the channel also returns only once the thread listens.
      await subscribed;
      return async () => {
        set.delete(onPayload);
        if (set.size > 0 || listeners.get(channel) !== set) return;
        listeners.delete(channel);
        subscriptions.delete(channel);
        await ask({ op: 'unlisten', channel }).catch(() => {});
      };
    },
    get closed() {
      return closed;
    },
    async close() {
      if (closed) return;
      closed = true;
      await ask({ op: 'close' }).catch(() => {});
      stop(new Error('the database is closed'));
      await worker.terminate();
    },
  };
}
