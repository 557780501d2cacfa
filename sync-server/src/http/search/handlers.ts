import type { OpenAPIHono } from '@hono/zod-openapi';
import { type PageHits, rankKey, searchPages } from '../../core/content/search';
import type { SpaceRow } from '../../store/spaces';
import { orgSpaces } from '../../store/search';
import type { AppEnv } from '../env';
import { requireOrg, requireSpace } from '../guards';
import { memoryPage } from '../content/memoryPage';
import { guestVisibleSpaceIds } from '../organizations/handlers';
import { baseUrl } from '../urls';
import * as r from './routes';

const SNIPPET = 300;

function presentPageHit(p: PageHits, base: string) {
  const app = `${base}/app/spaces/${p.spaceId}/pages/${p.pageId}`;
  return {
    id: p.pageId,
    title: p.title,
    path: p.path,
    sections: p.sections.map((s) => ({
      id: s.section_id || p.pageId,
      title: s.section_title || p.title,
      path: s.section_id ? `${p.path}#${s.section_id}` : p.path,
      body: s.body.length > SNIPPET ? `${s.body.slice(0, SNIPPET).replace(/\s+\S*$/, '')}…` : s.body,
      urls: { app: s.section_id ? `${app}#${s.section_id}` : app },
    })),
    urls: { app },
  };
}

export function registerSearch(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.searchSpace, async (c) => {
    const { db } = c.get('deps');
    const { space } = await requireSpace(c, c.req.valid('param').spaceId);
    const q = c.req.valid('query');
    const hits = await searchPages(db, [space.id], q.query);
    const page = memoryPage(hits, (h) => rankKey(h.rank, h.pageId), q);
    const base = baseUrl(c);
    return c.json(
      { items: page.rows.map((h) => presentPageHit(h, base)), count: page.count, ...(page.next ? { next: { page: page.next } } : {}) },
      200,
    );
  });

  app.openapi(r.searchOrganization, async (c) => {
    const { db } = c.get('deps');
    const { org, access } = await requireOrg(c, c.req.valid('param').organizationId);
    const q = c.req.valid('query');
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
    const items = page.rows.map((s) => ({
      id: s.space.id,
      title: s.space.title,
      pages: s.pages.map((p) => presentPageHit(p, base)),
      urls: { app: `${base}/app/spaces/${s.space.id}` },
    }));
    return c.json({ items, count: page.count, ...(page.next ? { next: { page: page.next } } : {}) }, 200);
  });
}
