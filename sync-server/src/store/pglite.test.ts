import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mayWrite, openPglite } from './pglite';

/** The embedded database fsyncs its WAL after every statement that may have written. */
describe('which statements wait for the WAL fsync', () => {
  it('every write, writing CTEs included; plain reads do not', () => {
    for (const sql of [
      'INSERT INTO t VALUES (1)',
      '  update t SET a = 1',
      'DELETE FROM t',
      'WITH moved AS (DELETE FROM a RETURNING *) INSERT INTO b SELECT * FROM moved',
      'WITH bumped AS (UPDATE t SET n = n + 1 RETURNING n) SELECT n FROM bumped',
      'WITH x AS (SELECT 1)\nINSERT INTO t SELECT * FROM x',
      'CREATE TABLE t (id int)',
      'TRUNCATE t',
      'WITH input AS MATERIALIZED (\n  SELECT 1\n), bumped AS (\n  INSERT INTO t SELECT * FROM input RETURNING 1\n) SELECT count(*) FROM bumped',
      'SELECT id FROM t WHERE id = $1 FOR UPDATE',
      'SELECT id FROM t FOR NO KEY UPDATE',
    ]) {
      expect(mayWrite(sql), sql).toBe(true);
    }
    for (const sql of [
      'SELECT * FROM spaces WHERE deleted_at IS NULL',
      'select updated_at from t',
      'SHOW server_version',
      'WITH RECURSIVE sub AS (SELECT id FROM c) SELECT id FROM sub',
      // The sync log's column is named `update`: reading it writes nothing.
      'SELECT seq, update FROM ydoc_updates WHERE doc_id = $1 AND seq > $2 ORDER BY seq',
      'SELECT false, u.seq, NULL, u.update\n  FROM ydoc_updates u JOIN ydocs d ON d.id = u.doc_id',
    ]) {
      expect(mayWrite(sql), sql).toBe(false);
    }
  });
});

/**
 * Under REST load every turn of the event loop is long. A commit that needed one turn per
 * file-system step of its fsync (a dozen) kept sync updates waiting a dozen such turns.
 */
describe('the WAL fsync of a commit on a busy event loop', () => {
  it('costs a few turns of the loop, not one per file-system step', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-walsync-'));
    const db = await openPglite(dir);
    try {
      await db.exec('CREATE TABLE t (x int)');
      await db.query('INSERT INTO t VALUES (0)');
      let turns = 0;
      let busy = true;
      // Each turn blocks the loop for 30 ms, like a burst of requests answered in one go.
      const spin = () => {
        if (!busy) return;
        turns++;
        const end = performance.now() + 30;
        while (performance.now() < end);
        setImmediate(spin);
      };
      setImmediate(spin);
      const from = turns;
      await db.query('INSERT INTO t VALUES (1)');
      const taken = turns - from;
      busy = false;
      expect(taken).toBeLessThan(8);
      expect(await db.query('SELECT x FROM t ORDER BY x')).toEqual([{ x: 0 }, { x: 1 }]);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
    // A data directory made from scratch (initdb) takes a while on a loaded machine.
  }, 180_000);
});
