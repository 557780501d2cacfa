-- Invalidation of the read model (core/readModel.ts). Every committed change to a row the
-- read model keeps, or that a kept answer was computed from, sends a tag on the channel
-- `quire_cache`: the database itself says what changed, so a write from any code path,
-- the admin command line or another instance invalidates exactly what it touches.
-- PostgreSQL delivers the notifications at commit, in commit order, deduplicated within a
-- transaction (10,000 member rows of one organization send one `a:` tag).
--
-- Tags: `t:<token hash>` a token; `u:<user>` a user; `o:<org>` an organization's row;
-- `a:<org>` anything that decides access in it (membership, teams, grants, collections,
-- SSO); `m:<org>` a member's user row; `s:<space>` a space's row or its counters;
-- `sp:<org>` any space of it; `*` everything (TRUNCATE).

CREATE FUNCTION quire_cache_tag(tag text, id text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF id IS NOT NULL THEN
    PERFORM pg_notify('quire_cache', tag || ':' || id);
  END IF;
END $$;

-- A column of the row as the tag's id: `quire_cache_row('a', 'org_id')`.
CREATE FUNCTION quire_cache_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM quire_cache_tag(TG_ARGV[0], to_jsonb(OLD) ->> TG_ARGV[1]);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM quire_cache_tag(TG_ARGV[0], to_jsonb(NEW) ->> TG_ARGV[1]);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION quire_cache_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('quire_cache', '*');
  RETURN NULL;
END $$;

-- Unknown tokens are never kept, so a new token invalidates nothing.
CREATE FUNCTION quire_cache_token() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM quire_cache_tag('t', OLD.token_hash);
  RETURN NULL;
END $$;

CREATE FUNCTION quire_cache_user() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  org text;
BEGIN
  PERFORM quire_cache_tag('u', OLD.id);
  FOR org IN SELECT org_id FROM org_members WHERE user_id = OLD.id LOOP
    PERFORM quire_cache_tag('m', org);
  END LOOP;
  RETURN NULL;
END $$;

CREATE FUNCTION quire_cache_team_member() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM quire_cache_tag('a', (SELECT org_id FROM teams WHERE id = OLD.team_id));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM quire_cache_tag('a', (SELECT org_id FROM teams WHERE id = NEW.team_id));
  END IF;
  RETURN NULL;
END $$;

-- A grant names a space or a collection; when that is being deleted too, its own trigger tags the organization.
CREATE FUNCTION quire_cache_grant() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rid text;
BEGIN
  rid := CASE WHEN TG_OP = 'DELETE' THEN OLD.resource_id ELSE NEW.resource_id END;
  PERFORM quire_cache_tag('a', COALESCE((SELECT org_id FROM spaces WHERE id = rid), (SELECT org_id FROM collections WHERE id = rid)));
  IF TG_OP = 'UPDATE' AND OLD.resource_id <> NEW.resource_id THEN
    PERFORM quire_cache_tag('a', COALESCE((SELECT org_id FROM spaces WHERE id = OLD.resource_id), (SELECT org_id FROM collections WHERE id = OLD.resource_id)));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER quire_cache AFTER UPDATE OR DELETE ON api_tokens FOR EACH ROW EXECUTE FUNCTION quire_cache_token();
CREATE TRIGGER quire_cache AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION quire_cache_user();
CREATE TRIGGER quire_cache_o AFTER INSERT OR UPDATE OR DELETE ON organizations FOR EACH ROW EXECUTE FUNCTION quire_cache_row('o', 'id');
CREATE TRIGGER quire_cache_a AFTER INSERT OR UPDATE OR DELETE ON organizations FOR EACH ROW EXECUTE FUNCTION quire_cache_row('a', 'id');
CREATE TRIGGER quire_cache AFTER INSERT OR UPDATE OR DELETE ON org_members FOR EACH ROW EXECUTE FUNCTION quire_cache_row('a', 'org_id');
CREATE TRIGGER quire_cache AFTER INSERT OR UPDATE OR DELETE ON teams FOR EACH ROW EXECUTE FUNCTION quire_cache_row('a', 'org_id');
CREATE TRIGGER quire_cache AFTER INSERT OR UPDATE OR DELETE ON team_members FOR EACH ROW EXECUTE FUNCTION quire_cache_team_member();
CREATE TRIGGER quire_cache AFTER INSERT OR UPDATE OR DELETE ON grants FOR EACH ROW EXECUTE FUNCTION quire_cache_grant();
CREATE TRIGGER quire_cache AFTER INSERT OR UPDATE OR DELETE ON collections FOR EACH ROW EXECUTE FUNCTION quire_cache_row('a', 'org_id');
CREATE TRIGGER quire_cache AFTER INSERT OR UPDATE OR DELETE ON sso_tokens FOR EACH ROW EXECUTE FUNCTION quire_cache_row('a', 'org_id');
CREATE TRIGGER quire_cache AFTER INSERT OR UPDATE OR DELETE ON saml_providers FOR EACH ROW EXECUTE FUNCTION quire_cache_row('a', 'org_id');
CREATE TRIGGER quire_cache_s AFTER INSERT OR UPDATE OR DELETE ON spaces FOR EACH ROW EXECUTE FUNCTION quire_cache_row('s', 'id');
CREATE TRIGGER quire_cache_sp AFTER INSERT OR UPDATE OR DELETE ON spaces FOR EACH ROW EXECUTE FUNCTION quire_cache_row('sp', 'org_id');
CREATE TRIGGER quire_cache AFTER INSERT OR UPDATE OR DELETE ON change_requests FOR EACH ROW EXECUTE FUNCTION quire_cache_row('s', 'space_id');
CREATE TRIGGER quire_cache AFTER INSERT OR UPDATE OR DELETE ON comments FOR EACH ROW EXECUTE FUNCTION quire_cache_row('s', 'space_id');

CREATE TRIGGER quire_cache_truncate AFTER TRUNCATE ON api_tokens FOR EACH STATEMENT EXECUTE FUNCTION quire_cache_truncate();
CREATE TRIGGER quire_cache_truncate AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION quire_cache_truncate();
CREATE TRIGGER quire_cache_truncate AFTER TRUNCATE ON organizations FOR EACH STATEMENT EXECUTE FUNCTION quire_cache_truncate();
CREATE TRIGGER quire_cache_truncate AFTER TRUNCATE ON org_members FOR EACH STATEMENT EXECUTE FUNCTION quire_cache_truncate();
CREATE TRIGGER quire_cache_truncate AFTER TRUNCATE ON teams FOR EACH STATEMENT EXECUTE FUNCTION quire_cache_truncate();
CREATE TRIGGER quire_cache_truncate AFTER TRUNCATE ON team_members FOR EACH STATEMENT EXECUTE FUNCTION quire_cache_truncate();
CREATE TRIGGER quire_cache_truncate AFTER TRUNCATE ON grants FOR EACH STATEMENT EXECUTE FUNCTION quire_cache_truncate();
CREATE TRIGGER quire_cache_truncate AFTER TRUNCATE ON collections FOR EACH STATEMENT EXECUTE FUNCTION quire_cache_truncate();
CREATE TRIGGER quire_cache_truncate AFTER TRUNCATE ON sso_tokens FOR EACH STATEMENT EXECUTE FUNCTION quire_cache_truncate();
CREATE TRIGGER quire_cache_truncate AFTER TRUNCATE ON saml_providers FOR EACH STATEMENT EXECUTE FUNCTION quire_cache_truncate();
CREATE TRIGGER quire_cache_truncate AFTER TRUNCATE ON spaces FOR EACH STATEMENT EXECUTE FUNCTION quire_cache_truncate();
CREATE TRIGGER quire_cache_truncate AFTER TRUNCATE ON change_requests FOR EACH STATEMENT EXECUTE FUNCTION quire_cache_truncate();
CREATE TRIGGER quire_cache_truncate AFTER TRUNCATE ON comments FOR EACH STATEMENT EXECUTE FUNCTION quire_cache_truncate();
