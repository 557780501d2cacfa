-- Which pages each revision of a space's main branch added, edited or removed: a page's
-- history lists these rows instead of comparing every revision's content.
CREATE TABLE revision_pages (
  space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  page_id text NOT NULL,
  revision_id text NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
  -- the revision's seq: history is read newest first
  revision_seq bigint NOT NULL,
  change text NOT NULL CHECK (change IN ('added', 'edited', 'removed')),
  -- the page's title in that revision (its last title, for a removal)
  title text NOT NULL DEFAULT '',
  PRIMARY KEY (space_id, page_id, revision_seq)
);

-- Revisions cut before this table existed: an entry keeps its `updatedAt` until the page
-- changes again, so the first revision holding each `updatedAt` of a page is where it
-- changed (a removal is a null entry in a revision's patch).
INSERT INTO revision_pages (space_id, page_id, revision_id, revision_seq, change, title)
SELECT DISTINCT ON (r.space_id, p.key, coalesce(p.value->>'updatedAt', ''))
       r.space_id, p.key, r.id, r.seq,
       CASE WHEN jsonb_typeof(p.value) = 'null' THEN 'removed'
            WHEN p.value->>'createdAt' = p.value->>'updatedAt' THEN 'added'
            ELSE 'edited' END,
       coalesce(p.value->>'title', '')
  FROM revisions r, jsonb_each(r.materialized->'pages') p
 WHERE r.change_request_id IS NULL
 ORDER BY r.space_id, p.key, coalesce(p.value->>'updatedAt', ''), r.seq
    ON CONFLICT DO NOTHING;
