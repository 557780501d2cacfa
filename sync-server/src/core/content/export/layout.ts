import { posix } from 'node:path';
import {
  type PageTreeNode,
  listFiles,
  listReusableContents,
  readPageGitBaseline,
  readReusableContentGit,
  slugify,
} from '@quire/shared/content/index';
import type * as Y from 'yjs';

const ASSETS = '.gitbook/assets';
const INCLUDES = '.gitbook/includes';
const MARKDOWN = /\.(md|markdown)$/i;
const README = /(^|\/)readme\.md$/i;

/** Where each page, file and reusable content of a branch is written in the folder. */
export interface FolderLayout {
  pageFiles: Map<string, string>;
  assetPaths: Map<string, string>;
  includePaths: Map<string, string>;
}

/**
 * The folder's paths. A page imported from a repository keeps its file while it stays
 * where the import put it (same parent, same slug); a new page, or one moved or renamed
 * since, goes to its slug path under its parent's folder (`README.md` when it has
 * children), so a move is a rename in git. Files keep the path they came from too.
 */
export function folderLayout(doc: Y.Doc, tree: PageTreeNode[]): FolderLayout {
  const taken = new Set<string>();
  const pageFiles = new Map<string, string>();
  const take = (path: string) => taken.add(path.toLowerCase());

  const keep = (nodes: PageTreeNode[], parent: string | null) => {
    for (const node of nodes) {
      const path = node.git?.path;
      if (node.type === 'document' && path && MARKDOWN.test(path) && !taken.has(path.toLowerCase()) && stayed(doc, node, parent)) {
        pageFiles.set(node.id, path);
        take(path);
      }
      keep(node.children, node.id);
    }
  };
  keep(tree, null);

  const home = homePage(tree);
  const place = (nodes: PageTreeNode[], folder: string) => {
    for (const node of nodes) {
      let kept = pageFiles.get(node.id);
      if (!kept && node.type === 'document') {
        const own = posix.join(folder, node.slug);
        const wanted = node.id === home && !taken.has('readme.md') ? 'README.md' : node.children.length ? `${own}/README.md` : `${own}.md`;
        kept = uniqueFile(wanted, taken);
        pageFiles.set(node.id, kept);
      }
      place(node.children, kept ? childFolder(kept) : groupFolder(node, folder, pageFiles));
    }
  };
  place(tree, '');

  const assetPaths = new Map<string, string>();
  const files = listFiles(doc);
  for (const file of files) {
    const path = file.git?.path;
    if (path && !taken.has(path.toLowerCase()) && !path.startsWith('../')) {
      assetPaths.set(file.id, path);
      take(path);
    }
  }
  for (const file of files) if (!assetPaths.has(file.id)) assetPaths.set(file.id, uniquePath(ASSETS, file.name || file.id, taken));

  const includePaths = new Map<string, string>();
  const contents = listReusableContents(doc);
  for (const content of contents) {
    const path = readReusableContentGit(doc, content.id)?.path;
    if (path && MARKDOWN.test(path) && !taken.has(path.toLowerCase()) && !path.startsWith('../')) {
      includePaths.set(content.id, path);
      take(path);
    }
  }
  for (const content of contents) {
    if (includePaths.has(content.id)) continue;
    includePaths.set(content.id, uniquePath(INCLUDES, `${slugify(content.title) || slugify(content.id) || 'include'}.md`, taken));
  }
  return { pageFiles, assetPaths, includePaths };
}

/** A page still where the import read it: without a baseline (an archive import) its path is kept as is. */
function stayed(doc: Y.Doc, node: PageTreeNode, parent: string | null): boolean {
  const baseline = readPageGitBaseline(doc, node.id);
  return !baseline || (baseline.parent === parent && baseline.slug === node.slug);
}

/** The folder a page's children go to: `a/README.md` → `a`, `a/b.md` → `a/b`. */
function childFolder(file: string): string {
  if (README.test(file)) return posix.dirname(file) === '.' ? '' : posix.dirname(file);
  return file.replace(MARKDOWN, '');
}

/** A group has no file: its folder is the one its imported pages share, else its slug under its parent's. */
function groupFolder(node: PageTreeNode, folder: string, pageFiles: Map<string, string>): string {
  const dirs = node.children
    .map((child) => pageFiles.get(child.id))
    .filter((p): p is string => !!p)
    .map((p) => (README.test(p) ? posix.dirname(posix.dirname(p)) : posix.dirname(p)));
  const shared = dirs.length && dirs.every((d) => d === dirs[0]) ? (dirs[0] as string) : undefined;
  if (shared !== undefined) return shared === '.' ? '' : shared;
  return posix.join(folder, node.slug);
}

/**
 * The page git sync writes as the root `README.md`: the first page, at the root or first in
 * a group, when it has no children and its slug is the one the import gives the root
 * README (from its title), so the round trip keeps it.
 */
function homePage(tree: PageTreeNode[]): string | undefined {
  for (const node of tree) {
    const first = node.type === 'group' ? node.children.find((child) => child.type === 'document') : node;
    if (!first) continue;
    if (first.type !== 'document') return undefined;
    return first.children.length === 0 && first.slug === slugify(first.title) ? first.id : undefined;
  }
  return undefined;
}

/** `a/b.md`, or `a/b-2.md`… when another page has that file already. */
function uniqueFile(path: string, taken: Set<string>): string {
  let out = path;
  for (let n = 2; taken.has(out.toLowerCase()); n++) {
    out = README.test(path) ? path.replace(/(\/?)(readme\.md)$/i, `-${n}$1$2`) : path.replace(MARKDOWN, `-${n}$&`);
  }
  taken.add(out.toLowerCase());
  return out;
}

/**
 * `folder/name`, or `folder/name (1).ext`… when a file of that name is already there. Names
 * come from the document, which any editor writes: one that would be a folder (`/`, `\`), a
 * step up (`..`) or a control character is made a plain file name.
 */
function uniquePath(folder: string, name: string, taken: Set<string>): string {
  const plain = name.replace(/[/\\\u0000-\u001f\u007f]/g, '_');
  const safe = /^\.*$/.test(plain) ? 'file' : plain;
  const dot = safe.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ''];
  let path = `${folder}/${safe}`;
  for (let n = 1; taken.has(path.toLowerCase()); n++) path = `${folder}/${stem} (${n})${ext}`;
  taken.add(path.toLowerCase());
  return path;
}
