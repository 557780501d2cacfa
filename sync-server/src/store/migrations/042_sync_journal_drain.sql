-- Drains a group of sync journal records (see store/journal/drainSql.ts) in one call. As a
-- function its statements are planned once per connection and the plans kept: planning the
-- same statement anew for each group of the embedded database was half of its cost.
-- Records are (document, seq, update) with the updates concatenated in `bytes`, each at
-- `starts[i]` (1-based) for `lengths[i]` bytes; the checkpoint moves in the same transaction.
CREATE FUNCTION quire_drain_journal(
  ids text[], seqs bigint[], starts integer[], lengths integer[], bytes bytea, origin text, gen bigint, pos bigint
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ydocs AS y (id, last_seq)
    SELECT d, max(s) FROM unnest(ids, seqs) AS t(d, s) GROUP BY d ORDER BY d
    ON CONFLICT (id) DO UPDATE SET last_seq = GREATEST(y.last_seq, excluded.last_seq), updated_at = now();
  INSERT INTO ydoc_updates (doc_id, seq, update, origin)
    SELECT d, s, substring(bytes FROM b FOR n), origin FROM unnest(ids, seqs, starts, lengths) AS t(d, s, b, n);
  INSERT INTO sync_journal_checkpoint (id, gen, pos) VALUES (1, quire_drain_journal.gen, quire_drain_journal.pos)
    ON CONFLICT (id) DO UPDATE SET gen = excluded.gen, pos = excluded.pos;
END
$$;
