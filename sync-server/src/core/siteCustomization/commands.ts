import type {
  PatchSiteSpaceCustomizationBody,
  PutSiteCustomizationBody,
  SiteCustomizationSettings,
} from '@quire/shared/schemas/siteCustomization';
import type { z } from 'zod';
import type { CommandContext } from '../platform/deps';
import { patchSiteSpaceCustomization as patch, putSiteCustomization, resetSiteSpaceCustomization } from '../sites/customizationWrites';
import { siteForDelete, siteForWrite } from '../sites/siteAccess';

/*
 * The writes of the `/v1` site customization operations, taking the caller's context and
 * the operation's input: the site's managers (`manageSites`) change them.
 */

type SiteRef = { organizationId: string; siteId: string };

export async function putCustomization(
  ctx: CommandContext,
  input: SiteRef & { settings: z.output<typeof PutSiteCustomizationBody> },
): Promise<SiteCustomizationSettings> {
  const { site } = await siteForWrite(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
  return putSiteCustomization(ctx.deps.db, site, input.settings);
}

export async function patchSiteSpaceCustomization(
  ctx: CommandContext,
  input: SiteRef & { siteSpaceId: string; patch: PatchSiteSpaceCustomizationBody },
): Promise<SiteCustomizationSettings> {
  const { site } = await siteForWrite(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
  return patch(ctx.deps.db, site, input.siteSpaceId, input.patch);
}

/** Drops a site space's overrides; a site the caller cannot see, or that is gone, changes nothing. */
export async function deleteSiteSpaceCustomization(ctx: CommandContext, input: SiteRef & { siteSpaceId: string }): Promise<void> {
  const site = await siteForDelete(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
  if (!site) return;
  await resetSiteSpaceCustomization(ctx.deps.db, site, input.siteSpaceId);
}
