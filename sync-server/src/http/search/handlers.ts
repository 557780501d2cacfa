import type { OpenAPIHono } from '@hono/zod-openapi';
import type { SearchQuery } from '@quire/shared/schemas/search';
import type { Context } from 'hono';
import type { z } from 'zod';
import { contentAtRevision } from '../../core/content/revisions';
import { type PageHits, rankKey, searchPages } from '../../core/content/search';
import { type EntryTreeNode, pageTreeOf } from '../../core/content/tree';
import type { DbHandle } from '../../core/deps';
import type { SpaceRow } from '../../store/spaces';
import { orgSpaces } from '../../store/search';
import type { AppEnv } from '../env';
import { requireOrg, requireSpace } from '../guards';
import { memoryPage } from '../content/memoryPage';
import { guestVisibleSpaceIds } from '../organizations/handlers';
import { baseUrl } from '../urls';
import * as r from './routes';

const SNIPPET = 300;

interface PageInfo {
  description: string;
  ancestors: { title: string }[];
}

/** Descriptions and ancestor titles of a space's pages, from its current revision. */
async function pageInfo(db: DbHandle, space: SpaceRow): Promise<Map<string, PageInfo>> {
  const out = new Map<string, PageInfo>();
  if (!space.revision_id) return out;
  const walk = (nodes: EntryTreeNode[], ancestors: { title: string }[]) => {
    for (const n of nodes) {
      out.set(n.id, { description: n.description ?? '', ancestors });
      walk(n.children, [...ancestors, { title: n.title }]);
    }
  };
  walk(pageTreeOf(await contentAtRevision(db, space.revision_id)), []);
  return out;
}

function presentPageHit(p: PageHits, rank: number, info: PageInfo | undefined, base: string) {
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

type Ctx = Context<AppEnv>;
type Query = z.output<typeof SearchQuery>;

/** Pages of one space matching the query (`GET /v1/spaces/{id}/search`). */
export async function searchSpace(c: Ctx, spaceId: string, q: Query) {
  const { db } = c.get('deps');
  const { space } = await requireSpace(c, spaceId);
  const hits = await searchPages(db, [space.id], q.query);
  const page = memoryPage(hits, (h) => rankKey(h.rank, h.pageId), q);
  const base = baseUrl(c);
  const info = await pageInfo(db, space);
  const rankOf = new Map(hits.map((h, i) => [h.pageId, i + 1]));
  const items = page.rows.map((h) => presentPageHit(h, rankOf.get(h.pageId) ?? 0, info.get(h.pageId), base));
  return { items, count: page.count, ...(page.next ? { next: { page: page.next } } : {}) };
}

/** Spaces of an organization with their matching pages, as far as the caller may see (`GET /v1/orgs/{id}/search`). */
export async function searchOrganization(c: Ctx, organizationId: string, q: Query) {
  const { db } = c.get('deps');
  const { org, access } = await requireOrg(c, organizationId);
  const rows = await orgSpaces(db, org.id);
  const guestIds = access.orgRole === null ? new Set(await guestVisibleSpaceIds(c, org.id)) : undefined;
  const spaces = new Map(rows.filter((s) => access.roleOn(s) && (!guestIds || guestIds.has(s.id))).map((s) => [s.id, s]));
  const hits = await searchPages(db, [...spaces.keys()], q.query);
  const bySpace = new Map<string, { space: SpaceRow; rank: number; pages: PageHits[] }>();
  for (const h of hits) {
    const s = bySpace.get(h.spaceId) ?? { space: spaces.get(h.spaceId) as SpaceRow, rank: h.rank, pages: [] };
    s.rank = Math.max(s.rank, h.rank);
    s.pages.push(h);
    bySpace.set(h.spaceId, s);
  }
  const page = memoryPage([...bySpace.values()], (s) => rankKey(s.rank, s.space.id), q);
  const base = baseUrl(c);
  const items = await Promise.all(
    page.rows.map(async (s) => {
      const info = await pageInfo(db, s.space);
      return {
        type: 'space' as const,
        id: s.space.id,
        title: s.space.title,
        score: s.rank,
        pages: s.pages.map((p, i) => presentPageHit(p, i + 1, info.get(p.pageId), base)),
        urls: { app: `${base}/app/spaces/${s.space.id}` },
      };
    }),
  );
  return { items, count: page.count, ...(page.next ? { next: { page: page.next } } : {}) };
}

export function registerSearch(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.searchSpace, async (c) => c.json(await searchSpace(c, c.req.valid('param').spaceId, c.req.valid('query')), 200));
  app.openapi(r.searchOrganization, async (c) =>
    c.json(await searchOrganization(c, c.req.valid('param').organizationId, c.req.valid('query')), 200),
  );
}
