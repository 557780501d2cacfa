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

export function listRedirects(db: Queryable, siteId: string, q: { search?: string; orderBy?: 'createdAt' | 'source' }, req: PageRequest) {
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
      ...(q.orderBy === 'source' ? { sort: { expr: 'r.source COLLATE "C"', type: 'text' } } : {}),
    },
    req,
  );
}

export function insertRedirect(db: Queryable, siteId: string, source: string, destination: RedirectDestination) {
  return one<RedirectRow>(db, 'INSERT INTO site_redirects (id, site_id, source, destination) VALUES ($1, $2, $3, $4) RETURNING *', [
    newId(),
    siteId,
    source,
    JSON.stringify(destination),
  ]);
}

export function updateRedirect(db: Queryable, id: string, patch: { source?: string; destination?: RedirectDestination }) {
  return one<RedirectRow>(
    db,
    `UPDATE site_redirects SET source = coalesce($2, source), destination = coalesce($3::jsonb, destination), updated_at = now()
     WHERE id = $1 RETURNING *`,
    [id, patch.source ?? null, patch.destination ? JSON.stringify(patch.destination) : null],
  );
}

export async function deleteRedirect(db: Queryable, siteId: string, id: string) {
  await db.query('DELETE FROM site_redirects WHERE id = $1 AND site_id = $2', [id, siteId]);
}
