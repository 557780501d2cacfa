import { REDIRECT_SOURCE_INPUT_PATTERN } from '@quire/shared/schemas/siteRedirect';
import type { Queryable } from '../../store/db';
import { touchSite } from '../../store/sites';
import { insertRedirect, redirectBySource } from '../../store/sitesRedirects';
import { sectionsOfSite, siteSpacesOfSpace } from '../../store/sitesStructure';
import { siteSpaceRoot } from '../sites/redirects';

/**
 * The `redirects` of an imported `.gitbook.yaml` become redirects of every site that
 * publishes the space, each to the page its target file became, below the site space's own
 * path. A source the site already redirects is left as the site has it; a target no page
 * was imported from is skipped (the file keeps it for the next export). Returns how many were added.
 */
export async function importSiteRedirects(
  tx: Queryable,
  spaceId: string,
  redirects: Record<string, string>,
  pageByPath: Map<string, string>,
): Promise<number> {
  const entries = Object.entries(redirects);
  if (!entries.length) return 0;
  let added = 0;
  const siteSpaces = await siteSpacesOfSpace(tx, spaceId);
  for (const ss of siteSpaces) {
    const places = {
      root: '',
      sections: await sectionsOfSite(tx, ss.site_id),
      siteSpaces: [ss],
      defaultSectionId: ss.default_section_id,
      defaultSiteSpaceId: ss.default_site_space_id,
      pagePath: async () => undefined,
    };
    const root = siteSpaceRoot(places, ss.id)?.root;
    if (root === undefined) continue;
    let touched = false;
    for (const [from, to] of entries) {
      const pageId = pageByPath.get(to) ?? pageByPath.get(to.toLowerCase());
      const source = `${root}/${from}`;
      if (!pageId || !REDIRECT_SOURCE_INPUT_PATTERN.test(source)) continue;
      if (await redirectBySource(tx, ss.site_id, source)) continue;
      await insertRedirect(tx, ss.site_id, { source, destination: { kind: 'site-page', siteSpaceId: ss.id, pageId } });
      added++;
      touched = true;
    }
    if (touched) await touchSite(tx, ss.site_id);
  }
  return added;
}
