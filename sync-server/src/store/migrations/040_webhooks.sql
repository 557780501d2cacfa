-- Webhooks and their delivery queue. A delivery row is written in the transaction of the
-- change it reports (a revision cut, a merge, a comment), so no event is lost or sent for
-- a change that rolled back; senders claim due rows with FOR UPDATE SKIP LOCKED, so several
-- instances share the queue without sending a row twice at once.

CREATE TABLE webhooks (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  org_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  url text NOT NULL,
  events text[] NOT NULL,
  -- empty: every space of the organization
  space_ids text[] NOT NULL DEFAULT '{}',
  secret text NOT NULL,
  description text,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  -- the server's base URL when the webhook was made: payload links point at it
  api_base text NOT NULL,
  failing_since timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_org ON webhooks(org_id, seq);

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  webhook_id text NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id text NOT NULL,
  event text NOT NULL,
  -- the exact bytes signed and sent, the same on every attempt and redelivery
  body text NOT NULL,
  -- pending | delivered | failed
  status text NOT NULL DEFAULT 'pending',
  -- a pending row is due at this time; a claimed one is leased until then
  next_attempt_at timestamptz NOT NULL,
  attempt_count integer NOT NULL DEFAULT 0,
  attempts jsonb NOT NULL DEFAULT '[]',
  response_status integer,
  delivered_at timestamptz,
  redelivery_of text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_hook ON webhook_deliveries(webhook_id, seq);
