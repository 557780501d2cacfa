import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { freshTestDb } from '../testing/databases';
import type { Db } from './db';
import {
  YDOC_CHANNEL,
  appendUpdate,
  compactDoc,
  copyDoc,
  deleteDoc,
  ensureDoc,
  loadDocUpdate,
  loadStoredDoc,
  loadYDoc,
  logNotice,
  noticeBytesOf,
  parseLogNotice,
  readDocLog,
  updatesSince,
} from './ydocs';

/**
 * A document's stored log on its own, one database for the file: what is appended, read
 * back, folded into the snapshot and copied, and what a reader past a given seq receives.
 */

let db: Db;
beforeAll(async () => {
  db = await freshTestDb();
});
afterAll(async () => db?.close());

let n = 0;
const newDocId = () => `doc-${++n}-${Math.random().toString(36).slice(2, 8)}`;

/** A client editing one text, each edit handed out as the update it produced. */
function writer() {
  const doc = new Y.Doc();
  const text = doc.getText('t');
  return {
    doc,
    edit(fn: (t: Y.Text) => void): Uint8Array {
      const before = Y.encodeStateVector(doc);
      fn(text);
      return Y.encodeStateAsUpdate(doc, before);
    },
  };
}

const textOf = (update: Uint8Array) => {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, update);
  return doc.getText('t').toString();
};

/** Appends `words` one update each; returns the updates. */
async function appendWords(docId: string, words: string[]): Promise<Uint8Array[]> {
  const w = writer();
  const out: Uint8Array[] = [];
  for (const word of words) {
    const u = w.edit((t) => t.insert(t.length, word));
    out.push(u);
    await appendUpdate(db, docId, u);
  }
  return out;
}

describe('log notices', () => {
  it('round-trips the origin and every row', () => {
    const rows = [
      { docId: 'a', seq: 1 },
      { docId: 'space:b', seq: 42 },
    ];
    expect(logNotice('instance-1', rows)).toBe('instance-1\na\t1\nspace:b\t42');
    expect(parseLogNotice(logNotice('instance-1', rows))).toEqual({ origin: 'instance-1', rows });
    expect(parseLogNotice(logNotice(null, rows))).toEqual({ origin: '', rows });
  });

  it('reads an origin alone, and skips empty lines', () => {
    expect(parseLogNotice('')).toEqual({ origin: '', rows: [] });
    expect(parseLogNotice('x')).toEqual({ origin: 'x', rows: [] });
    expect(parseLogNotice('x\n\na\t3\n')).toEqual({ origin: 'x', rows: [{ docId: 'a', seq: 3 }] });
  });

  it('bounds the bytes a row adds, counting multi-byte ids and long seqs', () => {
    for (const docId of ['a', 'space:é文-0123456789abcdef']) {
      const added = Buffer.byteLength(logNotice('', [{ docId, seq: Number.MAX_SAFE_INTEGER }]));
      expect(added).toBeLessThanOrEqual(noticeBytesOf(docId));
      expect(noticeBytesOf(docId)).toBeGreaterThan(Buffer.byteLength(docId));
    }
  });
});

describe('appending', () => {
  it('numbers updates from 1 without gaps, per document, and announces each on commit', async () => {
    const a = newDocId();
    const b = newDocId();
    const heard: string[] = [];
    const stop = await db.listen(YDOC_CHANNEL, (p) => heard.push(p));
    try {
      const w = writer();
      expect(
        await appendUpdate(
          db,
          a,
          w.edit((t) => t.insert(0, 'x')),
          'inst',
        ),
      ).toBe(1);
      expect(
        await appendUpdate(
          db,
          a,
          w.edit((t) => t.insert(1, 'y')),
        ),
      ).toBe(2);
      expect(
        await appendUpdate(
          db,
          b,
          writer().edit((t) => t.insert(0, 'z')),
        ),
      ).toBe(1);
      await expect.poll(() => heard.filter((p) => p.includes(a) || p.includes(b)).length).toBe(3);
    } finally {
      await stop();
    }
    const mine = heard.map(parseLogNotice).filter((x) => x.rows.some((r) => r.docId === a || r.docId === b));
    expect(mine).toEqual([
      { origin: 'inst', rows: [{ docId: a, seq: 1 }] },
      { origin: '', rows: [{ docId: a, seq: 2 }] },
      { origin: '', rows: [{ docId: b, seq: 1 }] },
    ]);
    const stored = await db.query<{ seq: number; origin: string | null }>(
      'SELECT seq, origin FROM ydoc_updates WHERE doc_id = $1 ORDER BY seq',
      [a],
    );
    expect(stored.map((r) => [Number(r.seq), r.origin])).toEqual([
      [1, 'inst'],
      [2, null],
    ]);
  });

  it('ensures a document once, keeping what it holds', async () => {
    const id = newDocId();
    await appendWords(id, ['one']);
    await ensureDoc(db, id);
    expect((await loadStoredDoc(db, id))?.lastSeq).toBe(1);
  });

  it('appends nothing when the transaction that appended rolls back', async () => {
    const id = newDocId();
    await appendWords(id, ['kept']);
    await expect(
      db.transaction(async (tx) => {
        await appendUpdate(
          tx,
          id,
          writer().edit((t) => t.insert(0, 'lost')),
        );
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await loadStoredDoc(db, id))?.lastSeq).toBe(1);
    expect(textOf((await loadDocUpdate(db, id)).update)).toBe('kept');
  });
});

describe('reading', () => {
  it('knows nothing of an unknown document', async () => {
    expect(await loadStoredDoc(db, 'never-written')).toBeUndefined();
    expect(await readDocLog(db, 'never-written', 0)).toBeUndefined();
    const empty = await loadDocUpdate(db, 'never-written');
    expect(empty.seq).toBe(0);
    expect(textOf(empty.update)).toBe('');
    const { doc, seq } = await loadYDoc(db, 'never-written');
    expect(seq).toBe(0);
    expect(doc.getText('t').toString()).toBe('');
  });

  it('reads an ensured document without updates as empty', async () => {
    const id = newDocId();
    await ensureDoc(db, id);
    expect(await loadStoredDoc(db, id)).toEqual({ snapshot: null, snapshotSeq: 0, updates: [], lastSeq: 0 });
    expect(textOf((await loadDocUpdate(db, id)).update)).toBe('');
  });

  it('reads the whole log, in order, with the bytes appended', async () => {
    const id = newDocId();
    const updates = await appendWords(id, ['a', 'b', 'c']);
    const stored = await loadStoredDoc(db, id);
    expect(stored).toMatchObject({ snapshot: null, snapshotSeq: 0, lastSeq: 3 });
    expect(stored?.updates.map((u) => u.seq)).toEqual([1, 2, 3]);
    expect(stored?.updates.map((u) => [...u.update])).toEqual(updates.map((u) => [...u]));
    expect(textOf((await loadDocUpdate(db, id)).update)).toBe('abc');
    const { doc, seq } = await loadYDoc(db, id);
    expect([doc.getText('t').toString(), seq]).toEqual(['abc', 3]);
  });

  it('reads the log past a seq, and past nothing more', async () => {
    const id = newDocId();
    const appended = await appendWords(id, ['a', 'b', 'c', 'd']);
    const past2 = await readDocLog(db, id, 2);
    expect(past2).toMatchObject({ snapshot: null, snapshotSeq: 0, lastSeq: 4 });
    expect(past2?.updates.map((u) => u.seq)).toEqual([3, 4]);
    expect((await readDocLog(db, id, 4))?.updates).toEqual([]);
    expect((await readDocLog(db, id, 4))?.lastSeq).toBe(4);
    expect((await updatesSince(db, id, 1)).map((u) => u.seq)).toEqual([2, 3, 4]);
    expect((await updatesSince(db, id, 4)).length).toBe(0);
    expect((await updatesSince(db, id, 2)).map((u) => [...u.update])).toEqual(appended.slice(2).map((u) => [...u]));
  });

  it('refuses a log with a gap instead of serving a document missing an update', async () => {
    const id = newDocId();
    await appendWords(id, ['a', 'b', 'c']);
    await db.query('DELETE FROM ydoc_updates WHERE doc_id = $1 AND seq = 2', [id]);
    await expect(loadStoredDoc(db, id)).rejects.toThrow(`the log of ${id} has a gap before seq 3`);
    await expect(readDocLog(db, id, 1)).rejects.toThrow('gap before seq 3');
    // Past the gap, the rest is whole.
    expect((await readDocLog(db, id, 2))?.updates.map((u) => u.seq)).toEqual([3]);
  });

  it('refuses a log whose first update is not the one after where the reader stands', async () => {
    const id = newDocId();
    await appendWords(id, ['a', 'b']);
    await db.query('DELETE FROM ydoc_updates WHERE doc_id = $1 AND seq = 1', [id]);
    await expect(loadStoredDoc(db, id)).rejects.toThrow('gap before seq 2');
  });
});

describe('compaction', () => {
  it('folds the log into the snapshot, keeping the document and its seq', async () => {
    const id = newDocId();
    await appendWords(id, ['a', 'b', 'c']);
    expect(await compactDoc(db, id)).toBe(3);
    const stored = await loadStoredDoc(db, id);
    expect(stored).toMatchObject({ snapshotSeq: 3, updates: [], lastSeq: 3 });
    expect(textOf(stored!.snapshot!)).toBe('abc');
    expect(Number((await db.query<{ n: number }>('SELECT count(*) AS n FROM ydoc_updates WHERE doc_id = $1', [id]))[0]?.n)).toBe(0);
    expect(await loadDocUpdate(db, id).then((d) => [textOf(d.update), d.seq])).toEqual(['abc', 3]);
    // Nothing left to fold: the snapshot stays where it stands.
    expect(await compactDoc(db, id)).toBe(0);
    expect(await loadStoredDoc(db, id)).toMatchObject({ snapshotSeq: 3, lastSeq: 3 });
    await appendWords(id, ['d']);
    const behind = await readDocLog(db, id, 1);
    expect(behind).toMatchObject({ snapshotSeq: 3, lastSeq: 4 });
    expect(behind?.updates.map((u) => u.seq)).toEqual([4]);
    expect(await compactDoc(db, 'never-written')).toBe(0);
  });

  it('folds on top of an earlier snapshot, and later updates follow it in order', async () => {
    const id = newDocId();
    const w = writer();
    for (const word of ['a', 'b'])
      await appendUpdate(
        db,
        id,
        w.edit((t) => t.insert(t.length, word)),
      );
    await compactDoc(db, id);
    for (const word of ['c', 'd'])
      await appendUpdate(
        db,
        id,
        w.edit((t) => t.insert(t.length, word)),
      );
    const between = await loadStoredDoc(db, id);
    expect(between).toMatchObject({ snapshotSeq: 2, lastSeq: 4 });
    expect(between?.updates.map((u) => u.seq)).toEqual([3, 4]);
    expect(textOf((await loadDocUpdate(db, id)).update)).toBe('abcd');
    expect(await compactDoc(db, id)).toBe(2);
    const after = await loadStoredDoc(db, id);
    expect(after).toMatchObject({ snapshotSeq: 4, updates: [], lastSeq: 4 });
    expect(textOf(after!.snapshot!)).toBe('abcd');
    expect(
      await appendUpdate(
        db,
        id,
        w.edit((t) => t.insert(t.length, 'e')),
      ),
    ).toBe(5);
    expect(await loadDocUpdate(db, id).then((d) => [textOf(d.update), d.seq])).toEqual(['abcde', 5]);
  });

  it('gives a reader behind the snapshot the snapshot and what follows; a reader past it the rows alone', async () => {
    const id = newDocId();
    const w = writer();
    for (const word of ['a', 'b', 'c'])
      await appendUpdate(
        db,
        id,
        w.edit((t) => t.insert(t.length, word)),
      );
    await compactDoc(db, id);
    await appendUpdate(
      db,
      id,
      w.edit((t) => t.insert(t.length, 'd')),
    );
    const behind = await readDocLog(db, id, 1);
    expect(behind).toMatchObject({ snapshotSeq: 3, lastSeq: 4 });
    expect(textOf(behind!.snapshot!)).toBe('abc');
    expect(behind?.updates.map((u) => u.seq)).toEqual([4]);
    const atSnapshot = await readDocLog(db, id, 3);
    expect(atSnapshot).toMatchObject({ snapshot: null, snapshotSeq: 3, lastSeq: 4 });
    expect(atSnapshot?.updates.map((u) => u.seq)).toEqual([4]);
    const past = await readDocLog(db, id, 4);
    expect(past).toMatchObject({ snapshot: null, updates: [], lastSeq: 4 });
  });

  it('stores nothing when another fold moved the snapshot since the log was read', async () => {
    const id = newDocId();
    await appendWords(id, ['a', 'b']);
    // Another fold commits between this one's read and its write.
    const racing = {
      query: db.query.bind(db),
      transaction: async <T>(fn: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<T>) => {
        await compactDoc(db, id);
        return db.transaction(fn);
      },
    };
    expect(await compactDoc(racing, id)).toBe(0);
    expect(await loadStoredDoc(db, id)).toMatchObject({ snapshotSeq: 2, updates: [], lastSeq: 2 });
    expect(textOf((await loadDocUpdate(db, id)).update)).toBe('ab');
  });

  it('keeps an update appended while folding in the log, after the snapshot', async () => {
    const id = newDocId();
    const w = writer();
    for (const word of ['a', 'b'])
      await appendUpdate(
        db,
        id,
        w.edit((t) => t.insert(t.length, word)),
      );
    const late = w.edit((t) => t.insert(t.length, 'c'));
    const appending = {
      query: db.query.bind(db),
      transaction: async <T>(fn: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<T>) => {
        await appendUpdate(db, id, late);
        return db.transaction(fn);
      },
    };
    expect(await compactDoc(appending, id)).toBe(2);
    const stored = await loadStoredDoc(db, id);
    expect(stored).toMatchObject({ snapshotSeq: 2, lastSeq: 3 });
    expect(stored?.updates.map((u) => u.seq)).toEqual([3]);
    expect(textOf((await loadDocUpdate(db, id)).update)).toBe('abc');
  });

  it('stores nothing for a document deleted while folding', async () => {
    const id = newDocId();
    await appendWords(id, ['a']);
    const deleting = {
      query: db.query.bind(db),
      transaction: async <T>(fn: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<T>) => {
        await deleteDoc(db, id);
        return db.transaction(fn);
      },
    };
    expect(await compactDoc(deleting, id)).toBe(0);
    expect(await loadStoredDoc(db, id)).toBeUndefined();
  });
});

describe('copying and deleting', () => {
  it('starts a copy with the whole state of the source, snapshot and log, as its first update', async () => {
    const from = newDocId();
    const to = newDocId();
    const w = writer();
    for (const word of ['a', 'b'])
      await appendUpdate(
        db,
        from,
        w.edit((t) => t.insert(t.length, word)),
      );
    await compactDoc(db, from);
    await appendUpdate(
      db,
      from,
      w.edit((t) => t.insert(t.length, 'c')),
    );
    await copyDoc(db, from, to);
    const copy = await loadStoredDoc(db, to);
    expect(copy).toMatchObject({ snapshot: null, snapshotSeq: 0, lastSeq: 1 });
    expect(textOf(copy!.updates[0]!.update)).toBe('abc');
    // The copy goes its own way.
    await appendUpdate(
      db,
      to,
      w.edit((t) => t.insert(0, '>')),
    );
    expect(textOf((await loadDocUpdate(db, to)).update)).toBe('>abc');
    expect(textOf((await loadDocUpdate(db, from)).update)).toBe('abc');
  });

  it('deletes a document with its log, and no other', async () => {
    const gone = newDocId();
    const kept = newDocId();
    await appendWords(gone, ['a', 'b']);
    await appendWords(kept, ['k']);
    await deleteDoc(db, gone);
    expect(await loadStoredDoc(db, gone)).toBeUndefined();
    expect(await updatesSince(db, gone, 0)).toEqual([]);
    expect(textOf((await loadDocUpdate(db, kept)).update)).toBe('k');
  });
});
