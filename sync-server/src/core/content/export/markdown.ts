import { posix } from 'node:path';
import {
  type FileInfo,
  type PageTreeNode,
  type TargetKind,
  getPageMarkdown,
  listFiles,
  listReusableContents,
  pageTree,
  parseTarget,
  slugify,
} from '@quire/shared/content/index';
import { escapeDestination, escapeText } from '@quire/shared/content/markdown/escape';
import { formatFrontMatter } from '@quire/shared/content/markdown/frontMatter';
import { bodyToMarkdown } from '@quire/shared/content/markdown/serialize';
import { getReusableContentDocument } from '@quire/shared/content/reusableContents';
import type * as Y from 'yjs';

/** The files of an export, by path in the folder; sorted by path when packed. */
export type ExportFiles = Map<string, Uint8Array>;

const ASSETS = '.gitbook/assets';
const INCLUDES = '.gitbook/includes';
const encoder = new TextEncoder();

/**
 * A branch as the folder the markdown import reads, in the git sync layout: `SUMMARY.md`,
 * one `.md` file per page at its slug path (`README.md` for a page with children),
 * files under `.gitbook/assets/`, reusable content under `.gitbook/includes/`. Links,
 * images, files and includes become relative paths; front matter and block tags are
 * written as the import reads them, so exporting what an export imported gives the same files.
 */
export async function exportBranchAsMarkdown(
  doc: Y.Doc,
  readFile: (file: FileInfo) => Promise<Uint8Array | undefined>,
): Promise<ExportFiles> {
  const out: ExportFiles = new Map();
  const tree = pageTree(doc);
  const pageFiles = new Map<string, string>();
  const folders = new Map<string, string>();
  const place = (nodes: PageTreeNode[], folder: string) => {
    for (const node of nodes) {
      const own = posix.join(folder, node.slug);
      folders.set(node.id, own);
      if (node.type === 'document') pageFiles.set(node.id, node.children.length > 0 ? `${own}/README.md` : `${own}.md`);
      place(node.children, own);
    }
  };
  place(tree, '');
  const home = homePage(tree);
  if (home && ![...pageFiles.values()].some((path) => path.toLowerCase() === 'readme.md')) pageFiles.set(home, 'README.md');

  const assetPaths = new Map<string, string>();
  const taken = new Set<string>();
  for (const file of listFiles(doc)) {
    const path = uniquePath(ASSETS, file.name || file.id, taken);
    assetPaths.set(file.id, path);
    const bytes = await readFile(file);
    if (bytes) out.set(path, bytes);
  }
  const includePaths = new Map<string, string>();
  for (const content of listReusableContents(doc)) {
    includePaths.set(content.id, uniquePath(INCLUDES, `${slugify(content.title) || slugify(content.id) || 'include'}.md`, taken));
  }

  const resolverFrom = (fromFile: string) => {
    const dir = posix.dirname(fromFile);
    const relative = (path: string) => pathTarget(posix.relative(dir, path));
    return (target: string, kind: TargetKind): string => {
      if (kind === 'reusableContent') {
        const id = /^reusable:(.+)$/.exec(target)?.[1];
        const path = id ? includePaths.get(id) : undefined;
        return path ? relative(path) : target;
      }
      const parsed = parseTarget(target);
      if (parsed.kind === 'page') {
        const path = pageFiles.get(parsed.pageId) ?? pageFiles.get(firstDocumentIn(tree, parsed.pageId) ?? '');
        if (!path) return target;
        return parsed.anchor ? `${relative(path)}#${parsed.anchor}` : relative(path);
      }
      if (parsed.kind === 'file') {
        const path = assetPaths.get(parsed.fileId);
        return path ? relative(path) : target;
      }
      return target;
    };
  };

  for (const [pageId, path] of pageFiles) {
    const node = findNode(tree, pageId) as PageTreeNode;
    const markdown = getPageMarkdown(doc, pageId, { frontMatter: true, resolveTarget: resolverFrom(path) });
    out.set(path, encoder.encode(withTitle(markdown, node.title)));
  }
  for (const [id, path] of includePaths) {
    const title = listReusableContents(doc).find((c) => c.id === id)?.title ?? '';
    const body = bodyToMarkdown(getReusableContentDocument(doc, id), { resolveTarget: resolverFrom(path) });
    out.set(path, encoder.encode(`${formatFrontMatter({ title })}\n${body}`));
  }
  out.set('SUMMARY.md', encoder.encode(summary(tree, pageFiles, resolverFrom('SUMMARY.md'))));
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `# Title` after the front matter: the import takes a page's title from SUMMARY and drops this heading. */
function withTitle(markdown: string, title: string): string {
  const heading = `# ${escapeText(title).replace(/#$/, '\\#')}`;
  const end = markdown.startsWith('---\n') ? markdown.indexOf('\n---\n', 3) + 5 : 0;
  const frontMatter = markdown.slice(0, end);
  const body = markdown.slice(end).replace(/^\n/, '');
  return `${frontMatter}${frontMatter ? '\n' : ''}${heading}\n${body ? `\n${body}` : ''}`;
}

/**
 * The table of contents: root groups as `## Title <a href="#slug" id="slug"></a>`
 * headings, pages as nested list items, link pages as items linking out, and `***` where
 * root pages follow a group (else they would read as part of it).
 */
function summary(tree: PageTreeNode[], pageFiles: Map<string, string>, resolve: (target: string, kind: TargetKind) => string): string {
  const lines = ['# Table of contents', ''];
  let inGroup = false;
  const item = (node: PageTreeNode, depth: number) => {
    const indent = '  '.repeat(depth);
    const title = escapeText(node.title);
    const path = node.type === 'document' ? pageFiles.get(node.id) : node.type === 'link' ? resolve(node.href ?? '', 'link') : undefined;
    lines.push(path ? `${indent}* [${title}](${escapeDestination(path)})` : `${indent}* ${title || '\u200b'}`);
    for (const child of node.children) item(child, depth + 1);
  };
  for (const node of tree) {
    if (node.type === 'group') {
      if (lines[lines.length - 1] !== '') lines.push('');
      lines.push(`## ${escapeText(node.title)} <a href="#${node.slug}" id="${node.slug}"></a>`, '');
      for (const child of node.children) item(child, 0);
      inGroup = true;
      continue;
    }
    if (inGroup) {
      lines.push('', '***', '');
      inGroup = false;
    }
    item(node, 0);
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
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

function findNode(nodes: PageTreeNode[], id: string): PageTreeNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/** A link to a group opens its first page. */
function firstDocumentIn(tree: PageTreeNode[], id: string): string | undefined {
  const node = findNode(tree, id);
  const first = (nodes: PageTreeNode[]): string | undefined => {
    for (const n of nodes) {
      if (n.type === 'document') return n.id;
      const inner = first(n.children);
      if (inner) return inner;
    }
    return undefined;
  };
  return node ? first(node.children) : undefined;
}

/**
 * A path as a link target: written as it is (spaces and parentheses included, as git sync
 * writes them) except `%`, `#` and `?`, which would read as an escape, an anchor or a query.
 */
function pathTarget(path: string): string {
  return path.replace(/[%#?]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
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
