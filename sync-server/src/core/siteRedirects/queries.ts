import type { SiteRedirect } from '@quire/shared/schemas/siteRedirect';
import type { CommandContext } from '../platform/deps';
import { siteForRead } from '../sites/siteAccess';
import { redirectsPage, requireRedirect, resolveRedirect as resolve } from '../sites/siteRedirects';
import { envelope } from '../views/listing';
import { presentRedirect } from '../views/site';

/* The reads of the `/v1` site redirect operations: whoever reads the site reads them. */

type SiteRef = { organizationId: string; siteId: string };

/** A site's redirects; drafts are never kept, so asking for them answers an empty list. */
export async function listRedirects(
  ctx: CommandContext,
  input: SiteRef & { query: Parameters<typeof redirectsPage>[2] & { draft?: boolean } },
) {
  const { site, manager } = await siteForRead(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
  if (input.query.draft === true) return { items: [], count: 0 };
  const page = await redirectsPage(ctx.deps.db, site, input.query);
  return envelope(page, (row) => presentRedirect(row, { base: ctx.baseUrl, site, manager }));
}

export async function getRedirect(ctx: CommandContext, input: SiteRef & { siteRedirectId: string }): Promise<SiteRedirect> {
  const { site, manager } = await siteForRead(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
  const row = await requireRedirect(ctx.deps.db, site.id, input.siteRedirectId);
  return presentRedirect(row, { base: ctx.baseUrl, site, manager });
}

/** The redirect a path of the published site follows, and where it leads. */
export async function resolveRedirect(ctx: CommandContext, input: SiteRef & { source: string; shareKey?: string }) {
  const { site, manager } = await siteForRead(ctx.deps.db, ctx.access, input.organizationId, input.siteId, input.shareKey);
  const { redirect, target } = await resolve(ctx.deps.db, site, input.source, ctx.baseUrl);
  return { redirect: presentRedirect(redirect, { base: ctx.baseUrl, site, manager }), target };
}
