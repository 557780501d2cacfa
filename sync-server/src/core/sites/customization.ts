import {
  defaultCustomization,
  type PatchSiteSpaceCustomizationBody,
  type SiteCustomizationSettings,
  SiteCustomizationSettingsSchema,
} from '@quire/shared/schemas/siteCustomization';

type Json = Record<string, unknown>;

const isPlain = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Deep merge for settings: objects merge key by key, arrays and scalars replace, and a
 * null removes the key (so an override set to null falls back to what lies below it).
 */
export function mergeSettings<T extends Json>(base: T, over: Json | null | undefined): T {
  if (!over) return base;
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) continue;
    if (v === null) delete out[k];
    else if (isPlain(v) && isPlain(out[k])) out[k] = mergeSettings(out[k] as Json, v);
    else out[k] = v;
  }
  return out as T;
}

/** The site's settings as stored, completed with defaults for what was never set. */
export function siteSettings(stored: Json | null): SiteCustomizationSettings {
  return mergeSettings(defaultCustomization() as unknown as Json, stored) as unknown as SiteCustomizationSettings;
}

/** Effective settings of a site space: the site's merged with the space's overrides. */
export function siteSpaceSettings(siteStored: Json | null, overrides: Json | null): SiteCustomizationSettings {
  return mergeSettings(siteSettings(siteStored) as unknown as Json, overrides) as unknown as SiteCustomizationSettings;
}

/**
 * Applies a PATCH to stored overrides. Nulls stay in the result only to be dropped: an
 * override set to null is removed. Returns the new overrides (null when none remain) or
 * the reason the merged settings would be invalid.
 */
export function patchOverrides(
  siteStored: Json | null,
  current: Json | null,
  patch: PatchSiteSpaceCustomizationBody,
): { overrides: Json | null; error?: string } {
  const next = mergeSettings(current ?? {}, patch as Json);
  const effective = mergeSettings(siteSettings(siteStored) as unknown as Json, next);
  const checked = SiteCustomizationSettingsSchema.safeParse(effective);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return { overrides: null, error: `Invalid body field "${issue?.path.join('.')}": ${issue?.message}.` };
  }
  return { overrides: Object.keys(next).length ? next : null };
}
