import { byPosition, newId } from '@quire/shared';
import { maybeOne, one, type Queryable } from './db';
import { keysetPage, type PageRequest } from './paginate';

export interface SectionRow {
  id: string;
  seq: number;
  site_id: string;
  group_id: string | null;
  title: string;
  description: string | null;
  icon: string | null;
  path: string;
  condition: string | null;
  position: string;
  default_site_space_id: string | null;
  created_at: Date;
}

export interface SectionGroupRow {
  id: string;
  seq: number;
  site_id: string;
  parent_id: string | null;
  title: string;
  icon: string | null;
  position: string;
  created_at: Date;
}

export interface SiteSpaceRow {
  id: string;
  seq: number;
  site_id: string;
  section_id: string | null;
  space_id: string;
  path: string;
  /** Its own title on the site; null shows the space's. */
  title: string | null;
  condition: string | null;
  position: string;
  customization: Record<string, unknown> | null;
  created_at: Date;
}

/** One item among siblings: sections and groups of one parent share an order. */
export interface Sibling {
  kind: 'section' | 'group' | 'site-space';
  id: string;
  position: string;
  seq: number;
}

// ---- sections

export function getSection(db: Queryable, siteId: string, id: string) {
  return maybeOne<SectionRow>(db, 'SELECT * FROM site_sections WHERE id = $1 AND site_id = $2', [id, siteId]);
}

export async function sectionsOfSite(db: Queryable, siteId: string): Promise<SectionRow[]> {
  return (await db.query<SectionRow>('SELECT * FROM site_sections WHERE site_id = $1', [siteId])).sort(byPosition);
}

export function listSections(db: Queryable, siteId: string, req: PageRequest) {
  return keysetPage<SectionRow>(
    db,
    { columns: 'x.*', from: 'FROM site_sections x WHERE x.site_id = $1', params: [siteId], seq: 'x.seq' },
    req,
  );
}

export function insertSection(
  db: Queryable,
  f: { siteId: string; groupId: string | null; title: string; icon?: string | null; path: string; position: string },
) {
  return one<SectionRow>(
    db,
    'INSERT INTO site_sections (id, site_id, group_id, title, icon, path, position) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *',
    [newId(), f.siteId, f.groupId, f.title, f.icon ?? null, f.path, f.position],
  );
}

const SECTION_COLUMNS: Record<string, string> = {
  title: 'title',
  path: 'path',
  defaultSiteSpace: 'default_site_space_id',
  condition: 'condition',
  icon: 'icon',
  description: 'description',
  groupId: 'group_id',
  position: 'position',
};

export async function updateSection(db: Queryable, id: string, patch: Record<string, unknown>) {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [k, v] of Object.entries(patch)) {
    const col = SECTION_COLUMNS[k];
    if (!col || v === undefined) continue;
    params.push(v);
    sets.push(`${col} = $${params.length}`);
  }
  if (sets.length) await db.query(`UPDATE site_sections SET ${sets.join(', ')} WHERE id = $1`, params);
}

export async function deleteSection(db: Queryable, id: string) {
  await db.query('DELETE FROM site_sections WHERE id = $1', [id]);
}

// ---- section groups

export function getSectionGroup(db: Queryable, siteId: string, id: string) {
  return maybeOne<SectionGroupRow>(db, 'SELECT * FROM site_section_groups WHERE id = $1 AND site_id = $2', [id, siteId]);
}

export async function groupsOfSite(db: Queryable, siteId: string): Promise<SectionGroupRow[]> {
  return (await db.query<SectionGroupRow>('SELECT * FROM site_section_groups WHERE site_id = $1', [siteId])).sort(byPosition);
}

export function listSectionGroups(db: Queryable, siteId: string, req: PageRequest) {
  return keysetPage<SectionGroupRow>(
    db,
    { columns: 'x.*', from: 'FROM site_section_groups x WHERE x.site_id = $1', params: [siteId], seq: 'x.seq' },
    req,
  );
}

export function insertSectionGroup(
  db: Queryable,
  f: { siteId: string; parentId: string | null; title: string; icon?: string | null; position: string },
) {
  return one<SectionGroupRow>(
    db,
    'INSERT INTO site_section_groups (id, site_id, parent_id, title, icon, position) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
    [newId(), f.siteId, f.parentId, f.title, f.icon ?? null, f.position],
  );
}

const GROUP_COLUMNS: Record<string, string> = { title: 'title', icon: 'icon', position: 'position', parentId: 'parent_id' };

export async function updateSectionGroup(
  db: Queryable,
  id: string,
  patch: { title?: string; icon?: string | null; position?: string; parentId?: string | null },
) {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [k, v] of Object.entries(patch)) {
    const col = GROUP_COLUMNS[k];
    if (!col || v === undefined) continue;
    params.push(v);
    sets.push(`${col} = $${params.length}`);
  }
  if (sets.length) await db.query(`UPDATE site_section_groups SET ${sets.join(', ')} WHERE id = $1`, params);
}

export async function deleteSectionGroup(db: Queryable, id: string) {
  await db.query('DELETE FROM site_section_groups WHERE id = $1', [id]);
}

/** Sections and groups directly under a group (or the site root), in order. */
export async function sectionSiblings(db: Queryable, siteId: string, groupId: string | null): Promise<Sibling[]> {
  const rows = await db.query<Sibling>(
    `SELECT 'section' AS kind, id, position, seq FROM site_sections WHERE site_id = $1 AND group_id IS NOT DISTINCT FROM $2
     UNION ALL SELECT 'group', id, position, seq FROM site_section_groups WHERE site_id = $1 AND parent_id IS NOT DISTINCT FROM $2`,
    [siteId, groupId],
  );
  return rows.sort(byPosition);
}

// ---- site spaces

export function getSiteSpace(db: Queryable, siteId: string, id: string) {
  return maybeOne<SiteSpaceRow>(db, 'SELECT * FROM site_spaces WHERE id = $1 AND site_id = $2', [id, siteId]);
}

/** Where a space is published: its site spaces on every site, with the site's defaults. */
export async function siteSpacesOfSpace(
  db: Queryable,
  spaceId: string,
): Promise<(SiteSpaceRow & { default_section_id: string | null; default_site_space_id: string | null })[]> {
  return db.query(
    `SELECT ss.*, s.default_section_id, s.default_site_space_id
       FROM site_spaces ss JOIN sites s ON s.id = ss.site_id
      WHERE ss.space_id = $1 ORDER BY ss.site_id, ss.seq`,
    [spaceId],
  );
}

export async function siteSpacesOfSite(db: Queryable, siteId: string): Promise<SiteSpaceRow[]> {
  return (await db.query<SiteSpaceRow>('SELECT * FROM site_spaces WHERE site_id = $1', [siteId])).sort(byPosition);
}

/** Site spaces of one section (or of the root), in order. */
export async function siteSpaceSiblings(db: Queryable, siteId: string, sectionId: string | null): Promise<Sibling[]> {
  const rows = await db.query<Sibling>(
    `SELECT 'site-space' AS kind, id, position, seq FROM site_spaces WHERE site_id = $1 AND section_id IS NOT DISTINCT FROM $2`,
    [siteId, sectionId],
  );
  return rows.sort(byPosition);
}

export function listSiteSpaces(db: Queryable, siteId: string, filter: { defaultOnly?: boolean; defaultIds: string[] }, req: PageRequest) {
  const params: unknown[] = [siteId];
  let where = 'x.site_id = $1';
  if (filter.defaultOnly !== undefined) {
    params.push(filter.defaultIds);
    where += filter.defaultOnly ? ` AND x.id = ANY($2)` : ` AND NOT (x.id = ANY($2))`;
  }
  return keysetPage<SiteSpaceRow>(db, { columns: 'x.*', from: `FROM site_spaces x WHERE ${where}`, params, seq: 'x.seq' }, req);
}

export function insertSiteSpace(
  db: Queryable,
  f: { siteId: string; sectionId: string | null; spaceId: string; path: string; position: string; title?: string | null },
) {
  return one<SiteSpaceRow>(
    db,
    'INSERT INTO site_spaces (id, site_id, section_id, space_id, path, position, title) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *',
    [newId(), f.siteId, f.sectionId, f.spaceId, f.path, f.position, f.title ?? null],
  );
}

const SITE_SPACE_COLUMNS: Record<string, string> = {
  path: 'path',
  title: 'title',
  condition: 'condition',
  spaceId: 'space_id',
  sectionId: 'section_id',
  position: 'position',
  customization: 'customization',
};

export async function updateSiteSpace(db: Queryable, id: string, patch: Record<string, unknown>) {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [k, v] of Object.entries(patch)) {
    const col = SITE_SPACE_COLUMNS[k];
    if (!col || v === undefined) continue;
    params.push(col === 'customization' && v !== null ? JSON.stringify(v) : v);
    sets.push(`${col} = $${params.length}`);
  }
  if (sets.length) await db.query(`UPDATE site_spaces SET ${sets.join(', ')} WHERE id = $1`, params);
}

export async function deleteSiteSpace(db: Queryable, id: string) {
  await db.query('DELETE FROM site_spaces WHERE id = $1', [id]);
}

/** Paths already used in a container (a section's site spaces, the root's, or the site's sections). */
export async function takenPaths(
  db: Queryable,
  table: 'site_sections' | 'site_spaces',
  siteId: string,
  sectionId?: string | null,
): Promise<Set<string>> {
  const rows =
    table === 'site_sections'
      ? await db.query<{ path: string }>('SELECT path FROM site_sections WHERE site_id = $1', [siteId])
      : await db.query<{ path: string }>('SELECT path FROM site_spaces WHERE site_id = $1 AND section_id IS NOT DISTINCT FROM $2', [
          siteId,
          sectionId ?? null,
        ]);
  return new Set(rows.map((r) => r.path));
}

/** Whether the space is already published in this site's section (or its root, for null). */
export async function spacePublishedIn(db: Queryable, siteId: string, sectionId: string | null, spaceId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM site_spaces WHERE site_id = $1 AND section_id IS NOT DISTINCT FROM $2 AND space_id = $3', [
    siteId,
    sectionId,
    spaceId,
  ]);
  return rows.length > 0;
}

/** Drops a site space's own customization; false when it had none (nothing changed). */
export async function clearSiteSpaceCustomization(db: Queryable, siteId: string, siteSpaceId: string): Promise<boolean> {
  const rows = await db.query(
    'UPDATE site_spaces SET customization = NULL WHERE id = $1 AND site_id = $2 AND customization IS NOT NULL RETURNING id',
    [siteSpaceId, siteId],
  );
  return rows.length > 0;
}

export async function setSectionDefaultSiteSpace(db: Queryable, sectionId: string, siteSpaceId: string) {
  await db.query('UPDATE site_sections SET default_site_space_id = $2 WHERE id = $1', [sectionId, siteSpaceId]);
}
