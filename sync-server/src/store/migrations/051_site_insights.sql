-- What readers of published sites do, for the teams that write them: one row per event.
-- No address, user agent or cookie is ever stored: `visitor` is a hash of the site, the
-- address, the user agent and the day's salt (insights_salts), which is deleted once the
-- day is over, so yesterday's hashes can no longer be recomputed from an address.

CREATE TABLE insights_salts (
  day date PRIMARY KEY,
  salt bytea NOT NULL
);

CREATE TABLE insights_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  type text NOT NULL,
  -- site | server | embed | mcp
  display_context text NOT NULL DEFAULT 'site',
  url text NOT NULL,
  url_path text NOT NULL,
  site_section text,
  site_space text,
  site_share_key text,
  space_id text,
  revision_id text,
  -- null on a page view: the URL is no page (a 404)
  page_id text,
  visitor text NOT NULL,
  session text NOT NULL,
  browser text NOT NULL DEFAULT 'unknown',
  os text NOT NULL DEFAULT 'unknown',
  device text NOT NULL DEFAULT 'unknown',
  -- '' for a person; a known crawler's or agent's name, or 'unknown' for another robot
  bot text NOT NULL DEFAULT '',
  language text,
  referrer text,
  referrer_domain text,
  utm_source text,
  utm_medium text,
  utm_campaign text,
  utm_term text,
  utm_content text,
  authenticated boolean,
  -- the visitor's boolean claims that the site's visitor schema declares, by path
  claims jsonb,
  search_query text,
  search_result_record text,
  search_results integer,
  feedback_rating text,
  feedback_comment text,
  link_target jsonb,
  link_kind text,
  link_domain text,
  link_position text,
  api_path text,
  api_method text,
  llms_variant text,
  not_found_type text,
  markdown_source text,
  ask_rating smallint,
  ad_domain text,
  ad_placement text,
  trademark_placement text,
  -- the rest of an event as it was sent (a question, a goal, an ad's zone…)
  data jsonb
);
CREATE INDEX insights_events_site_at ON insights_events(site_id, at);
CREATE INDEX insights_events_visitor ON insights_events(site_id, visitor, at);
-- the retention delete walks by time alone
CREATE INDEX insights_events_at ON insights_events(at);
