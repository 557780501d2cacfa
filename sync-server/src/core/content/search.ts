import type { Queryable } from '../../store/db';
import { type SectionHit, searchSections } from '../../store/search';

/**
 * The words of a search as a PostgreSQL tsquery: each word stemmed by the english
 * configuration and matched as a prefix (so `instal` finds `installing`), all required.
 * Only letters and digits reach the query, so no user text is parsed as query syntax.
 */
export function toTsQuery(text: string): string | undefined {
  const words = (text.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 16);
  return words.length ? words.map((w) => `'${w.toLowerCase()}':*`).join(' & ') : undefined;
}

export interface PageHits {
  spaceId: string;
  pageId: string;
  title: string;
  path: string;
  rank: number;
  sections: SectionHit[];
}

/** Matching pages of some spaces, best first, each with its matching sections in page order. */
export async function searchPages(db: Queryable, spaceIds: string[], text: string): Promise<PageHits[]> {
  const q = toTsQuery(text);
  if (!q) return [];
  const hits = await searchSections(db, spaceIds, q);
  const pages = new Map<string, PageHits>();
  for (const h of hits) {
    const key = `${h.space_id}\t${h.page_id}`;
    let p = pages.get(key);
    if (!p) {
      p = { spaceId: h.space_id, pageId: h.page_id, title: h.page_title, path: h.page_path, rank: h.rank, sections: [] };
      pages.set(key, p);
    }
    p.rank = Math.max(p.rank, h.rank);
    if (h.section_hit) p.sections.push(h);
  }
  for (const p of pages.values()) p.sections.sort((a, b) => a.position - b.position);
  return [...pages.values()].sort((a, b) => b.rank - a.rank || (a.pageId < b.pageId ? -1 : 1));
}

/** A sort key that orders by rank (best first), then by id: what search result cursors point at. */
export function rankKey(rank: number, id: string): string {
  return `${String(1e9 - Math.round(rank * 1e6)).padStart(10, '0')}\u0000${id}`;
}
