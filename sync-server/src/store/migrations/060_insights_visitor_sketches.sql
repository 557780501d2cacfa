-- Visitors counted from the roll-ups: each hourly and daily row keeps a HyperLogLog sketch
-- of the visitor hashes it counted (4,096 registers, of which only the ones set are kept:
-- two bytes each, `register << 4 | rank`, in register order). Sketches of several rows are
-- merged by keeping the highest rank of each register, so "visitors of the last 30 days"
-- adds up sketches instead of reading every event. The count is an estimate (standard error
-- 1.6%); see insightsSketch.ts. A sketch holds bits of hashes of salted hashes: nothing in
-- it leads back to a reader.

-- The register and rank of a visitor: the first 12 bits of the MD5 of its hash pick the
-- register, the position of the first 1 in the next 14 bits is its rank (15 when none).
-- One expression, so the planner inlines it into the statements that call it.
CREATE FUNCTION insights_hll_entry(visitor text) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ('x' || substr(md5(visitor), 1, 3))::bit(12)::int * 16
       + least(coalesce(nullif(position('1' IN ('x' || substr(md5(visitor), 4, 4))::bit(16)::text), 0), 15), 15)
$$;

-- One visitor's sketch.
CREATE FUNCTION insights_hll_one(visitor text) RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT decode(lpad(to_hex(insights_hll_entry(visitor)), 4, '0'), 'hex')
$$;

-- The entries of a sketch (or of several sketches laid end to end).
CREATE FUNCTION insights_hll_entries(sketch bytea) RETURNS SETOF int LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT get_byte(sketch, i) * 256 + get_byte(sketch, i + 1) FROM generate_series(0, length(sketch) - 2, 2) AS i
$$;

-- A sketch of entries: the highest rank of each register, in register order.
CREATE FUNCTION insights_hll_pack(entries int[]) RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(decode(lpad(to_hex(m), 4, '0'), 'hex'), ''::bytea ORDER BY m), ''::bytea)
    FROM (SELECT max(e) AS m FROM unnest(entries) AS e GROUP BY e >> 4) AS r
$$;

-- The union of two sketches.
CREATE FUNCTION insights_hll_union(a bytea, b bytea) RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT insights_hll_pack(array(SELECT insights_hll_entries(coalesce(a, ''::bytea) || coalesce(b, ''::bytea))))
$$;

ALTER TABLE insights_hourly ADD COLUMN visitors bytea NOT NULL DEFAULT ''::bytea;
ALTER TABLE insights_daily ADD COLUMN visitors bytea NOT NULL DEFAULT ''::bytea;

UPDATE insights_hourly h SET visitors = s.visitors
  FROM (SELECT site_id, date_trunc('hour', at, 'UTC') AS hour, type, display_context, url_path, space_id, page_id, bot,
               insights_hll_pack(array_agg(insights_hll_entry(visitor))) AS visitors
          FROM insights_events GROUP BY 1, 2, 3, 4, 5, 6, 7, 8) AS s
 WHERE h.site_id = s.site_id AND h.hour = s.hour AND h.type = s.type AND h.display_context = s.display_context
   AND h.url_path = s.url_path AND h.space_id IS NOT DISTINCT FROM s.space_id
   AND h.page_id IS NOT DISTINCT FROM s.page_id AND h.bot = s.bot;

UPDATE insights_daily d SET visitors = s.visitors
  FROM (SELECT site_id, date_trunc('day', hour, 'UTC') AS day, type, display_context, url_path, space_id, page_id, bot,
               insights_hll_union(string_agg(visitors, ''::bytea), NULL) AS visitors
          FROM insights_hourly GROUP BY 1, 2, 3, 4, 5, 6, 7, 8) AS s
 WHERE d.site_id = s.site_id AND d.day = s.day AND d.type = s.type AND d.display_context = s.display_context
   AND d.url_path = s.url_path AND d.space_id IS NOT DISTINCT FROM s.space_id
   AND d.page_id IS NOT DISTINCT FROM s.page_id AND d.bot = s.bot;
