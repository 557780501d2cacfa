import type { Queryable } from '../db';
import { maybeOne } from '../db';
import type { JournalRecord } from './frames';

/** A position in the journal: the file's generation and a byte offset in it. */
export interface JournalPosition {
  gen: number;
  pos: number;
}

/** Where the database stands in the journal; undefined before the first record was ever drained. */
export async function readCheckpoint(db: Queryable): Promise<JournalPosition | undefined> {
  const row = await maybeOne<{ gen: number; pos: number }>(db, 'SELECT gen, pos FROM sync_journal_checkpoint WHERE id = 1');
  return row && { gen: Number(row.gen), pos: Number(row.pos) };
}

/** The statement a drain runs (tests hold it back to play a machine too busy to drain). */
export const DRAIN_STATEMENT = 'SELECT quire_drain_journal($1, $2, $3, $4, $5, $6, $7, $8)';

/**
 * Writes journal records into the log and moves the checkpoint past them, in one call of
 * `quire_drain_journal` (migration 042; one transaction on the embedded database): either
 * the rows and the new checkpoint are there after a crash, or neither is and the records
 * are replayed.
 * Seqs come from the records (the rooms handed them out), so nothing is refused or
 * renumbered here: a record in the journal was acknowledged already. Document rows are
 * created on first use and their `last_seq` follows the highest seq written.
 */
export async function drainRecords(db: Queryable, records: JournalRecord[], checkpoint: JournalPosition, origin: string) {
  const ids: string[] = [];
  const seqs: number[] = [];
  const starts: number[] = [];
  const lengths: number[] = [];
  let at = 0;
  for (const r of records) {
    ids.push(r.docId);
    seqs.push(r.seq);
    starts.push(at + 1);
    lengths.push(r.update.byteLength);
    at += r.update.byteLength;
  }
  const bytes = Buffer.concat(records.map((r) => r.update));
  await db.query(DRAIN_STATEMENT, [ids, seqs, starts, lengths, bytes, origin, checkpoint.gen, checkpoint.pos]);
}

/** Moves the checkpoint alone (a new journal file after a start). */
export async function writeCheckpoint(db: Queryable, checkpoint: JournalPosition) {
  await db.query(
    `INSERT INTO sync_journal_checkpoint (id, gen, pos) VALUES (1, $1, $2)
     ON CONFLICT (id) DO UPDATE SET gen = excluded.gen, pos = excluded.pos`,
    [checkpoint.gen, checkpoint.pos],
  );
}
