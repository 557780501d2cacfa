-- The files a git import read (pages, the summary), by their git blob id, so an export can
-- write a file nobody changed back byte for byte. The bytes are a blob like any file's.
CREATE TABLE git_sources (
  space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  oid text NOT NULL,
  hash text NOT NULL REFERENCES files_blobs(hash),
  PRIMARY KEY (space_id, oid)
);
