import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createLogger } from '../logger';
import { type Db, DurabilityUnknownError, type Queryable } from '../store/db';
import { pgliteOf, wrapPglite } from '../store/pglite';
import { freshTestDb } from '../testing/databases';
import { LogWriter } from './LogWriter';

let db: Db;
beforeAll(async () => {
  db = await freshTestDb();
});
afterAll(async () => db?.close());

function update(text: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getText('t').insert(0, text);
  return Y.encodeStateAsUpdate(doc);
}

/**
 * The database as the log writer meets it when the disk fails right after a commit: on
 * PGlite, the real adapter whose WAL fsync fails; on PostgreSQL, the adapter's answer to a
 * COMMIT whose outcome it could not learn (the connection dropped). The commit happened.
 */
function failingAfterCommit(): { db: Db; fail: (on: boolean) => void } {
  let failing = false;
  const raw = pgliteOf(db);
  if (raw) {
    const wrapped = wrapPglite(raw, async () => {
      if (failing) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    });
    return { db: Object.create(wrapped, { close: { value: async () => {} } }) as Db, fail: (on) => (failing = on) };
  }
  const wrapped = Object.create(db, {
    transaction: {
      value: async <T>(fn: (tx: Queryable) => Promise<T>) => {
        const out = await db.transaction(fn);
        if (failing) throw new DurabilityUnknownError(new Error('Connection terminated unexpectedly'));
        return out;
      },
    },
  }) as Db;
  return { db: wrapped, fail: (on) => (failing = on) };
}

describe('the log writer after a failed fsync', () => {
  it('writes each row once, retries nothing, and stops the process', async () => {
    const { db: failing, fail } = failingAfterCommit();
    const fatal: unknown[] = [];
    const writer = new LogWriter(failing, 'this-instance', createLogger('silent'), (err) => fatal.push(err));
    fail(true);
    // Two documents in one group: the commit that covers both is the one whose fsync fails.
    const results = await Promise.allSettled([writer.append('doc:fsync-a', update('a')), writer.append('doc:fsync-b', update('b'))]);
    fail(false);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    const rows = await db.query<{ doc_id: string; n: number }>(
      "SELECT doc_id, count(*)::int AS n FROM ydoc_updates WHERE doc_id IN ('doc:fsync-a', 'doc:fsync-b') GROUP BY doc_id ORDER BY doc_id",
    );
    expect(rows).toEqual([
      { doc_id: 'doc:fsync-a', n: 1 },
      { doc_id: 'doc:fsync-b', n: 1 },
    ]);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toBeInstanceOf(DurabilityUnknownError);
  });

  it('still commits a group again one by one when it was rolled back (nothing reached the log)', async () => {
    const fatal: unknown[] = [];
    const writer = new LogWriter(db, 'this-instance', createLogger('silent'), (err) => fatal.push(err));
    // A row that cannot be written (NUL in its id) fails the group; the other document is written alone.
    const results = await Promise.allSettled([writer.append('doc:bad\u0000id', update('x')), writer.append('doc:fine', update('y'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    const rows = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM ydoc_updates WHERE doc_id = 'doc:fine'");
    expect(rows[0]?.n).toBe(1);
    expect(fatal).toEqual([]);
  });
});
