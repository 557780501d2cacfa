-- Sync tickets open one connection each. The upgrade that presents a ticket records its id
-- here in the statement that checks nobody did before (ON CONFLICT DO NOTHING), so a second
-- upgrade with the same ticket is refused on any instance. A row outlives its ticket's expiry
-- a little (the background jobs drop it), after which the ticket is refused as expired anyway.
CREATE TABLE sync_ticket_uses (
  id text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sync_ticket_uses_expires_at ON sync_ticket_uses (expires_at);
