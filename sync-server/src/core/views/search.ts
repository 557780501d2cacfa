import type { PageHits } from '../content/search';
import type { PageInfo, SpaceHits } from '../content/searchResults';

const SNIPPET = 300;

export function presentPageHit(p: PageHits, rank: number, info: PageInfo | undefined, base: string) {
  const app = `${base}/app/spaces/${p.spaceId}/pages/${p.pageId}`;
  return {
    id: p.pageId,
    title: p.title,
    description: info?.description ?? '',
    path: p.path,
    score: p.rank,
    rank,
    resultType: 'page' as const,
    sections: p.sections.map((s) => ({
      id: s.section_id || p.pageId,
      title: s.section_title || p.title,
      path: s.section_id ? `${p.path}#${s.section_id}` : p.path,
      body: s.body.length > SNIPPET ? `${s.body.slice(0, SNIPPET).replace(/\s+\S*$/, '')}…` : s.body,
      score: s.rank,
      resultType: 'section' as const,
      urls: { app: s.section_id ? `${app}#${s.section_id}` : app },
    })),
    ancestors: info?.ancestors ?? [],
    urls: { app },
  };
}

export function presentSpaceHits(s: SpaceHits, base: string) {
  return {
    type: 'space' as const,
    id: s.space.id,
    title: s.space.title,
    score: s.rank,
    pages: s.pages.map((p, i) => presentPageHit(p, i + 1, s.info.get(p.pageId), base)),
    urls: { app: `${base}/app/spaces/${s.space.id}` },
  };
}
