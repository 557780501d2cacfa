-- SAML single sign-on: identity providers of an organization, the requests this server
-- sent them, the assertions already consumed (replay protection) and the API tokens
-- issued through a sign-in (what `sso` enforcement accepts).

CREATE TABLE saml_providers (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  label text NOT NULL,
  entity_id text NOT NULL,
  certificate text NOT NULL,
  sso_url text NOT NULL,
  default_team_id text REFERENCES teams(id) ON DELETE SET NULL,
  default_role text,
  status text NOT NULL DEFAULT 'active',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX saml_providers_org ON saml_providers(org_id, seq);

-- AuthnRequest ids sent from the start URL; a response may only answer one of them once.
CREATE TABLE saml_requests (
  id text PRIMARY KEY,
  provider_id text NOT NULL REFERENCES saml_providers(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX saml_requests_created ON saml_requests(created_at);

-- Assertion ids consumed, kept until the assertion would have expired anyway.
CREATE TABLE saml_seen_assertions (
  provider_id text NOT NULL REFERENCES saml_providers(id) ON DELETE CASCADE,
  assertion_id text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (provider_id, assertion_id)
);
CREATE INDEX saml_seen_assertions_expiry ON saml_seen_assertions(expires_at);

-- API tokens handed out by a SAML sign-in into an organization.
CREATE TABLE sso_tokens (
  token_id text PRIMARY KEY REFERENCES api_tokens(id) ON DELETE CASCADE,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  provider_id text REFERENCES saml_providers(id) ON DELETE SET NULL,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sso_tokens_user ON sso_tokens(user_id, org_id);
