import * as Y from 'yjs';
import { isRecord } from './json';
import { PageKey, findPageMap, reusableContentsMap } from './layout';

/** The branch's top-level map of what the last git import read besides pages (`summary`). */
export const GIT_MAP = 'git';

/**
 * A page as the last git import read it: the hash of its export rendering then, and the
 * place it had (parent and slug). An export that renders the same hash for a page still in
 * that place writes the file it read, byte for byte, instead of its own rendering.
 */
export interface PageGitBaseline {
  rendered: string;
  parent: string | null;
  slug: string;
  /** Front matter keys in the file's order, which an edited page keeps. */
  frontMatter?: string[];
}

/** A file of the folder itself (the summary), as the last import read it. */
export interface GitFileBaseline {
  oid: string;
  path: string;
  rendered: string;
}

export function readPageGitBaseline(doc: Y.Doc, pageId: string): PageGitBaseline | null {
  const value = findPageMap(doc, pageId)?.get(PageKey.gitBaseline);
  if (!isRecord(value)) return null;
  const { rendered, parent, slug, frontMatter } = value;
  if (typeof rendered !== 'string' || typeof slug !== 'string' || (parent !== null && typeof parent !== 'string')) return null;
  const keys = Array.isArray(frontMatter) ? frontMatter.filter((k): k is string => typeof k === 'string') : [];
  return { rendered, parent, slug, ...(keys.length ? { frontMatter: keys } : {}) };
}

export function setPageGitBaseline(doc: Y.Doc, pageId: string, baseline: PageGitBaseline): void {
  findPageMap(doc, pageId)?.set(PageKey.gitBaseline, { ...baseline });
}

export function readSummaryBaseline(doc: Y.Doc): GitFileBaseline | null {
  // read without defining the map on a document that has none
  if (!doc.share.has(GIT_MAP)) return null;
  const value = doc.getMap(GIT_MAP).get('summary');
  if (!isRecord(value)) return null;
  const { oid, path, rendered } = value;
  return typeof oid === 'string' && typeof path === 'string' && typeof rendered === 'string' ? { oid, path, rendered } : null;
}

/** null: the branch has no summary of its own any more (an import without one). */
export function setSummaryBaseline(doc: Y.Doc, baseline: GitFileBaseline | null): void {
  if (!baseline && !doc.share.has(GIT_MAP)) return;
  const map = doc.getMap(GIT_MAP);
  if (baseline) map.set('summary', { ...baseline });
  else map.delete('summary');
}

/** Where a reusable content came from (an included file) and how it rendered then. */
export function readReusableContentGit(doc: Y.Doc, id: string): GitFileBaseline | null {
  const map = reusableContentsMap(doc).get(id);
  const value = map instanceof Y.Map ? map.get('git') : undefined;
  if (!isRecord(value)) return null;
  const { oid, path, rendered } = value;
  return typeof oid === 'string' && typeof path === 'string' ? { oid, path, rendered: typeof rendered === 'string' ? rendered : '' } : null;
}

export function setReusableContentGit(doc: Y.Doc, id: string, baseline: GitFileBaseline): void {
  const map = reusableContentsMap(doc).get(id);
  if (map instanceof Y.Map) map.set('git', { ...baseline });
}
