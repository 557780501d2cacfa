-- Yjs documents (one per branch): an append-only update log plus a compacted snapshot.
-- Every edit is written here before it is relayed or acknowledged.
CREATE TABLE ydocs (
  id text PRIMARY KEY,
  snapshot bytea,
  -- Updates with seq <= snapshot_seq are folded into snapshot.
  snapshot_seq bigint NOT NULL DEFAULT 0,
  -- The last seq handed out; bumping it under the row lock orders writers from any instance.
  last_seq bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ydoc_updates (
  doc_id text NOT NULL REFERENCES ydocs(id) ON DELETE CASCADE,
  seq bigint NOT NULL,
  update bytea NOT NULL,
  -- Which server instance wrote it, so its own NOTIFY is not applied twice.
  origin text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (doc_id, seq)
);
