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
