-- A site's custom hostname is served only once its DNS has named the site (see
-- core/sites/hostnameOwnership.ts). Hostnames set before this are unproven until set again.
ALTER TABLE sites ADD COLUMN hostname_verified_at timestamptz;
