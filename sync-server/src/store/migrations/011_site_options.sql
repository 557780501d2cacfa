-- Options the public client of this API family sets on site spaces and redirects.

-- A title for the site space on this site (the variant's name); null shows the space's own title.
ALTER TABLE site_spaces ADD COLUMN title text;

-- Permanent redirects answer 301 (308 for other methods), temporary ones 302 (307).
-- Redirects made before this option existed were permanent, and stay so.
ALTER TABLE site_redirects ADD COLUMN permanent boolean NOT NULL DEFAULT true;
-- With a wildcard source (`/old/*`), append what the wildcard matched to the target.
ALTER TABLE site_redirects ADD COLUMN capture_wildcard boolean NOT NULL DEFAULT false;
