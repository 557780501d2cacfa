import type { RedirectDestination } from '@quire/shared/schemas/siteRedirect';

/**
 * Where a redirect leads, given the root the site is served at (`https://docs.example.com`
 * or `http://host/s/org/docs`, without a trailing slash). A section that no longer exists
 * leads nowhere (undefined), and the redirect is then ignored.
 */
export function redirectTarget(
  dest: RedirectDestination,
  siteRoot: string,
  sections: { id: string; path: string }[],
  defaultSectionId: string | null,
): string | undefined {
  if (dest.kind === 'url') return dest.url;
  const section = sections.find((s) => s.id === dest.siteSectionId);
  if (!section) return undefined;
  const sectionRoot = section.id === defaultSectionId ? siteRoot : `${siteRoot}/${section.path}`;
  const rest = (dest.path ?? '').replace(/^\/+|\/+$/g, '');
  return rest ? `${sectionRoot}/${rest}` : `${sectionRoot}/`;
}

/** The form redirect sources are stored and matched in: no trailing slash, no query. */
export function normalizeSource(path: string): string {
  const bare = path.split(/[?#]/)[0] ?? '';
  return bare.length > 1 ? bare.replace(/\/+$/, '') : bare;
}
