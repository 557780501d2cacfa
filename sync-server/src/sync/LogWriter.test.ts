import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createLogger } from '../logger';
import { type Db, DurabilityUnknownError, type Queryable } from '../store/db';
import { pgliteOf, wrapPglite } from '../store/pglite';
import { YDOC_CHANNEL, parseLogNotice } from '../store/ydocs';
import { freshTestDb } from '../testing/databases';
import { waitFor } from '../testing/syncClients';
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

describe('the log writer announcing rows', () => {
  it('sends one notice per group listing its rows on PostgreSQL, and none on the embedded database', async () => {
    const heard: string[] = [];
    const unlisten = await db.listen(YDOC_CHANNEL, (payload) => heard.push(payload));
    try {
      const writer = new LogWriter(db, 'notice-instance', createLogger('silent'), () => {});
      const docs = ['doc:notice-a', 'doc:notice-b', 'doc:notice-c'];
      // Handed in within one turn of the event loop: one group.
      const seqs = await Promise.all(docs.map((d) => writer.append(d, update(d))));
      expect(seqs).toEqual([1, 1, 1]);
      // A notification sent by a committed statement has reached a listener once a later one has.
      await db.notify(YDOC_CHANNEL, 'fence');
      await waitFor(() => heard.includes('fence'), 'the fence notice');
      const notices = heard.filter((p) => p !== 'fence').map(parseLogNotice);
      if (db.kind === 'pglite') {
        expect(notices).toEqual([]);
        return;
      }
      expect(notices).toHaveLength(1);
      expect(notices[0]?.origin).toBe('notice-instance');
      expect(notices[0]?.rows.map((r) => `${r.docId}@${r.seq}`).sort()).toEqual(docs.map((d) => `${d}@1`));
    } finally {
      await unlisten();
    }
  });
});
