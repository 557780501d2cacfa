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
    // Nothing more is written: what the disk holds is known again only after a restart.
    await expect(writer.append('doc:fsync-c', update('c'))).rejects.toBeInstanceOf(DurabilityUnknownError);
    expect(await db.query("SELECT 1 FROM ydoc_updates WHERE doc_id = 'doc:fsync-c'")).toEqual([]);
    expect(fatal).toHaveLength(1);
  });

  it('refuses the appends waiting for the next group too', async () => {
    const { db: failing, fail } = failingAfterCommit();
    const fatal: unknown[] = [];
    const writer = new LogWriter(failing, 'this-instance', createLogger('silent'), (err) => fatal.push(err));
    fail(true);
    // One document's second append waits for the next group: on the embedded database, behind
    // the first, whose failure answers it; on PostgreSQL the next group commits beside the first.
    const results = await Promise.allSettled([writer.append('doc:fsync-q', update('a')), writer.append('doc:fsync-q', update('b'))]);
    fail(false);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(DurabilityUnknownError);
    const rows = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM ydoc_updates WHERE doc_id = 'doc:fsync-q'");
    expect(rows[0]?.n).toBe(db.kind === 'postgres' ? 2 : 1);
    expect(fatal).toHaveLength(1);
  });

  it('stops the process when a row committed alone after a rolled-back group may not have reached disk', async () => {
    const { db: failing, fail } = failingAfterCommit();
    const fatal: unknown[] = [];
    const writer = new LogWriter(failing, 'this-instance', createLogger('silent'), (err) => fatal.push(err));
    fail(true);
    const results = await Promise.allSettled([
      writer.append('doc:bad\u0000again', update('x')),
      writer.append('doc:fsync-alone', update('y')),
    ]);
    fail(false);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).not.toBeInstanceOf(DurabilityUnknownError);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(DurabilityUnknownError);
    expect(fatal).toHaveLength(1);
  });

  it('still commits a group again one by one when it was rolled back (nothing reached the log)', async () => {
    const fatal: unknown[] = [];
    const w = watched();
    const writer = new LogWriter(w.db, 'this-instance', createLogger('silent'), (err) => fatal.push(err));
    // A row that cannot be written (NUL in its id) fails the group; the other document is written alone.
    const results = await Promise.allSettled([writer.append('doc:bad\u0000id', update('x')), writer.append('doc:fine', update('y'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    expect(w.groups).toEqual([2, 1, 1]);
    // Failing alone, it is not tried again.
    await expect(writer.append('doc:bad\u0000alone', update('z'))).rejects.toThrow();
    expect(w.groups).toEqual([2, 1, 1, 1]);
    const rows = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM ydoc_updates WHERE doc_id = 'doc:fine'");
    expect(rows[0]?.n).toBe(1);
    expect(fatal).toEqual([]);
  });
});

/**
 * The database as the log writer meets it, with each grouped append's size recorded and,
 * while held, kept waiting before it runs (so groups pile up as behind a slow disk).
 */
function watched() {
  const groups: number[] = [];
  let running = 0;
  let maxRunning = 0;
  let hold: Promise<void> | undefined;
  let release = () => {};
  const counted = async <T>(sql: string, params: unknown[] | undefined, run: () => Promise<T>): Promise<T> => {
    if (!sql.includes('branch_spaces')) return run();
    groups.push((params?.[0] as string[]).length);
    running++;
    maxRunning = Math.max(maxRunning, running);
    try {
      await hold;
      return await run();
    } finally {
      running--;
    }
  };
  const wrapped = Object.create(db, {
    query: { value: <T>(sql: string, params?: unknown[]) => counted(sql, params, () => db.query<T>(sql, params)) },
    transaction: {
      value: <T>(fn: (tx: Queryable) => Promise<T>) =>
        db.transaction((tx) => fn({ query: <U>(sql: string, params?: unknown[]) => counted(sql, params, () => tx.query<U>(sql, params)) })),
    },
  }) as Db;
  return {
    db: wrapped,
    groups,
    get running() {
      return running;
    },
    get maxRunning() {
      return maxRunning;
    },
    hold() {
      hold = new Promise((r) => (release = r));
    },
    release() {
      hold = undefined;
      release();
    },
  };
}

/** A document id whose notice line takes `bytes` bytes. */
const longDocId = (i: number, bytes: number) => `doc:long-${i}-`.padEnd(bytes - 22, 'x');

describe('the log writer gathering groups', () => {
  it("puts one document's appends in groups of their own, in the order handed in on the embedded database", async () => {
    const w = watched();
    const writer = new LogWriter(w.db, 'this-instance', createLogger('silent'), () => {});
    const seqs = await Promise.all(['one', 'two', 'three'].map((t) => writer.append('doc:ordered', update(t))));
    expect(w.groups).toEqual([1, 1, 1]);
    // On PostgreSQL the groups commit side by side, in any order: a room has one append in flight.
    if (db.kind === 'postgres') return expect([...seqs].sort()).toEqual([1, 2, 3]);
    expect(seqs).toEqual([1, 2, 3]);
    const rows = await db.query<{ seq: number; update: Uint8Array }>(
      "SELECT seq, update FROM ydoc_updates WHERE doc_id = 'doc:ordered' ORDER BY seq",
    );
    expect(
      rows.map((r) => {
        const d = new Y.Doc();
        Y.applyUpdate(d, new Uint8Array(r.update));
        return d.getText('t').toString();
      }),
    ).toEqual(['one', 'two', 'three']);
  });

  it('gathers at most 256 appends, and a notice under the payload limit, into one statement', async () => {
    const w = watched();
    const writer = new LogWriter(w.db, 'this-instance', createLogger('silent'), () => {});
    const seqs = await Promise.all(Array.from({ length: 300 }, (_, i) => writer.append(`d${i}`, update('m'))));
    expect(seqs.every((s) => s === 1)).toBe(true);
    // Sizes in any order: on PostgreSQL the groups commit side by side.
    expect([...w.groups].sort((x, y) => y - x)).toEqual([256, 44]);

    w.groups.length = 0;
    // Each row's notice line takes 2500 bytes: two fit under 7000, three would not.
    await Promise.all(Array.from({ length: 5 }, (_, i) => writer.append(longDocId(i, 2500), update('l'))));
    expect([...w.groups].sort((x, y) => y - x)).toEqual([2, 2, 1]);
  });

  it('commits one group at a time on the embedded database, and up to three at once on PostgreSQL', async () => {
    const w = watched();
    const writer = new LogWriter(w.db, 'this-instance', createLogger('silent'), () => {});
    w.hold();
    const all = Promise.all(Array.from({ length: 10 }, (_, i) => writer.append(longDocId(100 + i, 2500), update('c'))));
    const expected = db.kind === 'postgres' ? 3 : 1;
    await waitFor(() => w.running === expected, 'groups to start');
    await new Promise((r) => setTimeout(r, 50));
    expect(w.maxRunning).toBe(expected);
    w.release();
    expect(await all).toEqual(Array.from({ length: 10 }, () => 1));
    expect(w.maxRunning).toBe(expected);
    expect(w.groups).toHaveLength(5);
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
