import type { CreateRedirectBody, SiteRedirect, UpdateRedirectBody } from '@quire/shared/schemas/siteRedirect';
import type { CommandContext } from '../platform/deps';
import { siteForDelete, siteForWrite } from '../sites/siteAccess';
import { createRedirect as create, deleteRedirect as remove, updateRedirect as update } from '../sites/siteRedirects';
import { presentRedirect } from '../views/site';

/*
 * The writes of the `/v1` site redirect operations, one function each, taking the caller's
 * context and the operation's input: the site's managers (`manageSites`) change them.
 */

type SiteRef = { organizationId: string; siteId: string };

export async function createRedirect(ctx: CommandContext, input: SiteRef & { fields: CreateRedirectBody }): Promise<SiteRedirect> {
  const { site } = await siteForWrite(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
  const row = await create(ctx.deps.db, site, input.fields);
  return presentRedirect(row, { base: ctx.baseUrl, site, manager: true });
}

export async function updateRedirect(
  ctx: CommandContext,
  input: SiteRef & { siteRedirectId: string; changes: UpdateRedirectBody },
): Promise<SiteRedirect> {
  const { site } = await siteForWrite(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
  const row = await update(ctx.deps.db, site, input.siteRedirectId, input.changes);
  return presentRedirect(row, { base: ctx.baseUrl, site, manager: true });
}

/** Deletes a redirect; one of a site the caller cannot see, or that is gone, changes nothing. */
export async function deleteRedirect(ctx: CommandContext, input: SiteRef & { siteRedirectId: string }): Promise<void> {
  const site = await siteForDelete(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
  if (!site) return;
  await remove(ctx.deps.db, site, input.siteRedirectId);
}
