import type { OpenAPIHono } from '@hono/zod-openapi';
import type { SearchQuery } from '@quire/shared/schemas/search';
import type { Context } from 'hono';
import type { z } from 'zod';
import * as core from '../../core/content/searchResults';
import type { AppEnv } from '../env';
import { requireOrg, requireSpace } from '../guards';
import { presentPageHit, presentSpaceHits } from '../presenters/search';
import { baseUrl } from '../urls';
import * as r from './routes';

type Ctx = Context<AppEnv>;
type Query = z.output<typeof SearchQuery>;

/** Pages of one space matching the query (`GET /v1/spaces/{id}/search`). */
export async function searchSpace(c: Ctx, spaceId: string, q: Query) {
  const { space } = await requireSpace(c, spaceId);
  const found = await core.searchSpace(c.get('deps').db, space, q);
  const base = baseUrl(c);
  const items = found.rows.map((h) => presentPageHit(h, found.rankOf.get(h.pageId) ?? 0, found.info.get(h.pageId), base));
  return { items, count: found.count, ...(found.next ? { next: { page: found.next } } : {}) };
}

/** Spaces of an organization with their matching pages, as far as the caller may see (`GET /v1/orgs/{id}/search`). */
export async function searchOrganization(c: Ctx, organizationId: string, q: Query) {
  const { org, access } = await requireOrg(c, organizationId);
  const found = await core.searchOrganization(c.get('deps').db, org, access, q);
  const base = baseUrl(c);
  const items = found.rows.map((s) => presentSpaceHits(s, base));
  return { items, count: found.count, ...(found.next ? { next: { page: found.next } } : {}) };
}

export function registerSearch(app: OpenAPIHono<AppEnv>) {
  app.openapi(r.searchSpace, async (c) => c.json(await searchSpace(c, c.req.valid('param').spaceId, c.req.valid('query')), 200));
  app.openapi(r.searchOrganization, async (c) =>
    c.json(await searchOrganization(c, c.req.valid('param').organizationId, c.req.valid('query')), 200),
  );
}
