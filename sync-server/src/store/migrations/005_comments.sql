-- Comments on a space's content or a change request's, their replies and reactions.

CREATE TABLE comments (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  -- null: on the space's main branch
  change_request_id text REFERENCES change_requests(id) ON DELETE CASCADE,
  page_id text,
  node_id text,
  -- text of the node when the comment was posted, shown once the node is gone
  node_preview text,
  table_record text,
  table_definition text,
  -- the branch's revision the comment was posted on
  revision_id text,
  posted_by text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  posted_at timestamptz NOT NULL DEFAULT now(),
  edited_at timestamptz,
  body text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
  resolved_at timestamptz,
  resolved_by text REFERENCES users(id) ON DELETE SET NULL
);
CREATE INDEX comments_branch ON comments(space_id, change_request_id, seq);
CREATE INDEX comments_cr ON comments(change_request_id, status) WHERE change_request_id IS NOT NULL;
CREATE INDEX comments_open ON comments(space_id) WHERE change_request_id IS NULL AND status = 'open';

CREATE TABLE comment_replies (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  comment_id text NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  posted_by text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  posted_at timestamptz NOT NULL DEFAULT now(),
  edited_at timestamptz,
  body text NOT NULL
);
CREATE INDEX comment_replies_comment ON comment_replies(comment_id, seq);

-- One row per user and emoji on a comment or a reply (`subject_id` is either's id).
CREATE TABLE comment_reactions (
  subject_id text NOT NULL,
  emoji text NOT NULL,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  reacted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (subject_id, emoji, user_id)
);
