import { newId } from '@quire/shared';
import type { RedirectDestination } from '@quire/shared/schemas/siteRedirect';
import { maybeOne, one, type Queryable } from './db';
import { keysetPage, type PageRequest } from './paginate';

export interface RedirectRow {
  id: string;
  seq: number;
  site_id: string;
  source: string;
  destination: RedirectDestination;
  permanent: boolean;
  capture_wildcard: boolean;
  created_at: Date;
  updated_at: Date;
}

export function getRedirect(db: Queryable, siteId: string, id: string) {
  return maybeOne<RedirectRow>(db, 'SELECT * FROM site_redirects WHERE id = $1 AND site_id = $2', [id, siteId]);
}

export function redirectBySource(db: Queryable, siteId: string, source: string) {
  return maybeOne<RedirectRow>(db, 'SELECT * FROM site_redirects WHERE site_id = $1 AND source = $2', [siteId, source]);
}

export function redirectsOfSite(db: Queryable, siteId: string) {
  return db.query<RedirectRow>('SELECT * FROM site_redirects WHERE site_id = $1', [siteId]);
}

/** Sort of a redirect list: by creation (oldest first), by last change (latest first), or by source. */
function redirectSort(orderBy: 'createdAt' | 'updatedAt' | 'source' | undefined) {
  if (orderBy === 'source') return { sort: { expr: 'r.source COLLATE "C"', type: 'text' } };
  if (orderBy === 'updatedAt') return { sort: { expr: 'r.updated_at', type: 'timestamptz' }, order: 'desc' as const };
  return {};
}

export function listRedirects(
  db: Queryable,
  siteId: string,
  q: { search?: string; orderBy?: 'createdAt' | 'updatedAt' | 'source' },
  req: PageRequest,
) {
  const params: unknown[] = [siteId];
  let where = 'r.site_id = $1';
  if (q.search) {
    params.push(`%${q.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    where += ` AND r.source ILIKE $${params.length}`;
  }
  return keysetPage<RedirectRow>(
    db,
    {
      columns: 'r.*',
      from: `FROM site_redirects r WHERE ${where}`,
      params,
      seq: 'r.seq',
      ...redirectSort(q.orderBy),
    },
    req,
  );
}

export interface RedirectFields {
  source: string;
  destination: RedirectDestination;
  permanent?: boolean;
  captureWildcard?: boolean;
}

export function insertRedirect(db: Queryable, siteId: string, f: RedirectFields) {
  return one<RedirectRow>(
    db,
    `INSERT INTO site_redirects (id, site_id, source, destination, permanent, capture_wildcard)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [newId(), siteId, f.source, JSON.stringify(f.destination), f.permanent ?? true, f.captureWildcard ?? false],
  );
}

export function updateRedirect(db: Queryable, id: string, patch: Partial<RedirectFields>) {
  return one<RedirectRow>(
    db,
    `UPDATE site_redirects SET source = coalesce($2, source), destination = coalesce($3::jsonb, destination),
       permanent = coalesce($4, permanent), capture_wildcard = coalesce($5, capture_wildcard), updated_at = now()
     WHERE id = $1 RETURNING *`,
    [
      id,
      patch.source ?? null,
      patch.destination ? JSON.stringify(patch.destination) : null,
      patch.permanent ?? null,
      patch.captureWildcard ?? null,
    ],
  );
}

/** Whether a redirect was there to delete. */
export async function deleteRedirect(db: Queryable, siteId: string, id: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM site_redirects WHERE id = $1 AND site_id = $2 RETURNING id', [id, siteId]);
  return rows.length > 0;
}
