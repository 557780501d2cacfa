-- Signing the desktop app in through the system browser (RFC 8252 with PKCE, RFC 7636).
--
-- A row is one sign-in of one app: the redirect URI and code challenge the app sent, and,
-- once someone signed in (password, or SAML where the organization requires it), who it
-- was and the SHA-256 of the one-time code handed to the app's loopback redirect. Exchanging
-- the code marks the row used in the statement that checks nobody did before, so a code is
-- spent once on any instance; the row stays a day past its expiry so that a replayed code
-- is recognised (and the token it gave revoked) rather than called unknown.
CREATE TABLE desktop_sign_ins (
  id text PRIMARY KEY,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  state text NOT NULL,
  user_id text REFERENCES users(id) ON DELETE CASCADE,
  -- A sign-in through an organization's identity provider: the token is limited to it.
  org_id text REFERENCES organizations(id) ON DELETE CASCADE,
  provider_id text,
  code_hash text UNIQUE,
  token_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX desktop_sign_ins_expires_at ON desktop_sign_ins (expires_at);

-- Passwords of people who sign in without an identity provider, set by an operator
-- (`npm run admin -- user password <email>`). scrypt, with its parameters and salt in the value.
-- Kept apart from `users`, whose rows are read everywhere.
CREATE TABLE user_passwords (
  user_id text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  hash text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
