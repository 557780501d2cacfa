-- Answers to requests sent with an Idempotency-Key, kept for a day so a retry gets the
-- first answer instead of doing the work twice.
CREATE TABLE idempotency_keys (
  user_id text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  -- null while the first request is still being handled
  status integer,
  content_type text,
  body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
