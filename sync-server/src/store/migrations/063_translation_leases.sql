-- A translation run holds a lease it renews while it works: a run whose lease ran out died
-- with its process, and any instance takes it over (not only a later request for a run).
ALTER TABLE translations ADD COLUMN lease_until timestamptz;
CREATE INDEX translations_running ON translations (lease_until) WHERE status = 'running';
