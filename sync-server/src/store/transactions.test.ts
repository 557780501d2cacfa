import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTestDb, testAdapter } from '../testing/databases';
import type { Db } from './db';

/**
 * What every store function relies on, on both adapters: a transaction is all or nothing,
 * and what it announces with NOTIFY is heard only once it is committed (the sync fan-out
 * relays nothing that was not stored).
 */

let db: Db;
beforeAll(async () => {
  db = await freshTestDb();
  await db.exec('CREATE TABLE tx_probe (id text PRIMARY KEY)');
});
afterAll(async () => db?.close());

const ids = async () => (await db.query<{ id: string }>('SELECT id FROM tx_probe ORDER BY id')).map((r) => r.id);

/** Payloads heard on `channel` while `fn` runs, and a moment after. */
async function heard(channel: string, fn: () => Promise<unknown>): Promise<string[]> {
  const got: string[] = [];
  const stop = await db.listen(channel, (p) => got.push(p));
  try {
    await fn().catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    await stop();
  }
  return got;
}

describe(`transactions on ${testAdapter()}`, () => {
  it('commit every write when the function resolves, and answer its value', async () => {
    const out = await db.transaction(async (tx) => {
      await tx.query("INSERT INTO tx_probe (id) VALUES ('a'), ('b')");
      return 'done';
    });
    expect(out).toBe('done');
    expect(await ids()).toEqual(['a', 'b']);
  });

  it('roll every write back when the function throws, and pass the error on', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO tx_probe (id) VALUES ('c')");
        await tx.query("UPDATE tx_probe SET id = 'z' WHERE id = 'a'");
        throw new Error('refused half way');
      }),
    ).rejects.toThrow('refused half way');
    expect(await ids()).toEqual(['a', 'b']);
    // A failing statement rolls back the statements before it too.
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO tx_probe (id) VALUES ('d')");
        await tx.query("INSERT INTO tx_probe (id) VALUES ('a')");
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await ids()).toEqual(['a', 'b']);
  });

  it('send NOTIFY on commit only: a rolled-back announcement is never heard', async () => {
    const rolledBack = await heard('tx_probe_channel', () =>
      db.transaction(async (tx) => {
        await tx.query("SELECT pg_notify('tx_probe_channel', 'lost')");
        throw new Error('rolled back');
      }),
    );
    expect(rolledBack).toEqual([]);
    const committed = await heard('tx_probe_channel', () =>
      db.transaction(async (tx) => {
        await tx.query("SELECT pg_notify('tx_probe_channel', 'kept')");
      }),
    );
    expect(committed).toEqual(['kept']);
  });
});
