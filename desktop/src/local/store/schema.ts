/**
 * The local database. Idempotent DDL run on every open: the app's data directory lives
 * across versions, so every statement must be safe to run again; a later change adds
 * statements, never edits these.
 *
 * Ids: rows that come from the server keep the server id as `id`. Rows made on this
 * machine (a local space, a change request or comment made offline) get a local id and
 * learn their `remote_id` once the server has them, so nothing that points at them has to
 * be rewritten.
 */
export const LOCAL_SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (
  key text PRIMARY KEY,
  value jsonb NOT NULL
);

CREATE TABLE IF NOT EXISTS organizations (
  id text PRIMARY KEY,
  title text NOT NULL,
  position int NOT NULL DEFAULT 0,
  data jsonb NOT NULL DEFAULT '{}'
);

CREATE TABLE IF NOT EXISTS collections (
  id text PRIMARY KEY,
  org_id text NOT NULL,
  parent_id text,
  title text NOT NULL,
  position int NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS spaces (
  id text PRIMARY KEY,
  remote_id text UNIQUE,
  org_id text,
  collection_id text,
  title text NOT NULL,
  emoji text,
  position int NOT NULL DEFAULT 0,
  -- local: never on a server; publishing: queued for creation; remote: the server has it
  sync_state text NOT NULL DEFAULT 'remote',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS change_requests (
  id text PRIMARY KEY,
  remote_id text UNIQUE,
  space_id text NOT NULL,
  number int,
  subject text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'draft',
  outdated boolean NOT NULL DEFAULT false,
  created_by jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- pending: creation queued; remote: the server has it
  sync_state text NOT NULL DEFAULT 'remote',
  -- none | queued (merge waits in the outbox) | merged
  merge_state text NOT NULL DEFAULT 'none',
  -- main's local log position when the branch last took main in (fork or update)
  base_main_seq bigint NOT NULL DEFAULT 0,
  -- main's state vector at that moment: what merging must leave out
  base_state_vector bytea
);
CREATE INDEX IF NOT EXISTS change_requests_space ON change_requests (space_id);

CREATE TABLE IF NOT EXISTS comments (
  seq bigint GENERATED ALWAYS AS IDENTITY,
  id text PRIMARY KEY,
  remote_id text UNIQUE,
  space_id text NOT NULL,
  change_request_id text,
  page_id text,
  -- null for a comment, the comment's id for a reply
  parent_id text,
  author jsonb,
  body text NOT NULL,
  posted_at timestamptz NOT NULL DEFAULT now(),
  resolved boolean NOT NULL DEFAULT false,
  reactions jsonb NOT NULL DEFAULT '[]',
  -- local: on a space no server has yet; pending: queued; synced; failed: the server refused it
  sync_state text NOT NULL DEFAULT 'synced',
  error text
);
CREATE INDEX IF NOT EXISTS comments_page ON comments (space_id, page_id);

CREATE TABLE IF NOT EXISTS doc_heads (
  doc_id text PRIMARY KEY,
  snapshot bytea,
  snapshot_seq bigint NOT NULL DEFAULT 0,
  last_seq bigint NOT NULL DEFAULT 0,
  -- local edits made while the branch was not connected: they wait to be sent
  unsent int NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS doc_updates (
  doc_id text NOT NULL,
  seq bigint NOT NULL,
  update bytea NOT NULL,
  PRIMARY KEY (doc_id, seq)
);

CREATE TABLE IF NOT EXISTS outbox (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key text NOT NULL UNIQUE,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  label text NOT NULL DEFAULT '',
  -- pending | done | failed (refused by the server: kept with its error until the user acts)
  state text NOT NULL DEFAULT 'pending',
  error text,
  attempts int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  done_at timestamptz,
  result jsonb
);
CREATE INDEX IF NOT EXISTS outbox_state ON outbox (state, seq);

-- Files inserted on this machine or fetched for display: the bytes a page's file:<id> means.
-- Kept here first (so they show offline), uploaded by the outbox under the same id.
CREATE TABLE IF NOT EXISTS files (
  id text PRIMARY KEY,
  space_id text NOT NULL,
  name text NOT NULL,
  content_type text NOT NULL,
  size bigint NOT NULL,
  bytes bytea NOT NULL,
  -- local: its space is on no server yet; queued: an upload waits in the outbox;
  -- uploaded: the server has it; fetched: it came from the server
  state text NOT NULL DEFAULT 'local',
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Pages with local edits a server has not confirmed, per branch: the log position of the
-- last such edit, so a confirmation clears only what it covered.
CREATE TABLE IF NOT EXISTS pending_pages (
  doc_id text NOT NULL,
  page_id text NOT NULL,
  seq bigint NOT NULL,
  PRIMARY KEY (doc_id, page_id)
);
-- A page's history as the server last listed it, and the pages of revisions fetched
-- once: what the history panel shows offline. Revisions never change, so neither do these.
CREATE TABLE IF NOT EXISTS page_revisions (
  space_id text NOT NULL,
  page_id text NOT NULL,
  revision_id text NOT NULL,
  change text NOT NULL,
  title text NOT NULL,
  type text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (space_id, page_id, revision_id)
);

CREATE TABLE IF NOT EXISTS revision_pages (
  space_id text NOT NULL,
  revision_id text NOT NULL,
  page_id text NOT NULL,
  title text NOT NULL,
  -- JSON as text: jsonb would reorder keys, and a body is compared as written
  body text NOT NULL,
  PRIMARY KEY (space_id, revision_id, page_id)
);

-- A snapshot written as base64 text (null when \`snapshot\` holds it): PGlite hands a large
-- text to JavaScript far faster than it encodes or decodes a bytea, and a window opening the
-- branch is sent exactly this text.
ALTER TABLE doc_heads ADD COLUMN IF NOT EXISTS snapshot_text text;

-- What a window draws of the branch before it has decoded the snapshot (its pages and first
-- page, as JSON), written with \`snapshot_text\` and describing exactly that state: null
-- whenever the snapshot is written another way.
ALTER TABLE doc_heads ADD COLUMN IF NOT EXISTS snapshot_view text;

-- True when \`snapshot_text\` is in Yjs's update format v2, which a window decodes in about
-- half the time of v1 (what \`snapshot\` and the log always hold).
ALTER TABLE doc_heads ADD COLUMN IF NOT EXISTS snapshot_v2 boolean NOT NULL DEFAULT false;

-- An image's size as inserted: the branch records it with the file once the upload is acknowledged.
ALTER TABLE files ADD COLUMN IF NOT EXISTS width integer;
ALTER TABLE files ADD COLUMN IF NOT EXISTS height integer;

-- Who cut a revision (the writer who restored the page, for a restore) and, for a restore,
-- which revision it brought back.
ALTER TABLE page_revisions ADD COLUMN IF NOT EXISTS created_by text;
ALTER TABLE page_revisions ADD COLUMN IF NOT EXISTS restored_from text;
-- Every page the revision changed, as JSON [{id, title, change}]: what the history says was touched.
ALTER TABLE page_revisions ADD COLUMN IF NOT EXISTS pages text;
-- What a change request's changes are drawn against: main's whole state as the branch took
-- it in (at the fork, on each update from main), never main as it is now. A union of every
-- such state: the branch holds all of them, and a Yjs deletion is never undone.
ALTER TABLE change_requests ADD COLUMN IF NOT EXISTS base_state bytea;
-- The server's revision \`base_state\` already holds (null: only what this machine took in).
ALTER TABLE change_requests ADD COLUMN IF NOT EXISTS base_revision text;
-- The server's \`revisionMergedAncestor\` as last listed: fetched when it is not \`base_revision\`.
ALTER TABLE change_requests ADD COLUMN IF NOT EXISTS remote_base_revision text;
`;
