-- OpenAPI specifications of an organization and the versions each processing produced.

CREATE TABLE openapi_specs (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  slug text NOT NULL,
  visibility text NOT NULL DEFAULT 'private',
  -- Where the next processing reads from: a URL, or text given inline.
  source_url text,
  source_text text,
  processing_state text NOT NULL DEFAULT 'pending',
  -- Bumped on each create/put so a late run of an older source never overwrites a newer one.
  generation integer NOT NULL DEFAULT 1,
  last_version_id text,
  last_processed_at timestamptz,
  last_error_code text,
  last_errors jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, slug)
);
CREATE INDEX openapi_specs_org ON openapi_specs(org_id, seq);
CREATE INDEX openapi_specs_unfinished ON openapi_specs(processing_state) WHERE processing_state IN ('pending', 'progress');

-- Each successful processing keeps the parsed document; pages render the latest one.
CREATE TABLE openapi_spec_versions (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  spec_id text NOT NULL REFERENCES openapi_specs(id) ON DELETE CASCADE,
  -- `info.version` of the document, for display.
  api_version text,
  document jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX openapi_spec_versions_spec ON openapi_spec_versions(spec_id, seq);
