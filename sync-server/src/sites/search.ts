import type { NodeJSON } from '@quire/shared/content/json';
import { bodySections } from '@quire/shared/content/text';
import { LRUCache } from 'lru-cache';
import { flatten, type SiteRequest } from './context';
import type { SearchHit } from './pages';

/**
 * Full-text search over what one visitor may see of a site: every section of every
 * visible page, split at its headings so a hit links to the heading. The index is built
 * once per site version and visible structure, and kept in memory.
 */
interface Entry {
  title: string;
  heading: string;
  section: string;
  url: string;
  text: string;
  titleLc: string;
  headingLc: string;
  textLc: string;
}

const indexes = new LRUCache<string, Promise<Entry[]>>({ max: 50 });

async function buildIndex(req: SiteRequest): Promise<Entry[]> {
  const out: Entry[] = [];
  const multiSection = req.view.sections.length > 1;
  for (const section of req.view.sections) {
    for (const variant of section.variants) {
      const snapshot = await req.snapshot(variant);
      const flat = flatten(snapshot.pages);
      const hiddenIds = new Set<string>();
      for (const p of flat) if (p.hidden || hiddenIds.has(p.id)) for (const c of [p, ...flatten(p.children)]) hiddenIds.add(c.id);
      const where =
        [multiSection ? section.title : '', section.variants.length > 1 ? variant.title : ''].filter(Boolean).join(' · ') || req.site.title;
      for (const page of flat) {
        if (page.type !== 'document' || hiddenIds.has(page.id)) continue;
        const url = req.pageUrl(section, variant, flat, page);
        const sections = bodySections((await snapshot.body(page.id)) as NodeJSON);
        const intro = [page.description, ...sections.filter((s) => s.anchor === null).map((s) => s.text)].filter(Boolean).join('\n');
        const add = (heading: string, anchor: string | null, text: string) =>
          out.push({
            title: page.title,
            heading,
            section: where,
            url: anchor ? `${url}#${encodeURIComponent(anchor)}` : url,
            text,
            titleLc: page.title.toLowerCase(),
            headingLc: heading.toLowerCase(),
            textLc: text.toLowerCase(),
          });
        add('', null, intro);
        for (const s of sections) if (s.anchor !== null) add(s.title, s.anchor, s.text);
      }
    }
  }
  return out;
}

function snippet(text: string, terms: string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lc = flat.toLowerCase();
  const at = Math.min(...terms.map((t) => lc.indexOf(t)).filter((i) => i >= 0), Number.MAX_SAFE_INTEGER);
  if (at === Number.MAX_SAFE_INTEGER) return flat.slice(0, 160) + (flat.length > 160 ? '…' : '');
  const start = Math.max(0, at - 60);
  const piece = flat.slice(start, start + 180);
  return `${start > 0 ? '…' : ''}${piece}${start + 180 < flat.length ? '…' : ''}`;
}

/** The index of what this request's visitor may see, built once per site version and view. */
function indexFor(req: SiteRequest): Promise<Entry[]> {
  const key = `${req.site.id}:${req.site.version}:${req.view.signature}:${req.mount.root}`;
  let index = indexes.get(key);
  if (!index) {
    index = buildIndex(req);
    indexes.set(key, index);
    index.catch(() => indexes.clear());
  }
  return index;
}

/**
 * Starts building the index a search from this page would use, while the reader reads: on a
 * site of hundreds of pages, building it when the first search arrives kept that reader
 * waiting for seconds.
 */
export function prepareSearch(req: SiteRequest): void {
  void indexFor(req).catch(() => {});
}

export async function searchSite(req: SiteRequest, q: string, limit = 20): Promise<SearchHit[]> {
  const terms = [
    ...new Set(
      q
        .toLowerCase()
        .split(/[^\p{L}\p{N}_-]+/u)
        .filter((t) => t.length > 0),
    ),
  ].slice(0, 8);
  if (terms.length === 0) return [];
  const index = indexFor(req);
  const scored: { e: Entry; score: number }[] = [];
  for (const e of await index) {
    let score = 0;
    let all = true;
    for (const t of terms) {
      const inTitle = e.titleLc.includes(t);
      const inHeading = e.headingLc.includes(t);
      const inText = e.textLc.includes(t);
      if (!inTitle && !inHeading && !inText) {
        all = false;
        break;
      }
      score += (inTitle ? 8 : 0) + (inHeading ? 5 : 0) + (inText ? 1 : 0);
    }
    if (all) scored.push({ e, score: score + (e.heading ? 0 : 0.5) });
  }
  scored.sort((a, b) => b.score - a.score);
  return scored
    .slice(0, limit)
    .map(({ e }) => ({ title: e.title, heading: e.heading, section: e.section, url: e.url, snippet: snippet(e.text || e.title, terms) }));
}
