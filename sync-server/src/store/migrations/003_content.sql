-- Space content: revisions of branches (a space's main branch, each change request's
-- branch), change requests with their reviews, stored file bytes and the search index.

-- An immutable snapshot of a branch. `state` is the encoded Yjs state: the whole document
-- when `state_base` is null, else an update on top of the whole state of `state_base`
-- (always a revision with a whole state), so a revision after a small edit stays small.
-- `materialized` holds what the REST reads serve, as a patch over the base's in the same way.
CREATE TABLE revisions (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  -- null on the main branch
  change_request_id text,
  -- the Y doc id of the branch: `space:<spaceId>` or `cr:<changeRequestId>`
  branch text NOT NULL,
  parents text[] NOT NULL DEFAULT '{}',
  type text NOT NULL,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- the branch document's update seq this revision covers
  doc_seq bigint NOT NULL DEFAULT 0,
  state bytea NOT NULL,
  state_base text,
  materialized jsonb NOT NULL
);
CREATE INDEX revisions_branch ON revisions(branch, seq);
CREATE INDEX revisions_space ON revisions(space_id, seq);

CREATE TABLE change_requests (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  number integer NOT NULL,
  status text NOT NULL DEFAULT 'draft',
  subject text,
  description jsonb,
  agent_task_id text,
  created_by text REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- head revision of the change request's branch
  revision_id text NOT NULL,
  -- main's revision the branch forked from
  revision_initial text NOT NULL,
  -- main's revision last taken in (fork or update); main past it means outdated
  revision_merged_ancestor text NOT NULL,
  -- main's revision the merge produced
  revision_merged text,
  merged_at timestamptz,
  merged_by text,
  -- the branch document's seq right after the fork copy: later updates are the change
  -- request's own edits (and main's, taken in by updates), which is what a merge applies
  fork_doc_seq bigint NOT NULL,
  -- state vector of the main content the branch last took in
  fork_state_vector bytea NOT NULL,
  UNIQUE (space_id, number)
);
CREATE INDEX change_requests_space ON change_requests(space_id, seq);
CREATE INDEX change_requests_updated ON change_requests(space_id, updated_at, seq);

CREATE TABLE change_request_contributors (
  change_request_id text NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (change_request_id, user_id)
);
CREATE INDEX change_request_contributors_user ON change_request_contributors(user_id);

CREATE TABLE change_request_reviews (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  change_request_id text NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
  reviewer_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('approved', 'changes-requested')),
  -- the change request's revision the review was given on: later edits make it outdated
  revision_id text NOT NULL,
  comment jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX change_request_reviews_cr ON change_request_reviews(change_request_id, seq);

CREATE TABLE change_request_reviewers (
  change_request_id text NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  requested_by text,
  requested_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (change_request_id, user_id)
);
CREATE INDEX change_request_reviewers_user ON change_request_reviewers(user_id);

-- Bytes of uploaded and imported files, addressed by their SHA-256: every instance sharing
-- the database serves them, and the same bytes imported twice are stored once.
CREATE TABLE files_blobs (
  hash text PRIMARY KEY,
  content bytea NOT NULL,
  size bigint NOT NULL,
  content_type text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Which bytes a space's file holds. File records live in the branch documents (a change
-- request's branch shares its space's files); this maps their ids to stored bytes.
CREATE TABLE space_files (
  space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  file_id text NOT NULL,
  hash text NOT NULL REFERENCES files_blobs(hash),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (space_id, file_id)
);

-- Full-text index of the main branch of every space: one row per page section, rebuilt
-- for the pages a new revision changed.
CREATE TABLE search_sections (
  seq bigint GENERATED ALWAYS AS IDENTITY,
  space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  page_id text NOT NULL,
  -- heading anchor; '' for the text before the first heading
  section_id text NOT NULL,
  position integer NOT NULL,
  page_title text NOT NULL,
  page_path text NOT NULL,
  section_title text NOT NULL,
  body text NOT NULL,
  -- the page title weighs most, then the section heading, then its text
  tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', page_title), 'A') || setweight(to_tsvector('english', section_title), 'B')
      || setweight(to_tsvector('english', body), 'C')
  ) STORED,
  PRIMARY KEY (space_id, page_id, section_id)
);
CREATE INDEX search_sections_tsv ON search_sections USING gin (tsv);
