import { posix } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ContentConfig } from '../content/config';
import { folderToc } from '../content/import/markdown';
import type { ImportPlan } from '../content/import/plan';
import { type Source, planRepository, utf8 } from '../content/import/repository';
import { parseSummary } from '../content/import/summary';
import { GitFailure } from './remote';

/** What a project's `.gitbook.yaml` says, paths normalized (no `./`, no slashes at either end). */
export interface ProjectLayout {
  /** The content's folder, from the project directory. */
  root: string;
  /** The first page and the table of contents, from `root`. */
  readme?: string;
  summary?: string;
  /** Old paths of the space (no leading slash) to the file of the page they now lead to, from `root`. */
  redirects: Record<string, string>;
}

const MARKDOWN = /\.(md|markdown)$/i;
export const GITBOOK_YAML = '.gitbook.yaml';

/** A folder path as written in a request or `.gitbook.yaml`: `./docs/` → `docs`; `..` is refused. */
export function normalizeFolder(raw: string | undefined, what: string): string {
  const path = posix.normalize(`/${raw ?? ''}`).replace(/^\/+|\/+$/g, '');
  if (path.split('/').includes('..')) throw new GitFailure(`${what} must be a folder inside the repository: ${raw}`);
  return path === '.' ? '' : path;
}

/** Reads a project's `.gitbook.yaml` (`root`, `structure.readme`, `structure.summary`); none: the project's own folder. */
export function readProjectLayout(yamlText: string | undefined): ProjectLayout {
  if (yamlText === undefined) return { root: '', redirects: {} };
  let doc: unknown;
  try {
    doc = parseYaml(yamlText);
  } catch (err) {
    throw new GitFailure(`${GITBOOK_YAML} is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const config = (doc && typeof doc === 'object' ? doc : {}) as {
    root?: unknown;
    structure?: { readme?: unknown; summary?: unknown };
    redirects?: unknown;
  };
  const str = (v: unknown, name: string): string | undefined => {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw new GitFailure(`${GITBOOK_YAML}: ${name} must be a path`);
    return v;
  };
  const file = (v: string | undefined, name: string) => {
    if (v === undefined) return undefined;
    const path = normalizeFolder(v, `${GITBOOK_YAML} ${name}`);
    return path || undefined;
  };
  const structure = config.structure && typeof config.structure === 'object' ? config.structure : {};
  return {
    root: normalizeFolder(str(config.root, 'root'), `${GITBOOK_YAML} root`),
    readme: file(str(structure.readme, 'structure.readme'), 'structure.readme'),
    summary: file(str(structure.summary, 'structure.summary'), 'structure.summary'),
    redirects: readRedirects(config.redirects),
  };
}

/** `redirects:` entries whose source and target are both paths; anything else is left to the file, which the export keeps. */
function readRedirects(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [from, to] of Object.entries(value)) {
    if (typeof to !== 'string') continue;
    const source = from.replace(/^\/+|\/+$/g, '');
    const target = posix.normalize(`/${to}`).replace(/^\/+/, '');
    if (source && target && !target.split('/').includes('..')) out[source] = target;
  }
  return out;
}

/**
 * Plans the import of a project's content folder, `paths` given from it: the table of
 * contents is its summary file (`structure.summary`, else `SUMMARY.md`), else every
 * markdown file in folder order with the readme (`structure.readme`, else `README.md`)
 * first; every file under `.gitbook/assets/` is kept even when no page shows it.
 */
export async function planProjectImport(
  source: Source,
  paths: string[],
  layout: ProjectLayout,
  limits: ContentConfig,
): Promise<ImportPlan> {
  const lower = new Map(paths.map((p) => [p.toLowerCase(), p]));
  const summaryPath = lower.get((layout.summary ?? 'SUMMARY.md').toLowerCase());
  let toc;
  // A summary's entries are written from its own folder.
  let tocDir = '';
  let summaryBytes: Uint8Array | undefined;
  if (summaryPath) {
    summaryBytes = (await source.read(summaryPath)) as Uint8Array;
    toc = parseSummary(utf8(summaryBytes));
    tocDir = posix.dirname(summaryPath) === '.' ? '' : posix.dirname(summaryPath);
  } else {
    const pages = paths.filter((p) => MARKDOWN.test(p) && !p.startsWith('.gitbook/'));
    const readme = layout.readme ? lower.get(layout.readme.toLowerCase()) : undefined;
    toc = folderToc(pages.filter((p) => p !== readme));
    if (readme) toc.unshift({ kind: 'page', title: '', path: readme, children: [] });
  }
  if (!toc.length) throw new GitFailure('the folder holds no markdown files: nothing to import');
  const assets = paths.filter((p) => p.startsWith('.gitbook/assets/')).sort();
  const plan = await planRepository(source, toc, limits, tocDir, assets);
  if (summaryPath && summaryBytes) plan.summarySource = { path: summaryPath, bytes: summaryBytes };
  return plan;
}
