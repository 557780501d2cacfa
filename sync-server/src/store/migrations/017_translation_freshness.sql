-- A translation knows which source revision its last run read (so it can say it is out of
-- date), and, per page, what the run wrote (so a later run can tell a person's fix in the
-- result from its own output and keep it).

ALTER TABLE translations ADD COLUMN source_revision_id text;
-- pages a run did not overwrite because a person had changed them and their source changed too
ALTER TABLE translations ADD COLUMN conflicts jsonb NOT NULL DEFAULT '[]';

-- digests of the source page's top-level blocks when it was last translated
ALTER TABLE translation_pages ADD COLUMN source_blocks jsonb;
-- digests of the blocks the run wrote into the result page, in order, and the title it wrote
ALTER TABLE translation_pages ADD COLUMN result_blocks jsonb;
ALTER TABLE translation_pages ADD COLUMN result_title text;

-- when the organization wants an out-of-date translation run again without being asked
ALTER TABLE translations ADD COLUMN schedule text NOT NULL DEFAULT 'manual';
