/**
 * A URL- and anchor-safe form of a title: lower case, letters and digits of any script,
 * words joined by `-`. Latin accents are dropped so `Café` and `Cafe` read alike in a URL.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
}

/**
 * `base`, or `base-2`, `base-3`… — the first one not in `taken`. Siblings need distinct
 * slugs for their paths to be distinct, and the first writer keeps the plain one.
 */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Slug of a page whose title gives none (empty, or only punctuation). */
export const FALLBACK_SLUG = 'untitled';

/** The common form of a slug `slugify` writes, which it leaves as it is. */
const PLAIN_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A page's slug as everything reads it: what the document stores, as `slugify` writes it,
 * else the title's, else `untitled`. Any client may write the stored value over sync, raw
 * (`../../x`, `/abs`, `..\win`); read through here it is one path segment, never a way
 * out of the folder of an export or the base of a site.
 */
export function pageSlug(stored: string | null | undefined, title: string): string {
  if (stored && stored.length <= 100 && PLAIN_SLUG.test(stored)) return stored;
  return slugify(stored ?? '') || slugify(title) || FALLBACK_SLUG;
}
