import { newId } from '@quire/shared';
import { type NodeJSON, rewriteTargets } from '@quire/shared/content/index';
import { unprocessable } from '@quire/shared/domainErrors';
import type { ContentConfig } from '../config';
import type { Fetched, ImportFetcher } from './fetcher';
import { type HtmlPage, htmlToPage } from './html';
import { type ImportPlan, type PlannedPage, withoutLeadingH1 } from './plan';

/** A URL without its fragment: two links to parts of one page are one page. */
function pageKey(url: string): string {
  const u = new URL(url);
  u.hash = '';
  return u.toString();
}

/** Same site: same origin, and under the folder of the first page (a docs site inside a larger one stays apart). */
function inScope(url: string, start: URL): boolean {
  try {
    const u = new URL(url);
    const dir = start.pathname.replace(/[^/]*$/, '');
    return (
      u.origin === start.origin &&
      u.pathname.startsWith(dir) &&
      !/\.(png|jpe?g|gif|svg|webp|pdf|zip|css|js|json|xml|ico|mp4|woff2?)$/i.test(u.pathname)
    );
  } catch {
    return false;
  }
}

function isHtml(f: Fetched): boolean {
  return (
    f.contentType === 'text/html' ||
    f.contentType === 'application/xhtml+xml' ||
    (!f.contentType && /^\s*</.test(f.body.subarray(0, 64).toString()))
  );
}

/**
 * Plans a `source: "website"` import: the page at the URL, then the same-site pages it
 * links to, breadth first, up to the configured count and depth. Each becomes a page
 * (nested under the crawled page whose URL holds its URL), and links between crawled
 * pages become page references.
 */
export async function planWebsiteImport(fetcher: ImportFetcher, url: string, limits: ContentConfig): Promise<ImportPlan> {
  const start = new URL(url);
  const first = await fetcher.root(url);
  if (!isHtml(first))
    throw unprocessable(`${url} is not an HTML page (it is ${first.contentType || 'of unknown type'}): nothing to import.`);
  const pages = new Map<string, { page: HtmlPage; depth: number }>();
  const seen = new Set<string>([pageKey(url)]);
  const queue: { url: string; depth: number; fetched?: Fetched }[] = [{ url: pageKey(url), depth: 0, fetched: first }];
  const max = Math.min(limits.crawlMaxPages, limits.importMaxPages);
  while (queue.length && pages.size < max) {
    const next = queue.shift() as (typeof queue)[number];
    const fetched = next.fetched ?? (await fetcher.optional(next.url));
    if (!fetched || !isHtml(fetched)) continue;
    const page = htmlToPage(fetched.body.toString('utf8'), next.url);
    pages.set(next.url, { page, depth: next.depth });
    if (next.depth >= limits.crawlMaxDepth) continue;
    for (const link of page.links) {
      if (!inScope(link, start)) continue;
      const key = pageKey(link);
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push({ url: key, depth: next.depth + 1 });
    }
  }

  const ids = new Map([...pages.keys()].map((u) => [u, newId()]));
  const planned: PlannedPage[] = [];
  const startKey = pageKey(url);
  for (const [u, { page }] of pages) {
    const { body } = withoutLeadingH1(page.body);
    const rewritten = rewriteTargets(body, (target) => {
      if (!/^https?:/i.test(target)) return target;
      const hash = new URL(target).hash.slice(1);
      const id = ids.get(pageKey(target));
      return id ? (hash ? `page:${id}#${hash}` : `page:${id}`) : target;
    }) as NodeJSON;
    planned.push({
      id: ids.get(u) as string,
      parentId: u === startKey ? null : parentOf(u, ids, startKey),
      title: page.title,
      type: 'document',
      body: rewritten,
    });
  }
  // Parents first: a page's parent URL is a prefix of its own, so sorting by depth of the tree is enough.
  const order = new Map<string, number>();
  const depthOf = (p: PlannedPage): number => {
    const cached = order.get(p.id);
    if (cached !== undefined) return cached;
    const parent = p.parentId ? planned.find((q) => q.id === p.parentId) : undefined;
    const d = parent ? depthOf(parent) + 1 : 0;
    order.set(p.id, d);
    return d;
  };
  const sorted = planned
    .map((p, i) => ({ p, i, d: depthOf(p) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .map((x) => x.p);
  return { pages: sorted, files: [], totalResources: seen.size, importedResources: pages.size };
}

/** The crawled page whose URL path is the closest folder above this one; the first page otherwise. */
function parentOf(url: string, ids: Map<string, string>, startKey: string): string | null {
  const u = new URL(url);
  const segments = u.pathname.replace(/\/+$/, '').split('/');
  for (let n = segments.length - 1; n > 0; n--) {
    const prefix = segments.slice(0, n).join('/') || '/';
    for (const candidate of prefix === '/' ? ['/'] : [prefix, `${prefix}/`]) {
      const c = new URL(candidate, u.origin).toString();
      if (c !== url && ids.has(c) && c !== startKey) return ids.get(c) as string;
    }
  }
  return ids.get(startKey) ?? null;
}
