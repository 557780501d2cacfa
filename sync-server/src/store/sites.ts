import { randomBytes } from 'node:crypto';
import { newId } from '@quire/shared';
import { maybeOne, one, type Queryable } from './db';
import { keysetPage, type PageRequest } from './paginate';

export interface SiteRow {
  id: string;
  seq: number;
  org_id: string;
  title: string;
  type: 'basic' | 'premium' | 'ultimate';
  visibility: 'public' | 'unlisted' | 'share-link' | 'visitor-auth';
  basename: string;
  hostname: string | null;
  proxy: string | null;
  published: boolean;
  adaptive_content: boolean;
  agents_context: 'excluded' | 'included';
  default_site_space_id: string | null;
  default_section_id: string | null;
  share_key: string;
  visitor_key: string;
  adaptive_schema: Record<string, unknown> | null;
  adaptive_schema_updated_at: Date | null;
  customization: Record<string, unknown> | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const secret = () => randomBytes(24).toString('base64url');

export function getSite(db: Queryable, orgId: string, siteId: string) {
  return maybeOne<SiteRow>(db, 'SELECT * FROM sites WHERE id = $1 AND org_id = $2', [siteId, orgId]);
}

/** A basename free in the organization, derived from `wanted` (`docs`, `docs-2`, …). */
export async function freeBasename(db: Queryable, orgId: string, wanted: string, exceptSiteId?: string): Promise<string> {
  const rows = await db.query<{ basename: string }>('SELECT basename FROM sites WHERE org_id = $1 AND id <> $2', [
    orgId,
    exceptSiteId ?? '',
  ]);
  const taken = new Set(rows.map((r) => r.basename));
  if (!taken.has(wanted)) return wanted;
  for (let i = 2; ; i++) if (!taken.has(`${wanted}-${i}`)) return `${wanted}-${i}`;
}

export async function createSite(
  db: Queryable,
  orgId: string,
  fields: { title: string; type: string; visibility: string; basename: string },
): Promise<SiteRow> {
  return one<SiteRow>(
    db,
    `INSERT INTO sites (id, org_id, title, type, visibility, basename, share_key, visitor_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [newId(), orgId, fields.title, fields.type, fields.visibility, fields.basename, secret(), secret()],
  );
}

export interface SiteFilters {
  space?: string;
  title?: string;
  published?: boolean;
  /** Any of these types. */
  type?: string[];
}

export function listSites(db: Queryable, orgId: string, f: SiteFilters, req: PageRequest) {
  const params: unknown[] = [orgId];
  const where = ['s.org_id = $1'];
  if (f.space) {
    params.push(f.space);
    where.push(`EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.site_id = s.id AND ss.space_id = $${params.length})`);
  }
  if (f.title) {
    params.push(`%${f.title.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    where.push(`s.title ILIKE $${params.length}`);
  }
  if (f.published !== undefined) {
    params.push(f.published);
    where.push(`s.published = $${params.length}`);
  }
  if (f.type) {
    params.push(f.type);
    where.push(`s.type = ANY($${params.length})`);
  }
  return keysetPage<SiteRow>(db, { columns: 's.*', from: `FROM sites s WHERE ${where.join(' AND ')}`, params, seq: 's.seq' }, req);
}

const COLUMNS: Record<string, string> = {
  title: 'title',
  visibility: 'visibility',
  basename: 'basename',
  hostname: 'hostname',
  proxy: 'proxy',
  published: 'published',
  adaptiveContent: 'adaptive_content',
  agentsContext: 'agents_context',
  defaultSiteSpace: 'default_site_space_id',
  defaultSiteSection: 'default_section_id',
  customization: 'customization',
  adaptiveSchema: 'adaptive_schema',
};
const JSON_COLUMNS = new Set(['customization', 'adaptive_schema']);

/** Writes the given fields and bumps the site's version; fields left undefined are untouched. */
export async function updateSite(db: Queryable, siteId: string, patch: Record<string, unknown>): Promise<SiteRow> {
  const sets: string[] = [];
  const params: unknown[] = [siteId];
  for (const [k, v] of Object.entries(patch)) {
    const col = COLUMNS[k];
    if (!col || v === undefined) continue;
    params.push(JSON_COLUMNS.has(col) && v !== null ? JSON.stringify(v) : v);
    sets.push(`${col} = $${params.length}`);
    if (col === 'adaptive_schema') sets.push('adaptive_schema_updated_at = now()');
  }
  sets.push('version = version + 1', 'updated_at = now()');
  return one<SiteRow>(db, `UPDATE sites SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, params);
}

/** Marks the site changed (a section, site space, redirect or override moved under it). */
export async function touchSite(db: Queryable, siteId: string) {
  await db.query('UPDATE sites SET version = version + 1, updated_at = now() WHERE id = $1', [siteId]);
}

export async function deleteSite(db: Queryable, orgId: string, siteId: string) {
  await db.query('DELETE FROM sites WHERE id = $1 AND org_id = $2', [siteId, orgId]);
}

export async function siteSpaceCounts(db: Queryable, siteIds: string[]): Promise<Map<string, number>> {
  if (siteIds.length === 0) return new Map();
  const rows = await db.query<{ site_id: string; n: number }>(
    'SELECT site_id, count(*)::int AS n FROM site_spaces WHERE site_id = ANY($1) GROUP BY site_id',
    [siteIds],
  );
  return new Map(rows.map((r) => [r.site_id, Number(r.n)]));
}

export async function hostnameTaken(db: Queryable, hostname: string, exceptSiteId: string): Promise<boolean> {
  return !!(await maybeOne(db, 'SELECT 1 FROM sites WHERE hostname = $1 AND id <> $2', [hostname, exceptSiteId]));
}

/** Every custom hostname served (for routing requests by their Host header): the proven ones. */
export async function allSiteHostnames(db: Queryable): Promise<string[]> {
  return (
    await db.query<{ hostname: string }>('SELECT hostname FROM sites WHERE hostname IS NOT NULL AND hostname_verified_at IS NOT NULL')
  ).map((r) => r.hostname);
}

/** Takes a hostname away from whichever other site has it. */
export async function releaseHostname(db: Queryable, hostname: string, exceptSiteId: string) {
  await db.query('UPDATE sites SET hostname = NULL, hostname_verified_at = NULL, version = version + 1 WHERE hostname = $1 AND id <> $2', [
    hostname,
    exceptSiteId,
  ]);
}

/** Records whether the site's current hostname is proven to be its own. */
export async function setHostnameProven(db: Queryable, siteId: string, hostname: string, proven: boolean) {
  await db.query(`UPDATE sites SET hostname_verified_at = CASE WHEN $3 THEN now() END WHERE id = $1 AND hostname = $2`, [
    siteId,
    hostname,
    proven,
  ]);
}

/** NOTIFY channel the triggers of migration 009 announce site-related changes on. */
export const SITE_CHANGES = 'quire_site_changes';

/**
 * What a published-site request needs first, in one round trip: the site (by its
 * organization's id or hostname and its basename, or by its own hostname) and the current
 * revision of each space it publishes. Cached renders are keyed by these.
 */
export interface PublishedHead {
  site: SiteRow;
  org_hostname: string | null;
  /** Each published space: id, current revision, title, language. */
  revisions: [string, string | null, string, (string | null)?][];
}

const HEAD_SELECT = `SELECT row_to_json(s.*) AS site, o.hostname AS org_hostname,
  (SELECT coalesce(json_agg(json_build_array(sp.id, sp.revision_id, sp.title, sp.language) ORDER BY sp.id), '[]'::json)
     FROM site_spaces ss JOIN spaces sp ON sp.id = ss.space_id AND sp.deleted_at IS NULL AND sp.org_id = s.org_id WHERE ss.site_id = s.id) AS revisions
  FROM sites s JOIN organizations o ON o.id = s.org_id`;

function reviveHead(
  row: { site: SiteRow & { created_at: string; updated_at: string }; org_hostname: string | null; revisions: unknown } | undefined,
) {
  if (!row) return undefined;
  const site = row.site;
  const revisions = (typeof row.revisions === 'string' ? JSON.parse(row.revisions) : row.revisions) as PublishedHead['revisions'];
  const raw = typeof site === 'string' ? (JSON.parse(site) as SiteRow) : site;
  return {
    site: { ...raw, created_at: new Date(raw.created_at), updated_at: new Date(raw.updated_at), version: Number(raw.version) } as SiteRow,
    org_hostname: row.org_hostname,
    revisions,
  } satisfies PublishedHead;
}

export async function publishedHeadByPath(db: Queryable, org: string, basename: string): Promise<PublishedHead | undefined> {
  return reviveHead(
    await maybeOne(db, `${HEAD_SELECT} WHERE (o.id = $1 OR o.hostname = $1) AND s.basename = $2 ORDER BY (o.id = $1) DESC LIMIT 1`, [
      org,
      basename,
    ]),
  );
}

export async function publishedHeadByHostname(db: Queryable, hostname: string): Promise<PublishedHead | undefined> {
  return reviveHead(await maybeOne(db, `${HEAD_SELECT} WHERE s.hostname = $1 AND s.hostname_verified_at IS NOT NULL`, [hostname]));
}

/** Whether the site is published and shows the space. */
export async function publishedSiteShowsSpace(db: Queryable, siteId: string, spaceId: string): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 FROM sites s JOIN site_spaces ss ON ss.site_id = s.id WHERE s.id = $1 AND s.published AND ss.space_id = $2 LIMIT 1',
    [siteId, spaceId],
  );
  return rows.length > 0;
}
