import { describe, expect, it } from 'vitest';
import { mayWrite } from './pglite';

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
    ]) {
      expect(mayWrite(sql), sql).toBe(true);
    }
    for (const sql of [
      'SELECT * FROM spaces WHERE deleted_at IS NULL',
      'select updated_at from t',
      'SHOW server_version',
      'WITH RECURSIVE sub AS (SELECT id FROM c) SELECT id FROM sub',
    ]) {
      expect(mayWrite(sql), sql).toBe(false);
    }
  });
});
