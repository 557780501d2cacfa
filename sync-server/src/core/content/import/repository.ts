import { posix } from 'node:path';
import { newId } from '@quire/shared';
import {
  type JsonValue,
  type NodeJSON,
  extractLinks,
  fileTarget,
  markdownToBody,
  pageTarget,
  parseTarget,
  rewriteTargets,
} from '@quire/shared/content/index';
import type { ContentConfig } from '../config';
import {
  type ImportPlan,
  type PlannedFile,
  type PlannedPage,
  type PlannedReusableContent,
  type UnmappedItem,
  contentTypeFor,
  gitSource,
  imageDimensions,
  withoutLeadingH1,
} from './plan';
import type { TocEntry } from './summary';

/** Where the markdown files and assets of an import are read from: an archive, or URLs next to the first one. */
export interface Source {
  read(path: string): Promise<Uint8Array | undefined>;
}

const README = /^readme\.md$/i;
const MARKDOWN = /\.(md|markdown)$/i;
const HAS_EXTENSION = /\.[A-Za-z0-9]+$/;

interface PlannedEntry {
  entry: TocEntry;
  page: PlannedPage;
  /** Normalized path of the page's markdown file. */
  file?: string;
  /** A SUMMARY entry pointing into a page listed elsewhere (`settings.md#billing`): a link page to it. */
  linksTo?: { file: string; anchor: string | null };
}

/**
 * Plans the import of a folder in the git sync layout: the pages its table of contents
 * lists, each page's front matter and body, every file those bodies reference (markdown,
 * HTML attributes, `{% file %}`, covers), every included reusable content and the
 * `unreferenced` files (an archive's assets nobody links to are kept too). What could
 * not be mapped is listed in `unmapped` with its file and line, never silently dropped.
 * `rootDir`: the folder the table of contents' paths are relative to.
 */
export async function planRepository(
  source: Source,
  toc: TocEntry[],
  limits: ContentConfig,
  rootDir = '',
  /** Files to keep even when no page shows them (an archive's `.gitbook/assets/`). */
  unreferenced: string[] = [],
): Promise<ImportPlan> {
  const unmapped: UnmappedItem[] = [];
  const listed = new Set<string>();
  const collect = (entries: TocEntry[]) => {
    for (const entry of entries) {
      const resolved = entry.path ? resolvePath(rootDir, entry.path) : undefined;
      if (resolved && !resolved.anchor) listed.add(resolved.path);
      collect(entry.children);
    }
  };
  collect(toc);

  const planned: PlannedEntry[] = [];
  const pageByPath = new Map<string, string>();
  const walk = (entries: TocEntry[], parentId: string | null) => {
    for (const entry of entries) {
      if (planned.length >= limits.importMaxPages) {
        unmapped.push({ page: 'SUMMARY.md', line: entry.line ?? 0, source: entry.title, reason: 'over the page limit of an import' });
        return;
      }
      const id = newId();
      const resolved = entry.path ? resolvePath(rootDir, entry.path) : undefined;
      const claimed = resolved && (pageByPath.has(resolved.path) || (resolved.anchor !== null && listed.has(resolved.path)));
      if (resolved && claimed) {
        // a second entry for a page listed elsewhere is a link into it, never a second copy
        planned.push({
          entry,
          page: { id, parentId, title: entry.title, type: 'link' },
          linksTo: { file: resolved.path, anchor: resolved.anchor },
        });
        walk(entry.children, parentId);
        continue;
      }
      const file = resolved?.path;
      if (file) pageByPath.set(file, id);
      const slug = entry.kind === 'group' ? entry.slug : file ? fileSlug(file, rootDir) : undefined;
      planned.push({
        entry,
        file,
        page: {
          id,
          parentId,
          title: entry.title,
          type: entry.kind === 'page' ? 'document' : entry.kind,
          ...(slug ? { slug } : {}),
          ...(entry.href ? { href: entry.href } : {}),
        },
      });
      walk(entry.children, id);
    }
  };
  walk(toc, null);

  const assets = new AssetCollector(source, unmapped);
  const includes = new Map<string, PlannedReusableContent | null>();
  let total = planned.filter((p) => !p.linksTo).length;
  let missing = 0;
  const pageByLowerPath = new Map([...pageByPath].map(([p, id]) => [p.toLowerCase(), id]));
  // as written, a folder's README, a path without `.md`, then the same ignoring case (links written on macOS)
  const findPage = (path: string): string | undefined =>
    pageByPath.get(path) ??
    pageByPath.get(posix.join(path, 'README.md')) ??
    (HAS_EXTENSION.test(path) ? undefined : pageByPath.get(`${path}.md`)) ??
    pageByLowerPath.get(path.toLowerCase());

  /** Files, pages and reusable contents a body's relative targets name, as `file:` / `page:` / `reusable:` targets. */
  const resolveBody = async (body: NodeJSON, file: string, text: string): Promise<NodeJSON> => {
    const dir = folderOf(file);
    for (const link of extractLinks(body)) {
      const resolved = resolvePath(dir, link.target);
      if (!resolved) continue;
      if (link.kind === 'reusableContent') {
        total += includes.has(resolved.path) ? 0 : 1;
        await include(resolved.path, file, lineOf(text, link.target));
        continue;
      }
      if (findPage(resolved.path)) continue;
      const isAsset =
        link.kind === 'image' ||
        link.kind === 'file' ||
        ((link.kind === 'link' || link.kind === 'contentRef') && HAS_EXTENSION.test(resolved.path) && !MARKDOWN.test(resolved.path));
      if (isAsset) {
        if (!assets.has(resolved.path)) total++;
        await assets.collect(resolved, link.target, file, lineOf(text, link.target));
      } else if (link.kind === 'link' || link.kind === 'contentRef') {
        unmapped.push({
          page: file,
          line: lineOf(text, link.target),
          source: link.target,
          reason: 'links to a page this import does not hold; kept as written',
        });
      }
    }
    return rewriteTargets(body, (target, kind) => {
      const resolved = resolvePath(dir, target);
      if (!resolved) return target;
      if (kind === 'reusableContent') {
        const content = includes.get(resolved.path);
        return content ? `reusable:${content.id}` : target;
      }
      const pageId = findPage(resolved.path);
      if (pageId) return pageTarget(pageId, resolved.anchor);
      const asset = assets.get(resolved.path);
      return asset ? fileTarget(asset.id) : target;
    });
  };

  const include = async (path: string, from: string, line: number): Promise<void> => {
    if (includes.has(path)) return;
    includes.set(path, null);
    const bytes = await source.read(path);
    if (!bytes) {
      unmapped.push({ page: from, line, source: path, reason: 'the included file was not found; the include is kept as written' });
      return;
    }
    const text = utf8(bytes);
    const parsed = markdownToBody(text);
    for (const item of parsed.unmapped) unmapped.push({ page: path, ...item });
    const { body, h1 } = withoutLeadingH1(parsed.doc);
    const title = typeof parsed.frontMatter.title === 'string' ? parsed.frontMatter.title : h1 || prettify(posix.basename(path));
    const content: PlannedReusableContent = { id: newId(), title, body, git: gitSource(path, bytes), source: bytes };
    includes.set(path, content);
    // its own links resolve from its folder; an include inside an include is read the same way
    content.body = await resolveBody(parsed.frontMatter.title !== undefined ? parsed.doc : body, path, text);
  };

  for (const p of planned) {
    if (!p.file) continue;
    const bytes = await source.read(p.file);
    if (!bytes) {
      missing++;
      p.page.title ||= prettify(posix.basename(p.file));
      unmapped.push({ page: 'SUMMARY.md', line: p.entry.line ?? 0, source: p.entry.path ?? p.file, reason: 'the page file was not found' });
      continue;
    }
    p.page.git = gitSource(p.file, bytes);
    p.page.source = bytes;
    const text = utf8(bytes);
    const parsed = markdownToBody(text);
    for (const item of parsed.unmapped) unmapped.push({ page: p.file, ...item });
    const { body, h1 } = withoutLeadingH1(parsed.doc);
    p.page.title ||= h1 || prettify(posix.basename(p.file));
    p.page.frontMatterKeys = Object.keys(parsed.frontMatter);
    const { description, icon, emoji, layout, hidden, cover, coverY } = parsed.frontMatter;
    if (typeof description === 'string') p.page.description = description;
    if (typeof icon === 'string') p.page.icon = icon;
    if (typeof emoji === 'string') p.page.emoji = emoji;
    if (layout) p.page.layout = layout;
    if (hidden) p.page.hidden = true;
    if (cover === null) p.page.cover = null;
    else if (typeof cover === 'string') {
      const resolved = resolvePath(folderOf(p.file), cover);
      if (resolved) {
        if (!assets.has(resolved.path)) total++;
        await assets.collect(resolved, cover, p.file, lineOf(text, cover));
      }
      const asset = resolved ? assets.get(resolved.path) : undefined;
      const ref: { [key: string]: JsonValue } = asset ? { kind: 'file', file: asset.id } : { kind: 'url', url: cover };
      p.page.cover = { ref, yPos: typeof coverY === 'number' ? coverY : 0 };
    }
    p.page.body = await resolveBody(body, p.file, text);
  }
  for (const path of unreferenced) {
    if (assets.has(path)) continue;
    total++;
    await assets.collect({ path, raw: path, anchor: null }, path, path, 0);
  }
  for (const p of planned) {
    if (!p.linksTo) continue;
    const pageId = pageByPath.get(p.linksTo.file);
    p.page.href = pageId ? pageTarget(pageId, p.linksTo.anchor) : (p.entry.path ?? '');
  }

  const files = assets.planned();
  const reusableContents = [...includes.values()].filter((r): r is PlannedReusableContent => r !== null);
  const sources = [...planned.map((p) => p.page.git), ...files.map((f) => f.git), ...reusableContents.map((r) => r.git)].filter((g) => !!g);
  const gitRoot = commonFolder([rootDir, ...sources.map((g) => posix.dirname(g.path))]);
  for (const g of sources) g.path = gitRoot ? posix.relative(gitRoot, g.path) : g.path;
  return {
    pages: planned.map((p) => p.page),
    files,
    reusableContents,
    unmapped: reported(unmapped, rootDir),
    totalResources: total,
    importedResources: planned.filter((p) => !p.linksTo).length - missing + files.length + reusableContents.length,
  };
}

/** Each unmapped item once, its file given from the imported folder. */
function reported(items: UnmappedItem[], rootDir: string): UnmappedItem[] {
  const seen = new Set<string>();
  const out: UnmappedItem[] = [];
  for (const item of items) {
    const page = rootDir && item.page.startsWith(`${rootDir}/`) ? item.page.slice(rootDir.length + 1) : item.page;
    const key = `${page}\0${item.source}\0${item.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...item, page });
  }
  return out;
}

/** The files an import's pages reference, read once each by path. */
class AssetCollector {
  private readonly byPath = new Map<string, PlannedFile | null>();

  constructor(
    private readonly source: Source,
    private readonly unmapped: UnmappedItem[],
  ) {}

  has(path: string): boolean {
    return this.byPath.has(path);
  }

  get(path: string): PlannedFile | undefined {
    return this.byPath.get(path) ?? undefined;
  }

  /** `written`: the target as the page wrote it, for the report when the file is missing. */
  async collect(resolved: ResolvedPath, written: string, from: string, line: number): Promise<void> {
    if (this.byPath.has(resolved.path)) return;
    // as written first: a file may really be named `a%20b.png`
    const data =
      (await this.source.read(resolved.path)) ?? (resolved.raw !== resolved.path ? await this.source.read(resolved.raw) : undefined);
    if (!data) {
      this.byPath.set(resolved.path, null);
      this.unmapped.push({
        page: from,
        line,
        source: written,
        reason: 'the referenced file was not found; the reference is kept as written',
      });
      return;
    }
    const name = posix.basename(resolved.path);
    const dimensions = imageDimensions(data);
    this.byPath.set(resolved.path, {
      id: newId(),
      name,
      contentType: contentTypeFor(name),
      bytes: data,
      ...(dimensions ? { dimensions } : {}),
      git: gitSource(resolved.path, data),
    });
  }

  planned(): PlannedFile[] {
    return [...this.byPath.values()].filter((f): f is PlannedFile => !!f);
  }
}

/** A page's slug from its file: `guide/install.md` → `install`, `guide/README.md` → `guide`; none for the root README. */
function fileSlug(file: string, rootDir: string): string | undefined {
  const base = posix.basename(file).replace(MARKDOWN, '');
  if (!README.test(posix.basename(file))) return base;
  const dir = folderOf(file);
  return dir && dir !== rootDir ? posix.basename(dir) : undefined;
}

function folderOf(file: string): string {
  const dir = posix.dirname(file);
  return dir === '.' ? '' : dir;
}

/** The 1-based line where `target` is first written in `text` (as is, or percent-encoded); 0 when not found. */
function lineOf(text: string, target: string): number {
  let index = text.indexOf(target);
  if (index < 0) index = text.indexOf(encodeURI(target));
  if (index < 0) return 0;
  return text.slice(0, index).split('\n').length;
}

/**
 * The deepest folder holding all of `folders`: the root git paths are given from. It is
 * the imported folder, unless a page links to something beside it (then their common parent).
 */
function commonFolder(folders: string[]): string {
  const split = folders.map((f) => (f === '.' || f === '' ? [] : f.split('/')));
  const first = split[0] ?? [];
  let n = 0;
  while (n < first.length && split.every((s) => s[n] === first[n])) n++;
  return first.slice(0, n).join('/');
}

/** A relative target resolved from a folder: `path` percent-decoded, `raw` as written. */
export interface ResolvedPath {
  path: string;
  raw: string;
  anchor: string | null;
}

/** A relative target (`../a.md#x`, `images/b.png`) as a path from the folder root; undefined for URLs and page/file refs. */
export function resolvePath(fromDir: string, target: string): ResolvedPath | undefined {
  const t = parseTarget(target);
  if (t.kind !== 'path') return undefined;
  const written = t.path.split('?')[0] as string;
  const decoded = safeDecode(written);
  if (!decoded) return undefined;
  const place = (p: string): string | undefined => {
    let path = p.startsWith('/') ? posix.normalize(p.slice(1)) : posix.normalize(posix.join(fromDir, p));
    if (path.startsWith('..')) return undefined;
    if (p.endsWith('/') || path === '.') path = posix.join(path === '.' ? '' : path, 'README.md');
    return path.replace(/^\.\//, '');
  };
  const path = place(decoded);
  if (!path) return undefined;
  return { path, raw: place(written) ?? path, anchor: t.anchor ? safeDecode(t.anchor) : null };
}

export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function utf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/** `getting-started.md` → `Getting started`. */
export function prettify(fileName: string): string {
  const base = fileName
    .replace(/\.(md|markdown)$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  if (!base || README.test(`${base}.md`)) return 'Introduction';
  return base.charAt(0).toUpperCase() + base.slice(1);
}
