-- A space connected to one branch (and folder) of one repository, kept in step both ways.
-- The base is the last commit both sides agreed on and the content it holds: a pushed
-- commit is merged as its difference from the base.
CREATE TABLE git_connections (
  space_id text PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
  -- new each time the space is connected: a sync of an earlier connection records no base
  id text NOT NULL,
  -- the repository's address without credentials
  url text NOT NULL,
  ref text NOT NULL,
  repo_project_directory text,
  -- github | gitlab | generic
  provider text NOT NULL,
  -- the token (basic auth credentials), sealed with a server secret
  credentials text,
  -- the webhook secret, sealed: GitHub signs with it, GitLab and other servers send it
  hook_secret text NOT NULL,
  -- quire | git: which side's content wins the first sync
  first_sync text NOT NULL,
  connected_by text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  connected_at timestamptz NOT NULL DEFAULT now(),
  base_commit text,
  -- the Yjs state of the content that commit holds (main's revision when Quire wrote it,
  -- else that revision with the commit's changes applied): a pushed commit's edits are
  -- made on a copy of it, so they merge into main as a change request's do
  base_state bytea,
  -- main's revision the base came from
  base_revision text,
  -- the ref's commit as the last poll saw it
  polled_commit text,
  polled_at timestamptz
);

-- A sync that failed is tried again later (doubling waits): not claimed before then.
ALTER TABLE git_operations ADD COLUMN not_before timestamptz;
