import { type PageTreeNode, movePage, pageTree } from '@quire/shared/content/index';
import type * as Y from 'yjs';
import type { PlannedPage } from '../content/import/plan';

/**
 * Places the pages of `doc` as the commit's table of contents has them: a page git's
 * summary lists under another parent, or in another order among its siblings, is moved
 * (the same page, its id kept, as a move in Quire would), and only those: the longest run
 * of siblings already in the summary's order stays put, so a page moved in git is the only
 * one moved in Quire, and a page only Quire has stays where it is.
 *
 * `ids` maps the plan's pages to the pages of `doc` they are (matched by their file, a
 * group by its title); pages the plan holds that `doc` does not are left out.
 */
export function applySummaryOrder(doc: Y.Doc, pages: PlannedPage[], ids: Map<string, string>): number {
  const parentOf = new Map<string, string | null>();
  const childrenOf = new Map<string | null, string[]>();
  const walk = (nodes: PageTreeNode[], parent: string | null) => {
    childrenOf.set(
      parent,
      nodes.map((n) => n.id),
    );
    for (const n of nodes) {
      parentOf.set(n.id, parent);
      walk(n.children, n.id);
    }
  };
  walk(pageTree(doc), null);

  // The summary's children of each parent, as pages of `doc`, in the summary's order.
  const wanted = new Map<string | null, string[]>();
  for (const p of pages) {
    const id = ids.get(p.id);
    if (!id || !parentOf.has(id)) continue;
    const parent = p.parentId === null ? null : (ids.get(p.parentId) ?? undefined);
    if (parent === undefined || (parent !== null && !parentOf.has(parent))) continue;
    const list = wanted.get(parent) ?? [];
    list.push(id);
    wanted.set(parent, list);
  }

  let moved = 0;
  for (const [parent, order] of wanted) {
    const rank = new Map(order.map((id, i) => [id, i]));
    // Where the wanted pages already under this parent sit, by their rank in the summary.
    const present = (childrenOf.get(parent) ?? []).filter((id) => rank.has(id));
    const stay = new Set(longestIncreasing(present, (id) => rank.get(id) as number));
    order.forEach((id, i) => {
      if (stay.has(id) && parentOf.get(id) === parent) return;
      const after = i > 0 ? order[i - 1] : undefined;
      const first = after ? undefined : childrenNow(doc, parent).find((c) => c !== id);
      try {
        movePage(doc, id, after ? { parent, after } : first ? { parent, before: first } : { parent });
        moved++;
      } catch {
        // A page the summary puts under one of its own descendants stays where it is.
      }
    });
  }
  return moved;
}

function childrenNow(doc: Y.Doc, parent: string | null): string[] {
  if (parent === null) return pageTree(doc).map((n) => n.id);
  const find = (nodes: PageTreeNode[]): PageTreeNode | undefined => {
    for (const n of nodes) {
      const hit = n.id === parent ? n : find(n.children);
      if (hit) return hit;
    }
    return undefined;
  };
  return find(pageTree(doc))?.children.map((n) => n.id) ?? [];
}

/** The longest subsequence of `items` whose keys increase (patience sorting). */
function longestIncreasing<T>(items: T[], key: (item: T) => number): T[] {
  const tails: number[] = [];
  const previous: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const k = key(items[i] as T);
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (key(items[tails[mid] as number] as T) < k) lo = mid + 1;
      else hi = mid;
    }
    previous[i] = lo > 0 ? (tails[lo - 1] as number) : -1;
    tails[lo] = i;
  }
  const out: T[] = [];
  for (let i = tails.length ? (tails[tails.length - 1] as number) : -1; i >= 0; i = previous[i] as number) out.unshift(items[i] as T);
  return out;
}
