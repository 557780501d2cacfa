// The embedded database in a thread of its own (see pgliteThread.ts): Postgres compiled to
// WebAssembly runs each statement synchronously, so on the server's event loop every
// statement (a journal drain, a cold REST read, a revision cut) held up every socket.
// Here it holds up only the statements queued behind it, as a database server would.
// Plain JavaScript, so the worker starts without a TypeScript loader.
import { PGlite } from '@electric-sql/pglite';
import { parentPort, workerData } from 'node:worker_threads';

const BYTEA = 17;
// The same bytea handling as the adapter's (pglite.ts): bytes as they are, both ways.
const BINARY = {
  serializers: { [BYTEA]: (v) => v },
  parsers: { [BYTEA]: (v) => new Uint8Array(Buffer.from(v.slice(2), 'hex')) },
};
/** Ends a transaction the caller rolled back, without an error of its own. */
const ROLLBACK = Symbol('rollback');
/** The fields of a Postgres error that callers may read (the rest is PGlite's internals). */
const ERROR_FIELDS = [
  'name',
  'code',
  'detail',
  'hint',
  'position',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'severity',
];

const pg = new PGlite(workerData.dataDir, { startParams: workerData.startParams });
/** Open transactions by id: their query handle, and how the caller ends them. */
const transactions = new Map();
const listening = new Map();
let nextTx = 0;

const reply = (id, body) => parentPort.postMessage({ id, ...body });
function replyError(id, err) {
  const error = { message: err instanceof Error ? err.message : String(err) };
  for (const f of ERROR_FIELDS) if (err?.[f] !== undefined) error[f] = err[f];
  reply(id, { error });
}

async function handle(m) {
  switch (m.op) {
    case 'query': {
      const on = m.tx === undefined ? pg : transactions.get(m.tx)?.tx;
      if (!on) throw new Error('the transaction has ended');
      const res = await on.query(m.sql, m.params, BINARY);
      return { rows: res.rows };
    }
    case 'exec':
      await pg.exec(m.sql);
      return {};
    case 'begin':
      return begin(m.id);
    case 'end': {
      const t = transactions.get(m.tx);
      if (!t) throw new Error('the transaction has ended');
      if (m.commit) t.commit();
      else t.rollback(ROLLBACK);
      await t.done.catch((err) => {
        if (err !== ROLLBACK) throw err;
      });
      return {};
    }
    case 'listen': {
      if (!listening.has(m.channel)) {
        listening.set(m.channel, await pg.listen(m.channel, (payload) => parentPort.postMessage({ notify: m.channel, payload })));
      }
      return {};
    }
    case 'unlisten': {
      const stop = listening.get(m.channel);
      listening.delete(m.channel);
      await stop?.();
      return {};
    }
    case 'close':
      if (!pg.closed) await pg.close();
      return {};
  }
  throw new Error(`unknown operation ${m.op}`);
}

/**
 * Opens a transaction and answers with its id once it has begun; it stays open (PGlite's
 * one connection held) until `end` commits or rolls it back.
 */
function begin(id) {
  const txId = ++nextTx;
  let begun = false;
  let commit;
  let rollback;
  const ended = new Promise((resolve, reject) => {
    commit = resolve;
    rollback = reject;
  });
  const done = pg
    .transaction(async (tx) => {
      begun = true;
      transactions.set(txId, { tx, commit, rollback, done });
      reply(id, { tx: txId });
      await ended;
    })
    .finally(() => transactions.delete(txId));
  done.catch((err) => {
    if (!begun) replyError(id, err);
  });
  return undefined;
}

await pg.waitReady;
parentPort.on('message', (m) => {
  handle(m).then(
    (body) => body && reply(m.id, body),
    (err) => replyError(m.id, err),
  );
});
parentPort.postMessage({ ready: true });
