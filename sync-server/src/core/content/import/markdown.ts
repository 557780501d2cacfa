import { posix } from 'node:path';
import { unprocessable } from '@quire/shared/domainErrors';
import type { ContentConfig } from '../config';
import { type ArchiveFiles, isGzip, isZip, readTarGz, readZip } from './archive';
import type { ImportFetcher } from './fetcher';
import type { ImportPlan } from './plan';
import { type Source, planRepository, prettify, safeDecode, utf8 } from './repository';
import { type TocEntry, parseSummary } from './summary';

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
 * (every page it lists, read relative to it), of a folder (its `SUMMARY.md`, else its
 * `README.md`), or of a `.zip` / `.tar.gz` archive of such a folder (its `SUMMARY.md`,
 * else every markdown file in folder order, `README.md` first).
 */
export async function planMarkdownImport(fetcher: ImportFetcher, url: string, limits: ContentConfig): Promise<ImportPlan> {
  if (new URL(url).pathname.endsWith('/')) return planFolderImport(fetcher, url, limits);
  const root = await fetcher.root(url);
  const bytes = new Uint8Array(root.body);
  const pathname = new URL(url).pathname;
  if (isZip(bytes) || isGzip(bytes) || /\.(zip|tar\.gz|tgz)$/i.test(pathname)) {
    const files = isZip(bytes) ? await readZip(bytes, limits.importMaxBytes) : await readTarGz(bytes, limits.importMaxBytes);
    return planArchiveImport(files, limits);
  }
  const text = utf8(bytes);
  if (root.contentType === 'text/html' || /^\s*<(!doctype|html)/i.test(text)) {
    throw unprocessable(`${url} is an HTML page, not markdown: import it with source "website".`);
  }
  // Paths are read from the site's root, so relative links may climb above the first file's folder.
  const source = urlSource(fetcher, new URL('/', url));
  const file = safeDecode(pathname.slice(1)) || 'README.md';
  const dir = posix.dirname(file) === '.' ? '' : posix.dirname(file);
  if (SUMMARY.test(posix.basename(file))) return planRepository(source, parseSummary(text), limits, dir);
  // One file: read from what was already fetched.
  const single: Source = { read: async (path) => (path === file ? bytes : source.read(path)) };
  return planRepository(single, [{ kind: 'page', title: '', path: posix.basename(file), children: [] }], limits, dir);
}

/** A folder URL (`…/docs/`): its `SUMMARY.md`, else its `README.md` as one page. */
async function planFolderImport(fetcher: ImportFetcher, url: string, limits: ContentConfig): Promise<ImportPlan> {
  const folder = new URL(url);
  for (const name of ['SUMMARY.md', 'README.md']) {
    const found = await fetcher.optional(new URL(name, folder).toString());
    if (found) return planMarkdownImport(fetcher, new URL(name, folder).toString(), limits);
  }
  throw unprocessable(`${url} holds neither a SUMMARY.md nor a README.md: nothing to import.`);
}

/** An archive's files: its `SUMMARY.md`, else every markdown file in folder order. */
export function planArchiveImport(files: ArchiveFiles, limits: ContentConfig): Promise<ImportPlan> {
  const summary = [...files.keys()].find((p) => SUMMARY.test(p));
  const toc = summary
    ? parseSummary(utf8(files.get(summary) as Uint8Array))
    : folderToc([...files.keys()].filter((p) => MARKDOWN.test(p) && !p.startsWith('.gitbook/')));
  if (!toc.length) throw unprocessable('The archive holds no markdown files: nothing to import.');
  const assets = [...files.keys()].filter((p) => p.startsWith('.gitbook/assets/')).sort();
  return planRepository(archiveSource(files), toc, limits, '', assets);
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
