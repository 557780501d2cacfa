import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import {
  type FileInfo,
  type PageTreeNode,
  type TargetKind,
  getPage,
  getPageMarkdown,
  listFiles,
  listReusableContents,
  pageTree,
  parseTarget,
  readPageGitBaseline,
  readReusableContentGit,
  readSummaryBaseline,
} from '@quire/shared/content/index';
import { escapeDestination, escapeText } from '@quire/shared/content/markdown/escape';
import { formatFrontMatter } from '@quire/shared/content/markdown/frontMatter';
import { bodyToMarkdown } from '@quire/shared/content/markdown/serialize';
import { getReusableContentDocument } from '@quire/shared/content/reusableContents';
import type * as Y from 'yjs';
import { type FolderLayout, folderLayout } from './layout';

/** The files of an export, by path in the folder; sorted by path when packed. */
export type ExportFiles = Map<string, Uint8Array>;

const encoder = new TextEncoder();

/** A branch's markdown as the export writes it, before files it read from a repository are put back. */
export interface RenderedFolder {
  layout: FolderLayout;
  /** Document pages: their file and the markdown written for them. */
  pages: Map<string, { path: string; text: string }>;
  includes: Map<string, string>;
  summary: string;
}

/** What an export compares with a page's baseline: the hash of the markdown it writes for it. */
export function renderHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Every page, include and the summary of a branch as markdown, links written as relative paths. */
export function renderFolder(doc: Y.Doc): RenderedFolder {
  const tree = pageTree(doc);
  const layout = folderLayout(doc, tree);
  const { pageFiles, assetPaths, includePaths } = layout;

  const resolverFrom = (fromFile: string) => {
    const dir = posix.dirname(fromFile);
    const relative = (path: string) => pathTarget(posix.relative(dir, path));
    // a folder's README is linked as its folder, as git sync writes it (`installation/`)
    const toPage = (path: string) => {
      const rel = posix.relative(dir, path);
      const folder = posix.dirname(rel);
      return /(^|\/)README\.md$/.test(rel) && folder !== '.' && posix.dirname(path) !== '.' ? pathTarget(`${folder}/`) : pathTarget(rel);
    };
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
        const written = fromFile === 'SUMMARY.md' ? relative(path) : toPage(path);
        return parsed.anchor ? `${written}#${parsed.anchor}` : written;
      }
      if (parsed.kind === 'file') {
        const path = assetPaths.get(parsed.fileId);
        return path ? relative(path) : target;
      }
      return target;
    };
  };

  const pages = new Map<string, { path: string; text: string }>();
  for (const [pageId, path] of pageFiles) {
    const node = findNode(tree, pageId) as PageTreeNode;
    const markdown = getPageMarkdown(doc, pageId, {
      frontMatter: true,
      frontMatterOrder: readPageGitBaseline(doc, pageId)?.frontMatter,
      figures: true,
      resolveTarget: resolverFrom(path),
    });
    pages.set(pageId, { path, text: withTitle(markdown, node.title) });
  }
  const includes = new Map<string, string>();
  for (const [id, path] of includePaths) {
    const title = listReusableContents(doc).find((c) => c.id === id)?.title ?? '';
    const body = bodyToMarkdown(getReusableContentDocument(doc, id), { resolveTarget: resolverFrom(path), figures: true });
    includes.set(path, `${formatFrontMatter({ title })}\n${body}`);
  }
  return { layout, pages, includes, summary: summary(tree, pageFiles, resolverFrom('SUMMARY.md')) };
}

/**
 * A branch as the folder the markdown import reads, in the git sync layout: `SUMMARY.md`,
 * one `.md` file per page (where it was imported from, else at its slug path, `README.md`
 * for a page with children), files under `.gitbook/assets/`, reusable content under
 * `.gitbook/includes/`. Links, images, files and includes become relative paths; front
 * matter and block tags are written as the import reads them. A page (or the summary) whose
 * rendering is the one recorded when it was imported is written as the file it was read
 * from (`readSources`, by git blob id), so what nobody changed comes back byte for byte.
 */
export async function exportBranchAsMarkdown(
  doc: Y.Doc,
  readFile: (file: FileInfo) => Promise<Uint8Array | undefined>,
  readSources: (oids: string[]) => Promise<Map<string, Uint8Array>> = async () => new Map(),
): Promise<ExportFiles> {
  const out: ExportFiles = new Map();
  const rendered = renderFolder(doc);
  for (const file of listFiles(doc)) {
    const bytes = await readFile(file);
    if (bytes) out.set(rendered.layout.assetPaths.get(file.id) as string, bytes);
  }
  // what each file is written from: the bytes the import read (by blob id) when untouched, else the rendering
  const written: { path: string; text: string; oid?: string }[] = [];
  for (const [id, path] of rendered.layout.includePaths) {
    const text = rendered.includes.get(path) as string;
    const git = readReusableContentGit(doc, id);
    const untouched = git && git.path === path && git.rendered === renderHash(text);
    written.push({ path, text, ...(untouched ? { oid: git.oid } : {}) });
  }
  for (const [pageId, { path, text }] of rendered.pages) {
    const git = getPage(doc, pageId)?.git;
    const untouched = git && git.path === path && readPageGitBaseline(doc, pageId)?.rendered === renderHash(text);
    written.push({ path, text, ...(untouched ? { oid: git.oid } : {}) });
  }
  const summary = readSummaryBaseline(doc);
  const summaryUntouched = summary?.rendered === renderHash(rendered.summary);
  written.push({ path: 'SUMMARY.md', text: rendered.summary, ...(summary && summaryUntouched ? { oid: summary.oid } : {}) });

  const sources = await readSources([...new Set(written.flatMap((w) => (w.oid ? [w.oid] : [])))]);
  for (const w of written) out.set(w.path, (w.oid ? sources.get(w.oid) : undefined) ?? encoder.encode(w.text));
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
