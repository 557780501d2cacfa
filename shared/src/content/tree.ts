import * as Y from 'yjs';
import { pagesMap } from './layout';
import { type Page, readPage } from './pageRecord';
import { pageSlug, uniqueSlug } from './slugs';

/** A page as the tree shows it. */
export interface PageTreeNode extends Page {
  /** Slug made unique among the page's siblings (in sibling order), so every path is distinct. */
  slug: string;
  /** Slugs from the root down to this page, joined with `/`. */
  path: string;
  children: PageTreeNode[];
}

/**
 * Where each page sits once missing parents and cycles are resolved. Every replica
 * computes the same index from the same state, whatever order updates arrived in.
 */
export interface TreeIndex {
  pages: Map<string, Page>;
  /** Effective parent: null at the root. */
  parentOf: Map<string, string | null>;
  /** Children of a page (null: the root), sorted by order key, then id. */
  childrenOf: Map<string | null, Page[]>;
}

export function readAllPages(doc: Y.Doc): Map<string, Page> {
  const pages = new Map<string, Page>();
  pagesMap(doc).forEach((value, id) => {
    if (value instanceof Y.Map) pages.set(id, readPage(id, value));
  });
  return pages;
}

/**
 * Builds the tree from parent pointers. A page whose parent is missing is shown at the
 * root. Two concurrent moves can make a cycle (A under B on one replica, B under A on
 * another); the cycle is cut at its smallest page id, which goes to the root, so each
 * page still appears exactly once and every replica cuts it at the same place.
 */
export function buildTreeIndex(pages: Map<string, Page>): TreeIndex {
  const parentOf = new Map<string, string | null>();
  for (const page of pages.values()) {
    parentOf.set(page.id, page.parent !== null && page.parent !== page.id && pages.has(page.parent) ? page.parent : null);
  }
  breakCycles(parentOf);
  const childrenOf = new Map<string | null, Page[]>();
  for (const page of pages.values()) {
    const parent = parentOf.get(page.id) ?? null;
    const siblings = childrenOf.get(parent);
    if (siblings) siblings.push(page);
    else childrenOf.set(parent, [page]);
  }
  for (const siblings of childrenOf.values()) siblings.sort(compareSiblings);
  return { pages, parentOf, childrenOf };
}

/** Sibling order: order key (plain code-unit comparison, as fractional keys require), then id. */
export function compareSiblings(a: Page, b: Page): number {
  if (a.order !== b.order) return a.order < b.order ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function breakCycles(parentOf: Map<string, string | null>): void {
  const state = new Map<string, 'visiting' | 'done'>();
  const ids = [...parentOf.keys()].sort();
  for (const start of ids) {
    const path: string[] = [];
    let current: string | null = start;
    while (current !== null && !state.has(current)) {
      state.set(current, 'visiting');
      path.push(current);
      current = parentOf.get(current) ?? null;
    }
    if (current !== null && state.get(current) === 'visiting') {
      const cycle = path.slice(path.indexOf(current));
      const cut = [...cycle].sort()[0] as string;
      parentOf.set(cut, null);
    }
    for (const id of path) state.set(id, 'done');
  }
}

export function treeIndex(doc: Y.Doc): TreeIndex {
  return buildTreeIndex(readAllPages(doc));
}

/** Pages nested as readers see them: siblings in order, each page exactly once. */
export function pageTree(doc: Y.Doc): PageTreeNode[] {
  return treeFromIndex(treeIndex(doc));
}

export function treeFromIndex(index: TreeIndex): PageTreeNode[] {
  const build = (parent: string | null, parentPath: string): PageTreeNode[] => {
    const taken = new Set<string>();
    return (index.childrenOf.get(parent) ?? []).map((page) => {
      // Read again: pages of a revision stored before slugs were read through `pageSlug` may hold any text.
      const slug = uniqueSlug(pageSlug(page.slug, page.title), taken);
      taken.add(slug);
      const path = parentPath ? `${parentPath}/${slug}` : slug;
      return { ...page, slug, path, children: build(page.id, path) };
    });
  };
  return build(null, '');
}

/** Every node of a tree, parents before children, in sibling order. */
export function flattenPageTree(tree: readonly PageTreeNode[]): PageTreeNode[] {
  const out: PageTreeNode[] = [];
  const walk = (nodes: readonly PageTreeNode[]): void => {
    for (const node of nodes) {
      out.push(node);
      walk(node.children);
    }
  };
  walk(tree);
  return out;
}

/** The page's path (`getting-started/install`), or null for an unknown id. */
export function pagePath(doc: Y.Doc, pageId: string): string | null {
  return flattenPageTree(pageTree(doc)).find((node) => node.id === pageId)?.path ?? null;
}

/** The page at a path, as published sites and `.md` URLs look pages up. */
export function findPageByPath(doc: Y.Doc, path: string): PageTreeNode | null {
  const wanted = path.replace(/^\/+|\/+$/g, '');
  return flattenPageTree(pageTree(doc)).find((node) => node.path === wanted) ?? null;
}

/** Every page, parents before children, in sibling order. */
export function pagesInTreeOrder(index: TreeIndex): Page[] {
  const out: Page[] = [];
  const walk = (parent: string | null): void => {
    for (const page of index.childrenOf.get(parent) ?? []) {
      out.push(page);
      walk(page.id);
    }
  };
  walk(null);
  return out;
}

/** The page and everything the tree shows under it. */
export function subtreeIds(index: TreeIndex, pageId: string): string[] {
  const out: string[] = [];
  const walk = (id: string): void => {
    out.push(id);
    for (const child of index.childrenOf.get(id) ?? []) walk(child.id);
  };
  walk(pageId);
  return out;
}
