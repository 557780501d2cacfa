import type { NodeJSON } from '@quire/shared/content/json';
import type { Queryable } from './database';

export interface PageRevisionRow {
  revisionId: string;
  change: 'added' | 'edited' | 'removed';
  title: string;
  type: string;
  createdAt: string;
  /** The user who cut it (who restored the page, for a restore); null for live edits. */
  createdBy: string | null;
  /** For a restore: the revision whose page it brought back. */
  restoredFrom: string | null;
  /** Every page the revision changed (this one included), as the server listed them. */
  pages: TouchedPage[];
}

export interface TouchedPage {
  id: string;
  title: string;
  change: 'added' | 'edited' | 'removed';
}

/** Keeps the revisions the server listed for a page (they never change; new ones are added). */
export async function savePageRevisions(db: Queryable, spaceId: string, pageId: string, rows: PageRevisionRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO page_revisions (space_id, page_id, revision_id, change, title, type, created_at, created_by, restored_from, pages)
     SELECT $1, $2, r.revision_id, r.change, r.title, r.type, r.created_at, r.created_by, r.restored_from, r.pages
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[], $9::text[], $10::text[])
            AS r(revision_id, change, title, type, created_at, created_by, restored_from, pages)
     ON CONFLICT (space_id, page_id, revision_id) DO UPDATE SET created_by = EXCLUDED.created_by, pages = EXCLUDED.pages`,
    [
      spaceId,
      pageId,
      rows.map((r) => r.revisionId),
      rows.map((r) => r.change),
      rows.map((r) => r.title),
      rows.map((r) => r.type),
      rows.map((r) => r.createdAt),
      rows.map((r) => r.createdBy),
      rows.map((r) => r.restoredFrom),
      rows.map((r) => JSON.stringify(r.pages)),
    ],
  );
}

/** The revisions of a page this machine knows of, newest first, and whether each one's page is kept here. */
export async function loadPageRevisions(
  db: Queryable,
  spaceId: string,
  pageId: string,
): Promise<(PageRevisionRow & { cached: boolean })[]> {
  const rows = await db.query<{
    revision_id: string;
    change: PageRevisionRow['change'];
    title: string;
    type: string;
    created_at: Date;
    created_by: string | null;
    restored_from: string | null;
    pages: string | null;
    cached: boolean;
  }>(
    `SELECT r.revision_id, r.change, r.title, r.type, r.created_at, r.created_by, r.restored_from, r.pages,
            EXISTS (SELECT 1 FROM revision_pages b WHERE b.space_id = r.space_id AND b.revision_id = r.revision_id AND b.page_id = r.page_id) AS cached
       FROM page_revisions r WHERE r.space_id = $1 AND r.page_id = $2 ORDER BY r.created_at DESC, r.revision_id DESC`,
    [spaceId, pageId],
  );
  return rows.map((r) => ({
    revisionId: r.revision_id,
    change: r.change,
    title: r.title,
    type: r.type,
    createdAt: new Date(r.created_at).toISOString(),
    createdBy: r.created_by,
    restoredFrom: r.restored_from,
    pages: r.pages ? (JSON.parse(r.pages) as TouchedPage[]) : [],
    cached: r.cached,
  }));
}

export interface RevisionPage {
  title: string;
  body: NodeJSON;
}

export async function saveRevisionPage(db: Queryable, spaceId: string, revisionId: string, pageId: string, page: RevisionPage) {
  await db.query(
    `INSERT INTO revision_pages (space_id, revision_id, page_id, title, body) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING`,
    [spaceId, revisionId, pageId, page.title, JSON.stringify(page.body)],
  );
}

export async function loadRevisionPage(
  db: Queryable,
  spaceId: string,
  revisionId: string,
  pageId: string,
): Promise<RevisionPage | undefined> {
  const rows = await db.query<{ title: string; body: string }>(
    'SELECT title, body FROM revision_pages WHERE space_id = $1 AND revision_id = $2 AND page_id = $3',
    [spaceId, revisionId, pageId],
  );
  const row = rows[0];
  return row && { title: row.title, body: JSON.parse(row.body) as NodeJSON };
}
