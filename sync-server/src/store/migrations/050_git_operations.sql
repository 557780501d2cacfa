-- Git imports and exports of a space: each is a row, queued by the request and run in the
-- background by whichever instance claims it (FOR UPDATE SKIP LOCKED, with a lease), the
-- oldest unfinished one of a space first. A lease that runs out (the instance stopped) lets
-- another instance claim the row again, so a restart resumes the work.

CREATE TABLE git_operations (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  -- import | export
  direction text NOT NULL,
  -- queued | running | success | failure | timeout
  state text NOT NULL DEFAULT 'queued',
  -- the repository's address without credentials, as git/info shows it
  url text NOT NULL,
  ref text NOT NULL,
  -- the rest of the request (folder, message, flags), credentials never among it
  request jsonb NOT NULL,
  -- basic auth credentials of the URL, sealed; erased when the operation ends
  credentials text,
  requested_by text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  requested_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  ended_at timestamptz,
  -- a running row belongs to its claimer until then
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  error text,
  -- the commit read or written, the change request opened
  commit_oid text,
  change_request_id text
);
CREATE INDEX git_operations_space ON git_operations(space_id, seq);
CREATE INDEX git_operations_unfinished ON git_operations(seq) WHERE state IN ('queued', 'running');
