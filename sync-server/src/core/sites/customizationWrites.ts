import { badRequest } from '@quire/shared/domainErrors';
import type {
  PatchSiteSpaceCustomizationBody,
  PutSiteCustomizationBody,
  SiteCustomizationSettings,
} from '@quire/shared/schemas/siteCustomization';
import type { z } from 'zod';
import { customizationInput, patchOverrides, siteSettings, siteSpaceSettings } from './customization';
import { requireSiteSpace } from './siteSpaceWrites';
import type { Db, Queryable } from '../../store/db';
import { type SiteRow, touchSite, updateSite } from '../../store/sites';
import { clearSiteSpaceCustomization, updateSiteSpace } from '../../store/sitesStructure';

/** Replaces a site's customization; answers the settings now in effect. */
export async function putSiteCustomization(
  db: Db,
  site: SiteRow,
  body: z.output<typeof PutSiteCustomizationBody>,
): Promise<SiteCustomizationSettings> {
  const input = customizationInput(body);
  if (input.error) throw badRequest(`${input.error}.`);
  const updated = await updateSite(db, site.id, { customization: input.value });
  return siteSettings(updated.customization);
}

/** The settings a site space shows: the site's, with the site space's overrides on top. */
export async function siteSpaceCustomization(db: Queryable, site: SiteRow, siteSpaceId: string): Promise<SiteCustomizationSettings> {
  const ss = await requireSiteSpace(db, site.id, siteSpaceId);
  return siteSpaceSettings(site.customization, ss.customization);
}

/** Drops a site space's overrides (a site space without any changes nothing). */
export async function resetSiteSpaceCustomization(db: Db, site: SiteRow, siteSpaceId: string): Promise<void> {
  if (await clearSiteSpaceCustomization(db, site.id, siteSpaceId)) await touchSite(db, site.id);
}

/** Patches a site space's overrides, refused when the merged settings would be invalid. */
export async function patchSiteSpaceCustomization(
  db: Db,
  site: SiteRow,
  siteSpaceId: string,
  patch: PatchSiteSpaceCustomizationBody,
): Promise<SiteCustomizationSettings> {
  const ss = await requireSiteSpace(db, site.id, siteSpaceId);
  const { overrides, error } = patchOverrides(site.customization, ss.customization, patch);
  if (error) throw badRequest(error);
  await db.transaction(async (tx) => {
    await updateSiteSpace(tx, ss.id, { customization: overrides });
    await touchSite(tx, site.id);
  });
  return siteSpaceSettings(site.customization, overrides);
}
