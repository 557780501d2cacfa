import type { PageTreeNode } from '@quire/shared/content/tree';
import Fuse, { type Expression } from 'fuse.js';

const LIMIT = 50;

/**
 * How close a fuzzy hit must be (Fuse's 0 = exact … 1 = anything): 0.4 lets a long word
 * through with a letter wrong or missing ("authentcation") and keeps unrelated titles
 * out; 0.5 already let "nope" find "Tokens".
 */
const THRESHOLD = 0.4;

/** One Fuse index per page list: the list is a new array whenever the tree changes. */
const indexes = new WeakMap<PageTreeNode[], Fuse<PageTreeNode>>();

function indexOf(pages: PageTreeNode[]): Fuse<PageTreeNode> {
  let fuse = indexes.get(pages);
  if (!fuse) {
    fuse = new Fuse(pages, {
      keys: [
        { name: 'title', weight: 2 },
        { name: 'path', weight: 1 },
      ],
      threshold: THRESHOLD,
      ignoreLocation: true,
      includeScore: true,
    });
    indexes.set(pages, fuse);
  }
  return fuse;
}

/**
 * The word as typed and with each pair of neighbouring letters swapped ("atuh" → "auth"):
 * Fuse counts a swap as two errors, too many for a short word at a threshold that keeps
 * noise out, while a writer's fingers swap letters more than anything.
 */
function spellings(word: string): string[] {
  const out = [word];
  if (word.length < 4 || word.length > 12) return out;
  for (let i = 0; i + 1 < word.length; i++) {
    if (word[i] !== word[i + 1]) out.push(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
  return out;
}

/** Exact title, then titles starting with the query, then titles holding it, then title or path holding every word. */
function tierOf(page: PageTreeNode, q: string, words: string[]): number | null {
  const title = page.title.toLowerCase();
  if (title === q) return 0;
  if (title.startsWith(q)) return 1;
  if (title.includes(q)) return 2;
  const hay = `${title} ${page.path.toLowerCase()}`;
  return words.every((w) => hay.includes(w)) ? 3 : null;
}

/**
 * Pages for what the writer typed in the page switcher, the link control and `[[`: pages
 * holding the words as typed come first (exact title, title prefix, title, then path, each
 * in tree order), then pages matching every word with a typo or a letter skipped, closest
 * first.
 */
export function matchPages(pages: PageTreeNode[], query: string, limit = LIMIT): PageTreeNode[] {
  const q = query.trim().toLowerCase();
  if (!q) return pages.slice(0, limit);
  const words = q.split(/\s+/);
  const tiers: PageTreeNode[][] = [[], [], [], []];
  for (const page of pages) {
    const tier = tierOf(page, q, words);
    if (tier !== null) tiers[tier]?.push(page);
  }
  const exact = tiers.flat();
  if (exact.length >= limit) return exact.slice(0, limit);
  const seen = new Set(exact.map((p) => p.id));
  const either = (w: string): Expression => ({ $or: spellings(w).flatMap((v): Expression[] => [{ title: v }, { path: v }]) });
  const query$: Expression = { $and: words.map(either) };
  const fuzzy = indexOf(pages)
    .search(query$)
    .filter((hit) => !seen.has(hit.item.id))
    .map((hit) => hit.item);
  return [...exact, ...fuzzy].slice(0, limit);
}
