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
    else if (isPlain(v)) out[k] = mergeSettings(isPlain(out[k]) ? (out[k] as Json) : {}, v);
    else out[k] = v;
  }
  return out as T;
}

/** Page actions that have a boolean of their own in the settings, and that boolean. */
const ACTION_FLAGS = [
  ['external-ai', 'externalAI'],
  ['markdown', 'markdown'],
  ['mcp', 'mcp'],
] as const;

interface PageActions {
  externalAI?: boolean;
  markdown?: boolean;
  mcp?: boolean;
  items?: string[];
}

/**
 * Page actions as written (a PUT, or a site space's override). With `items`, the ordered
 * list the public client sends, each boolean follows from it; a boolean sent alongside
 * must then agree.
 */
function pageActionsInput(pa: PageActions): { value: PageActions; error?: string } {
  if (!pa.items) return { value: pa };
  const value: PageActions = { ...pa };
  for (const [item, flag] of ACTION_FLAGS) {
    const listed = pa.items.includes(item);
    if (pa[flag] !== undefined && pa[flag] !== listed) {
      return { value, error: `Invalid body field "pageActions.${flag}": disagrees with pageActions.items` };
    }
    value[flag] = listed;
  }
  return { value };
}

/**
 * Customization as written (a PUT body or a site space's override PATCH), ready to store,
 * or why it cannot be.
 */
export function customizationInput<T extends Json>(body: T): { value: T; error?: string } {
  const pa = body.pageActions;
  if (!isPlain(pa)) return { value: body };
  const { value, error } = pageActionsInput(pa as PageActions);
  return { value: { ...body, pageActions: value }, error };
}

/**
 * Both forms of page actions in agreement on read: the booleans decide what is on, and
 * `items` keeps its order for those, then lists the others that are on.
 */
function withPageActions(settings: SiteCustomizationSettings): SiteCustomizationSettings {
  const pa = settings.pageActions;
  const flagOf = new Map<string, keyof PageActions>(ACTION_FLAGS);
  const kept = (pa.items ?? []).filter((item) => {
    const flag = flagOf.get(item);
    return !flag || pa[flag] === true;
  });
  for (const [item, flag] of ACTION_FLAGS) if (pa[flag] && !kept.includes(item)) kept.push(item);
  return { ...settings, pageActions: { ...pa, items: kept as NonNullable<PageActions['items']> } as typeof pa };
}

/** The site's settings as stored, completed with defaults for what was never set. */
export function siteSettings(stored: Json | null): SiteCustomizationSettings {
  return withPageActions(mergeSettings(defaultCustomization() as unknown as Json, stored) as unknown as SiteCustomizationSettings);
}

/** Effective settings of a site space: the site's merged with the space's overrides. */
export function siteSpaceSettings(siteStored: Json | null, overrides: Json | null): SiteCustomizationSettings {
  return withPageActions(mergeSettings(siteSettings(siteStored) as unknown as Json, overrides) as unknown as SiteCustomizationSettings);
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
  const input = customizationInput(patch as Json);
  if (input.error) return { overrides: null, error: `${input.error}.` };
  const next = mergeSettings(current ?? {}, input.value);
  const effective = mergeSettings(siteSettings(siteStored) as unknown as Json, next);
  const checked = SiteCustomizationSettingsSchema.safeParse(effective);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return { overrides: null, error: `Invalid body field "${issue?.path.join('.')}": ${issue?.message}.` };
  }
  return { overrides: Object.keys(next).length ? next : null };
}
