import type { SiteCustomizationSettings } from '@quire/shared/schemas/siteCustomization';
import type { CommandContext } from '../platform/deps';
import { siteSettings } from '../sites/customization';
import { siteSpaceCustomization } from '../sites/customizationWrites';
import { siteForRead } from '../sites/siteAccess';

/* The reads of the `/v1` site customization operations: whoever reads the site reads them. */

type SiteRef = { organizationId: string; siteId: string };

export async function getCustomization(ctx: CommandContext, input: SiteRef): Promise<SiteCustomizationSettings> {
  const { site } = await siteForRead(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
  return siteSettings(site.customization);
}

/** A site space's settings: the site's, with the site space's overrides. */
export async function getSiteSpaceCustomization(
  ctx: CommandContext,
  input: SiteRef & { siteSpaceId: string },
): Promise<SiteCustomizationSettings> {
  const { site } = await siteForRead(ctx.deps.db, ctx.access, input.organizationId, input.siteId);
  return siteSpaceCustomization(ctx.deps.db, site, input.siteSpaceId);
}
