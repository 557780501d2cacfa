-- Identity, organizations, membership, teams, collections and spaces.
-- Every listable table has a `seq` identity column: keyset pagination orders by it,
-- so pages stay stable while rows are inserted.

CREATE TABLE users (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  email text NOT NULL UNIQUE,
  display_name text NOT NULL,
  photo_url text,
  email_verified boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_tokens (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  label text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX api_tokens_user ON api_tokens(user_id);

CREATE TABLE organizations (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  title text NOT NULL,
  email_domains text[] NOT NULL DEFAULT '{}',
  hostname text UNIQUE,
  type text NOT NULL DEFAULT 'business',
  use_case text,
  community_type text,
  default_role text,
  default_content jsonb,
  sso boolean NOT NULL DEFAULT false,
  ai boolean NOT NULL DEFAULT false,
  invite_links boolean NOT NULL DEFAULT false,
  logo text,
  merge_rules jsonb NOT NULL DEFAULT '{"type":"rules","rules":[]}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE org_members (
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  role text, -- null: guest
  disabled boolean NOT NULL DEFAULT false,
  sso boolean NOT NULL DEFAULT false,
  joined_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz,
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX org_members_user ON org_members(user_id);
CREATE INDEX org_members_joined ON org_members(org_id, joined_at, seq);

CREATE TABLE link_invites (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  role text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE agent_instructions (
  org_id text PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  instructions jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);

CREATE TABLE teams (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  title text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX teams_org ON teams(org_id, seq);

CREATE TABLE team_members (
  team_id text NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  role text NOT NULL DEFAULT 'member',
  PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user ON team_members(user_id);

CREATE TABLE collections (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  parent_id text REFERENCES collections(id) ON DELETE CASCADE,
  title text NOT NULL,
  description text,
  default_level text,
  position text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX collections_org ON collections(org_id, seq);

CREATE TABLE spaces (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  parent_id text REFERENCES collections(id) ON DELETE SET NULL,
  title text NOT NULL,
  emoji text,
  visibility text NOT NULL DEFAULT 'private',
  edit_mode text NOT NULL DEFAULT 'live',
  default_level text,
  language text,
  merge_rules jsonb NOT NULL DEFAULT '{"type":"inherit"}',
  share_key text NOT NULL,
  position text NOT NULL,
  revision_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX spaces_org ON spaces(org_id, seq);
CREATE INDEX spaces_parent ON spaces(parent_id);

-- Grants of a role on a space or collection to a user or a team.
CREATE TABLE grants (
  resource_id text NOT NULL,
  resource_kind text NOT NULL CHECK (resource_kind IN ('space', 'collection')),
  principal_id text NOT NULL,
  principal_kind text NOT NULL CHECK (principal_kind IN ('user', 'team')),
  role text NOT NULL,
  PRIMARY KEY (resource_id, principal_id)
);
CREATE INDEX grants_principal ON grants(principal_id);

-- Secrets the server generates once and keeps (signing keys), so every instance agrees.
CREATE TABLE server_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
