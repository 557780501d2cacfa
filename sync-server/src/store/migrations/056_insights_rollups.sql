-- Counts of insights events kept beside the events, so the usual questions ("top pages of
-- the last 30 days", "views by day") add up a few rows per hour or day instead of reading
-- every event. Written in the same statement as each batch of events; buckets start at a
-- UTC hour (insights_hourly) or a UTC day (insights_daily). Visitors and sessions are
-- distinct counts that cannot be added up: those questions keep reading insights_events.

CREATE TABLE insights_hourly (
  site_id text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  type text NOT NULL,
  display_context text NOT NULL,
  url_path text NOT NULL,
  space_id text,
  page_id text,
  bot text NOT NULL,
  events bigint NOT NULL
);
CREATE UNIQUE INDEX insights_hourly_key
  ON insights_hourly (site_id, hour, type, display_context, url_path, space_id, page_id, bot) NULLS NOT DISTINCT;
CREATE INDEX insights_hourly_hour ON insights_hourly (hour);

CREATE TABLE insights_daily (
  site_id text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  day timestamptz NOT NULL,
  type text NOT NULL,
  display_context text NOT NULL,
  url_path text NOT NULL,
  space_id text,
  page_id text,
  bot text NOT NULL,
  events bigint NOT NULL
);
CREATE UNIQUE INDEX insights_daily_key
  ON insights_daily (site_id, day, type, display_context, url_path, space_id, page_id, bot) NULLS NOT DISTINCT;
CREATE INDEX insights_daily_day ON insights_daily (day);

INSERT INTO insights_hourly (site_id, hour, type, display_context, url_path, space_id, page_id, bot, events)
SELECT site_id, date_trunc('hour', at, 'UTC'), type, display_context, url_path, space_id, page_id, bot, count(*)
  FROM insights_events GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;

INSERT INTO insights_daily (site_id, day, type, display_context, url_path, space_id, page_id, bot, events)
SELECT site_id, date_trunc('day', hour, 'UTC'), type, display_context, url_path, space_id, page_id, bot, sum(events)
  FROM insights_hourly GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
