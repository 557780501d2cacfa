-- Where the embedded database stands in the sync journal (DATA_DIR/journal): every record
-- before (gen, pos) is in ydoc_updates. Written in the same statement as the rows it
-- covers, so a restart replays exactly the records past it. One row, id 1.
CREATE TABLE sync_journal_checkpoint (
  id integer PRIMARY KEY CHECK (id = 1),
  gen bigint NOT NULL,
  pos bigint NOT NULL
);
