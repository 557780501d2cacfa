import leven from 'leven';

/** A page of the site readers reached, as a redirect may name it. */
export interface ExistingPage {
  path: string;
  siteSpaceId: string;
  pageId: string;
}

const lastSegment = (path: string) => path.replace(/\/+$/, '').split('/').pop()?.toLowerCase() ?? '';
const parentOf = (path: string) => path.replace(/\/+$/, '').split('/').slice(0, -1).join('/').toLowerCase();

/**
 * The existing page a broken URL most likely meant. A page keeps its name more often than
 * its place (it moved, or its section was renamed), so the last segment weighs twice the
 * folders above it; a page with the same last segment wins outright. Null when the site
 * has no page to send readers to.
 */
export function nearestPage(broken: string, pages: readonly ExistingPage[]): ExistingPage | null {
  const name = lastSegment(broken);
  const parent = parentOf(broken);
  let best: ExistingPage | null = null;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const page of pages) {
    if (page.path === broken) continue;
    const score = 2 * leven(name, lastSegment(page.path)) + leven(parent, parentOf(page.path));
    if (score < bestScore) {
      best = page;
      bestScore = score;
    }
  }
  return best;
}
