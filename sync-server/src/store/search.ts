import type { Queryable } from './db';
import type { SpaceRow } from './spaces';

/** One indexed section of a page on a space's main branch. */
export interface SectionEntry {
  pageId: string;
  /** Heading anchor; '' for the text before the first heading. */
  sectionId: string;
  position: number;
  pageTitle: string;
  pagePath: string;
  sectionTitle: string;
  body: string;
}

/** Replaces the index rows of `pageIds` (changed or removed pages) with `sections`. */
export async function replacePageSections(db: Queryable, spaceId: string, pageIds: string[], sections: SectionEntry[]) {
  if (pageIds.length) await db.query('DELETE FROM search_sections WHERE space_id = $1 AND page_id = ANY($2)', [spaceId, pageIds]);
  // One statement per 500 rows keeps big imports to a few round trips.
  for (let i = 0; i < sections.length; i += 500) {
    const chunk = sections.slice(i, i + 500);
    const params: unknown[] = [spaceId];
    const values = chunk.map((s) => {
      params.push(s.pageId, s.sectionId, s.position, s.pageTitle, s.pagePath, s.sectionTitle, s.body);
      const n = params.length;
      return `($1, $${n - 6}, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
    });
    await db.query(
      `INSERT INTO search_sections (space_id, page_id, section_id, position, page_title, page_path, section_title, body)
       VALUES ${values.join(', ')} ON CONFLICT (space_id, page_id, section_id) DO NOTHING`,
      params,
    );
  }
}

/** Drops a space's whole index (before a rebuild). */
export async function clearSpaceSections(db: Queryable, spaceId: string) {
  await db.query('DELETE FROM search_sections WHERE space_id = $1', [spaceId]);
}

export interface SectionHit {
  space_id: string;
  page_id: string;
  section_id: string;
  position: number;
  page_title: string;
  page_path: string;
  section_title: string;
  body: string;
  rank: number;
  /** The match is in the section itself, not only in its page's title. */
  section_hit: boolean;
}

/**
 * Sections matching a tsquery (built by the caller from the user's words) in some spaces,
 * best first. Bounded: a search answers from its best `max` sections.
 */
export async function searchSections(db: Queryable, spaceIds: string[], tsquery: string, max = 2000): Promise<SectionHit[]> {
  if (!spaceIds.length) return [];
  const rows = await db.query<SectionHit>(
    `WITH q AS (SELECT to_tsquery('english', $2) AS q)
     SELECT s.space_id, s.page_id, s.section_id, s.position, s.page_title, s.page_path, s.section_title, s.body,
            ts_rank(s.tsv, q.q) AS rank,
            (setweight(to_tsvector('english', s.section_title), 'B') || to_tsvector('english', s.body)) @@ q.q AS section_hit
     FROM search_sections s, q
     WHERE s.space_id = ANY($1) AND s.tsv @@ q.q
     ORDER BY rank DESC, s.space_id, s.page_id, s.position
     LIMIT ${max}`,
    [spaceIds, tsquery],
  );
  return rows.map((r) => ({ ...r, rank: Number(r.rank), position: Number(r.position) }));
}

/** Every live space of an organization (callers filter by what the caller may see). */
export function orgSpaces(db: Queryable, orgId: string) {
  return db.query<SpaceRow>('SELECT * FROM spaces WHERE org_id = $1 AND deleted_at IS NULL ORDER BY seq', [orgId]);
}
