import { type PageTreeNode, buildTreeIndex, flattenPageTree, treeFromIndex } from '@quire/shared/content/tree';
import type { Materialized, PageEntry } from './materialize';

export type EntryTreeNode = Omit<PageTreeNode, 'children'> & PageEntry & { children: EntryTreeNode[] };

const trees = new WeakMap<Materialized, EntryTreeNode[]>();
const paths = new WeakMap<Materialized, Map<string, string>>();

/**
 * The page tree of a revision's content, as the content model lays it out (missing
 * parents at the root, cycles cut, slugs unique among siblings). Memoized per content
 * object, which revisions share through their cache.
 */
export function pageTreeOf(content: Materialized): EntryTreeNode[] {
  let tree = trees.get(content);
  if (!tree) {
    const index = buildTreeIndex(new Map(Object.entries(content.pages)));
    tree = treeFromIndex(index) as EntryTreeNode[];
    trees.set(content, tree);
  }
  return tree;
}

/** Path of every page (`getting-started/install`). */
export function pagePaths(content: Materialized): Map<string, string> {
  let out = paths.get(content);
  if (!out) {
    out = new Map(flattenPageTree(pageTreeOf(content)).map((n) => [n.id, n.path]));
    paths.set(content, out);
  }
  return out;
}

/** Every page of the tree, parents first, in sibling order. */
export function flatPages(content: Materialized): EntryTreeNode[] {
  return flattenPageTree(pageTreeOf(content)) as EntryTreeNode[];
}

/** Gives `next` the paths of `prev` (when no page moved between them), so they are not computed again. */
export function reusePaths(prev: Materialized, next: Materialized): Map<string, string> {
  const out = pagePaths(prev);
  paths.set(next, out);
  return out;
}
