import type { Queryable } from './db';
import { type Page, type PageRequest, keysetPage } from './paginate';

export type PageChangeKind = 'added' | 'edited' | 'removed';

export interface PageChangeRow {
  pageId: string;
  change: PageChangeKind;
  title: string;
}

/** A revision that changed one page, as its history lists it. */
export interface PageRevisionRow {
  revision_id: string;
  change: PageChangeKind;
  title: string;
  type: string;
  created_by: string | null;
  created_at: Date;
  parents: string[];
}

/** Records which pages a revision of a space's main branch changed (one statement, any count). */
export async function recordPageChanges(db: Queryable, spaceId: string, revisionId: string, seq: number, changes: PageChangeRow[]) {
  if (changes.length === 0) return;
  await db.query(
    `INSERT INTO revision_pages (space_id, page_id, revision_id, revision_seq, change, title)
     SELECT $1, c.page_id, $2, $3, c.change, c.title
       FROM unnest($4::text[], $5::text[], $6::text[]) AS c(page_id, change, title)
     ON CONFLICT DO NOTHING`,
    [spaceId, revisionId, seq, changes.map((c) => c.pageId), changes.map((c) => c.change), changes.map((c) => c.title)],
  );
}

/** The revisions of a space's main branch that changed a page, newest first. */
export async function listPageRevisions(db: Queryable, spaceId: string, pageId: string, req: PageRequest): Promise<Page<PageRevisionRow>> {
  return keysetPage<PageRevisionRow>(
    db,
    {
      columns: 'p.revision_id, p.change, p.title, r.type, r.created_by, r.created_at, r.parents',
      from: 'FROM revision_pages p JOIN revisions r ON r.id = p.revision_id WHERE p.space_id = $1 AND p.page_id = $2',
      countFrom: 'FROM revision_pages p WHERE p.space_id = $1 AND p.page_id = $2',
      params: [spaceId, pageId],
      seq: 'p.revision_seq',
      order: 'desc',
    },
    req,
  );
}

/** The pages each of `revisionIds` changed (at most `max` each), for histories that say what else was touched. */
export async function pagesOfRevisions(
  db: Queryable,
  spaceId: string,
  revisionIds: string[],
  max = 50,
): Promise<Map<string, PageChangeRow[]>> {
  const out = new Map<string, PageChangeRow[]>();
  if (revisionIds.length === 0) return out;
  const rows = await db.query<{ revision_id: string; page_id: string; change: PageChangeKind; title: string }>(
    `SELECT revision_id, page_id, change, title FROM (
       SELECT revision_id, page_id, change, title,
              row_number() OVER (PARTITION BY revision_id ORDER BY page_id) AS n
         FROM revision_pages WHERE space_id = $1 AND revision_id = ANY($2::text[])) t
      WHERE n <= $3 ORDER BY revision_id, page_id`,
    [spaceId, revisionIds, max],
  );
  for (const r of rows) {
    const list = out.get(r.revision_id) ?? [];
    list.push({ pageId: r.page_id, change: r.change, title: r.title });
    out.set(r.revision_id, list);
  }
  return out;
}

/** Whether a page ever appeared in a revision of the space's main branch. */
export async function pageHasHistory(db: Queryable, spaceId: string, pageId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM revision_pages WHERE space_id = $1 AND page_id = $2 LIMIT 1', [spaceId, pageId]);
  return rows.length > 0;
}
