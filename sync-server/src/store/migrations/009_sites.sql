-- Sites publish spaces to readers: sections (optionally in nested section groups) hold
-- site spaces (variants); a site without sections holds its site spaces at its root.
-- Sibling order is a fractional key in `position`; sections and groups of one parent
-- share one order.

CREATE TABLE sites (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  title text NOT NULL,
  type text NOT NULL DEFAULT 'basic',
  visibility text NOT NULL DEFAULT 'public',
  basename text NOT NULL,
  hostname text UNIQUE,
  proxy text,
  published boolean NOT NULL DEFAULT false,
  adaptive_content boolean NOT NULL DEFAULT false,
  agents_context text NOT NULL DEFAULT 'included',
  default_site_space_id text,
  default_section_id text,
  share_key text NOT NULL,
  -- HS256 key that visitor JWTs of this site are signed with.
  visitor_key text NOT NULL,
  adaptive_schema jsonb,
  adaptive_schema_updated_at timestamptz,
  customization jsonb,
  -- Bumped by every write to the site or anything in it: published pages are cached by it.
  version bigint NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, basename)
);
CREATE INDEX sites_org ON sites(org_id, seq);

CREATE TABLE site_section_groups (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  site_id text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  parent_id text REFERENCES site_section_groups(id) ON DELETE SET NULL,
  title text NOT NULL,
  icon text,
  position text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX site_section_groups_site ON site_section_groups(site_id, seq);

CREATE TABLE site_sections (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  site_id text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  group_id text REFERENCES site_section_groups(id) ON DELETE SET NULL,
  title text NOT NULL,
  description text,
  icon text,
  path text NOT NULL,
  condition text,
  position text NOT NULL,
  default_site_space_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (site_id, path)
);
CREATE INDEX site_sections_site ON site_sections(site_id, seq);

CREATE TABLE site_spaces (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  site_id text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  section_id text REFERENCES site_sections(id) ON DELETE CASCADE,
  space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  path text NOT NULL,
  condition text,
  position text NOT NULL,
  -- Overrides of the site's customization; null when there are none.
  customization jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX site_spaces_site ON site_spaces(site_id, seq);
CREATE INDEX site_spaces_space ON site_spaces(space_id);
CREATE UNIQUE INDEX site_spaces_path ON site_spaces(site_id, coalesce(section_id, ''), path);

CREATE TABLE site_redirects (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  site_id text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  source text NOT NULL,
  destination jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (site_id, source)
);
CREATE INDEX site_redirects_site ON site_redirects(site_id, seq);

-- Published sites cache what they read per request (the site and the revision of each of
-- its spaces) where one process owns the database; these notifications tell it when any
-- of that may have changed.
CREATE FUNCTION quire_notify_site_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('quire_site_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER sites_changed AFTER INSERT OR UPDATE OR DELETE ON sites
  FOR EACH STATEMENT EXECUTE FUNCTION quire_notify_site_change();
CREATE TRIGGER spaces_changed_for_sites AFTER UPDATE OR DELETE ON spaces
  FOR EACH STATEMENT EXECUTE FUNCTION quire_notify_site_change();
CREATE TRIGGER organizations_changed_for_sites AFTER UPDATE OF hostname OR DELETE ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION quire_notify_site_change();
