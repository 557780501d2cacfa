-- Translations: a source space copied into a result space in another language, kept in
-- step by runs; `translation_pages` remembers what each run translated, so the next one
-- redoes only the pages that changed.

CREATE TABLE translations (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  source_space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  source_language text,
  language text NOT NULL,
  instructions jsonb,
  result_space_id text REFERENCES spaces(id) ON DELETE SET NULL,
  result_revision_id text,
  status text NOT NULL DEFAULT 'pending',
  error_code text,
  error_message text,
  run_started_at timestamptz,
  -- a run was asked for while one was under way: run again when it ends
  rerun boolean NOT NULL DEFAULT false,
  runs integer NOT NULL DEFAULT 0,
  total_words bigint NOT NULL DEFAULT 0,
  total_pages bigint NOT NULL DEFAULT 0,
  total_duration_ms bigint NOT NULL DEFAULT 0,
  latest_run_duration_ms bigint NOT NULL DEFAULT 0,
  latest_pages integer NOT NULL DEFAULT 0,
  latest_words integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX translations_org ON translations(org_id, seq);

CREATE TABLE translation_pages (
  translation_id text NOT NULL REFERENCES translations(id) ON DELETE CASCADE,
  -- the result page has the source page's id (each space is its own document)
  page_id text NOT NULL,
  -- digest of the source page (fields and body) the last translation was made from
  source_digest text NOT NULL,
  PRIMARY KEY (translation_id, page_id)
);
