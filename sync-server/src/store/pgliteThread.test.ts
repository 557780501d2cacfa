import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db';
import { openPglite } from './pglite';

/**
 * A data directory's database runs in a thread of its own: what the adapter promised on
 * the caller's thread (one connection's order, transactions, errors a caller can read,
 * notifications before the answer) still holds, and a long statement no longer stops the
 * event loop.
 */
let dir: string;
let db: Db;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-pglite-thread-'));
  db = await openPglite(dir);
  await db.exec('CREATE TABLE t (id int PRIMARY KEY, note text, data bytea)');
});
afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Counts the turns a 5 ms timer gets while `work` runs. */
async function ticksDuring(work: () => Promise<unknown>): Promise<number> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return ticks;
}

const slowStatement = 'SELECT count(*) AS n FROM generate_series(1, 2000000) a';

describe('the embedded database in a thread of its own', () => {
  it('answers with the same rows and bytes as on the caller’s thread', async () => {
    const bytes = new Uint8Array([0, 1, 254, 255]);
    await db.query('INSERT INTO t (id, note, data) VALUES ($1, $2, $3)', [1, 'first', Buffer.from(bytes)]);
    const [row] = await db.query<{ id: number; note: string; data: Uint8Array }>('SELECT * FROM t WHERE id = 1');
    expect(row?.note).toBe('first');
    expect([...(row?.data ?? [])]).toEqual([...bytes]);
  });

  it('keeps the event loop turning while a long statement runs', async () => {
    // On the caller's thread the statement (about a second of WebAssembly) holds the loop from start to end: one turn at most.
    expect(await ticksDuring(() => db.query(slowStatement))).toBeGreaterThan(5);
  });

  it('hands a statement error over with the fields callers read', async () => {
    const err = await db.query('INSERT INTO t (id) VALUES (1)').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: '23505', constraint: 't_pkey' });
    expect((err as Error).message).toMatch(/duplicate key/);
  });

  it('rolls back a transaction whose body throws, and a statement asked meanwhile waits for it', async () => {
    let outside: Promise<unknown> | undefined;
    const failed = db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO t (id, note) VALUES (2, $1)', ['inside']);
        // One connection: this waits for the transaction, so it never sees the row.
        outside = db.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id = 2');
        await new Promise((r) => setTimeout(r, 30));
        throw new Error('changed my mind');
      })
      .catch((e: Error) => e.message);
    expect(await failed).toBe('changed my mind');
    expect(await outside).toEqual([{ n: 0 }]);
    expect(
      await db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id, note) VALUES (3, $1)', ['kept']);
        return 'committed';
      }),
    ).toBe('committed');
    expect(await db.query('SELECT note FROM t WHERE id = 3')).toEqual([{ note: 'kept' }]);
  });

  it('delivers a notification before the answer of the statement that raised it', async () => {
    const heard: string[] = [];
    const stop = await db.listen('thread_test', (payload) => heard.push(payload));
    await db.notify('thread_test', 'hello');
    expect(heard).toEqual(['hello']);
    await stop();
    await db.notify('thread_test', 'unheard');
    expect(heard).toEqual(['hello']);
  });
});
