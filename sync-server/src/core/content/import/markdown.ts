import { posix } from 'node:path';
import { newId } from '@quire/shared';
import { type NodeJSON, extractLinks, markdownToBody, parseTarget, rewriteTargets } from '@quire/shared/content/index';
import { unprocessable } from '@quire/shared/apiErrors';
import type { ContentConfig } from '../config';
import { type ArchiveFiles, isGzip, isZip, readTarGz, readZip } from './archive';
import type { ImportFetcher } from './fetcher';
import { type ImportPlan, type PlannedFile, type PlannedPage, contentTypeFor, gitSource, imageDimensions, withoutLeadingH1 } from './plan';
import { type TocEntry, parseSummary } from './summary';

/** Where the markdown files and assets of an import are read from: an archive, or URLs next to the first one. */
interface Source {
  read(path: string): Promise<Uint8Array | undefined>;
}

function archiveSource(files: ArchiveFiles): Source {
  const lower = new Map([...files.keys()].map((p) => [p.toLowerCase(), p]));
  return {
    async read(path) {
      return files.get(path) ?? files.get(lower.get(path.toLowerCase()) ?? '');
    },
  };
}

function urlSource(fetcher: ImportFetcher, base: URL): Source {
  return {
    async read(path) {
      const url = new URL(path.split('/').map(encodeURIComponent).join('/'), base);
      if (url.origin !== base.origin) return undefined;
      return (await fetcher.optional(url.toString()))?.body;
    },
  };
}

const SUMMARY = /^summary\.md$/i;
const README = /^readme\.md$/i;
const MARKDOWN = /\.(md|markdown)$/i;

/**
 * Plans a `source: "markdown"` import from the URL of one `.md` file, of a `SUMMARY.md`
 * (every page it lists, read relative to it), or of a `.zip` / `.tar.gz` archive of such
 * a folder (its `SUMMARY.md`, else every markdown file in folder order, `README.md` first).
 */
export async function planMarkdownImport(fetcher: ImportFetcher, url: string, limits: ContentConfig): Promise<ImportPlan> {
  const root = await fetcher.root(url);
  const bytes = new Uint8Array(root.body);
  const pathname = new URL(url).pathname;
  if (isZip(bytes) || isGzip(bytes) || /\.(zip|tar\.gz|tgz)$/i.test(pathname)) {
    const files = isZip(bytes) ? readZip(bytes, limits.importMaxBytes) : await readTarGz(bytes, limits.importMaxBytes);
    const summary = [...files.keys()].find((p) => SUMMARY.test(p));
    const toc = summary
      ? parseSummary(utf8(files.get(summary) as Uint8Array))
      : folderToc([...files.keys()].filter((p) => MARKDOWN.test(p)));
    if (!toc.length) throw unprocessable('The archive holds no markdown files: nothing to import.');
    return buildPlan(archiveSource(files), toc, limits);
  }
  const text = utf8(bytes);
  if (root.contentType === 'text/html' || /^\s*<(!doctype|html)/i.test(text)) {
    throw unprocessable(`${url} is an HTML page, not markdown: import it with source "website".`);
  }
  // Paths are read from the site's root, so relative links may climb above the first file's folder.
  const source = urlSource(fetcher, new URL('/', url));
  const file = safeDecode(pathname.slice(1)) || 'README.md';
  const dir = posix.dirname(file) === '.' ? '' : posix.dirname(file);
  if (SUMMARY.test(posix.basename(file))) return buildPlan(source, parseSummary(text), limits, dir);
  // One file: read from what was already fetched.
  const single: Source = { read: async (path) => (path === file ? bytes : source.read(path)) };
  return buildPlan(single, [{ kind: 'page', title: '', path: posix.basename(file), children: [] }], limits, dir);
}

/** Folder order, `README.md` first; a folder is its README's page (or a group) holding its other files. */
export function folderToc(paths: string[]): TocEntry[] {
  const build = (dir: string): TocEntry[] => {
    const inDir = paths.filter((p) => posix.dirname(p) === (dir || '.'));
    const subdirs = [
      ...new Set(
        paths
          .filter((p) => p.startsWith(dir ? `${dir}/` : '') && posix.dirname(p) !== (dir || '.'))
          .map((p) => p.slice(dir ? dir.length + 1 : 0).split('/')[0] as string),
      ),
    ];
    const readme = inDir.find((p) => README.test(posix.basename(p)));
    const items = [
      ...inDir.filter((p) => p !== readme).map((p) => ({ key: posix.basename(p), file: p })),
      ...subdirs.map((d) => ({ key: d, dir: dir ? `${dir}/${d}` : d })),
    ].sort((a, b) => a.key.localeCompare(b.key));
    const entries: TocEntry[] = items.map((i) => {
      if ('file' in i && i.file) return { kind: 'page', title: '', path: i.file, children: [] };
      const sub = (i as { dir: string }).dir;
      const children = build(sub);
      const subReadme =
        children[0]?.path && README.test(posix.basename(children[0].path)) && posix.dirname(children[0].path) === sub
          ? children.shift()
          : undefined;
      return subReadme ? { ...subReadme, children } : { kind: 'group', title: prettify(posix.basename(sub)), children };
    });
    if (readme) entries.unshift({ kind: 'page', title: '', path: readme, children: [] });
    return entries;
  };
  return build('');
}

interface PlannedEntry {
  entry: TocEntry;
  page: PlannedPage;
  /** Normalized path of the page's markdown file. */
  file?: string;
}

/** `rootDir`: the folder the table of contents' paths are relative to. */
async function buildPlan(source: Source, toc: TocEntry[], limits: ContentConfig, rootDir = ''): Promise<ImportPlan> {
  const planned: PlannedEntry[] = [];
  const pageByPath = new Map<string, string>();
  const walk = (entries: TocEntry[], parentId: string | null) => {
    for (const entry of entries) {
      if (planned.length >= limits.importMaxPages) return;
      const id = newId();
      const file = entry.path ? resolvePath(rootDir, entry.path)?.path : undefined;
      if (file && !pageByPath.has(file)) pageByPath.set(file, id);
      planned.push({
        entry,
        file,
        page: {
          id,
          parentId,
          title: entry.title,
          type: entry.kind === 'page' ? 'document' : entry.kind,
          ...(entry.href ? { href: entry.href } : {}),
        },
      });
      walk(entry.children, id);
    }
  };
  walk(toc, null);

  const files = new Map<string, PlannedFile | null>();
  let total = planned.length;
  let missing = 0;
  for (const p of planned) {
    if (!p.file) continue;
    const bytes = await source.read(p.file);
    if (!bytes) {
      missing++;
      p.page.title ||= prettify(posix.basename(p.file));
      continue;
    }
    p.page.git = gitSource(p.file, bytes);
    const parsed = markdownToBody(utf8(bytes));
    const { body, h1 } = withoutLeadingH1(parsed.doc);
    p.page.title ||= h1 || prettify(posix.basename(p.file));
    const { description, icon, layout } = parsed.frontMatter;
    if (typeof description === 'string') p.page.description = description;
    if (typeof icon === 'string') p.page.icon = icon;
    if (layout) p.page.layout = layout;
    const dir = posix.dirname(p.file) === '.' ? '' : posix.dirname(p.file);
    // Assets first, so links can point at the files they became.
    for (const link of extractLinks(body)) {
      const resolved = resolvePath(dir, link.target);
      if (!resolved || pageByPath.has(resolved.path) || files.has(resolved.path)) continue;
      const isAsset =
        link.kind === 'image' ||
        link.kind === 'file' ||
        (link.kind === 'link' && /\.[A-Za-z0-9]+$/.test(resolved.path) && !MARKDOWN.test(resolved.path));
      if (!isAsset) continue;
      total++;
      const data = await source.read(resolved.path);
      const name = posix.basename(resolved.path);
      files.set(
        resolved.path,
        data
          ? { id: newId(), name, contentType: contentTypeFor(name), bytes: data, ...dims(data), git: gitSource(resolved.path, data) }
          : null,
      );
    }
    p.page.body = rewriteTargets(body, (target) => {
      const resolved = resolvePath(dir, target);
      if (!resolved) return target;
      const pageId = pageByPath.get(resolved.path) ?? pageByPath.get(posix.join(resolved.path, 'README.md'));
      if (pageId) return resolved.anchor ? `page:${pageId}#${resolved.anchor}` : `page:${pageId}`;
      const file = files.get(resolved.path);
      return file ? `file:${file.id}` : target;
    }) as NodeJSON;
  }
  const stored = [...files.values()].filter((f): f is PlannedFile => !!f);
  const sources = [...planned.map((p) => p.page.git), ...stored.map((f) => f.git)].filter((g) => !!g);
  const gitRoot = commonFolder([rootDir, ...sources.map((g) => posix.dirname(g.path))]);
  for (const g of sources) g.path = gitRoot ? posix.relative(gitRoot, g.path) : g.path;
  return {
    pages: planned.map((p) => p.page),
    files: stored,
    totalResources: total,
    importedResources: planned.length - missing + stored.length,
  };
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

function dims(data: Uint8Array) {
  const d = imageDimensions(data);
  return d ? { dimensions: d } : {};
}

/** A relative target (`../a.md#x`, `images/b.png`) as a path from the folder root; undefined for URLs and page/file refs. */
export function resolvePath(fromDir: string, target: string): { path: string; anchor: string | null } | undefined {
  const t = parseTarget(target);
  if (t.kind !== 'path') return undefined;
  const decoded = safeDecode(t.path.split('?')[0] as string);
  if (!decoded) return undefined;
  let path = decoded.startsWith('/') ? posix.normalize(decoded.slice(1)) : posix.normalize(posix.join(fromDir, decoded));
  if (path.startsWith('..')) return undefined;
  if (decoded.endsWith('/') || path === '.') path = posix.join(path === '.' ? '' : path, 'README.md');
  return { path: path.replace(/^\.\//, ''), anchor: t.anchor };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function utf8(bytes: Uint8Array): string {
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
