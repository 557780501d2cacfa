import { posix } from 'node:path';
import {
  bodyToGitbookDocument,
  bodyToMarkdown,
  evaluateVariables,
  getPageMarkdown,
  headingAnchors,
  parseTarget,
} from '@quire/shared/content/index';
import type * as Y from 'yjs';
import { LRUCache } from 'lru-cache';
import type { Queryable } from '../../store/db';
import type { Materialized } from './materialize';
import { type Target, readPageBody } from './model';
import { contentAtRevision, docAtRevision } from './revisions';
import { flatPages } from './tree';

/** How a page body is read: a GitBook `document` (JSON) or GitBook-flavoured `markdown`. */
export interface BodyReadOptions {
  format: 'markdown' | 'document';
  /** Replace `{{ space.vars.x }}` / `{{ page.vars.x }}` expressions with their values. */
  evaluated: boolean;
  /**
   * How markdown writes references to pages and files of the space: `stable` as
   * `page:<id>` / `file:<id>`, `relative` as paths of a git-synced repository.
   */
  refs?: 'stable' | 'relative';
}

const rendered = new LRUCache<string, {}>({ max: 4000 });
const anchorsCache = new LRUCache<string, Set<string>>({ max: 4000 });

/**
 * A page body at a revision. Revisions never change, so the result is kept and the same
 * read is answered from memory next time.
 */
export async function readBody(db: Queryable, revisionId: string, pageId: string, opts: BodyReadOptions): Promise<unknown> {
  const refs = opts.format === 'markdown' ? (opts.refs ?? 'stable') : 'stable';
  const key = `${revisionId}\t${pageId}\t${opts.format}\t${opts.evaluated}\t${refs}`;
  const hit = rendered.get(key);
  if (hit !== undefined) return hit;
  const content = await contentAtRevision(db, revisionId);
  const doc = await docAtRevision(db, revisionId);
  const out = renderBody(doc, content, pageId, { ...opts, refs });
  if (out !== undefined && out !== null) rendered.set(key, out);
  return out;
}

function renderBody(doc: Y.Doc, content: Materialized, pageId: string, opts: BodyReadOptions): string | unknown {
  const resolveTarget = opts.refs === 'relative' ? relativeTargets(content, pageId) : undefined;
  if (!opts.evaluated && opts.format === 'markdown') return getPageMarkdown(doc, pageId, { resolveTarget });
  let body = readPageBody(doc, pageId);
  if (opts.evaluated) body = evaluateVariables(body, { space: content.variables, page: content.pages[pageId]?.variables ?? {} });
  return opts.format === 'markdown' ? bodyToMarkdown(body, { resolveTarget }) : bodyToGitbookDocument(body);
}

/**
 * Where each page lives in a git-synced repository (the layout markdown import reads
 * back): the space's first page is `README.md`, a page with children `<path>/README.md`,
 * any other `<path>.md`.
 */
function repositoryFiles(content: Materialized): Map<string, string> {
  const pages = flatPages(content);
  const first = pages[0];
  return new Map(pages.map((n) => [n.id, n.children.length ? `${n.path}/README.md` : n === first ? 'README.md' : `${n.path}.md`]));
}

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/**
 * Writes references to pages and files of the space as paths relative to the page's own
 * file (`../guide/install.md#step-2`, `.gitbook/assets/logo.png`); a reference to
 * something the revision does not hold stays as written.
 */
export function relativeTargets(content: Materialized, fromPageId: string): (target: string) => string {
  const files = repositoryFiles(content);
  const from = posix.dirname(files.get(fromPageId) ?? 'README.md');
  const relative = (to: string) => encodePath(posix.relative(from, to) || posix.basename(to));
  return (target) => {
    const t = parseTarget(target);
    if (t.kind === 'page') {
      const file = files.get(t.pageId);
      return file ? `${relative(file)}${t.anchor ? `#${t.anchor}` : ''}` : target;
    }
    if (t.kind === 'file') {
      const file = content.files[t.fileId];
      return file ? relative(`.gitbook/assets/${file.name}`) : target;
    }
    return target;
  };
}

/** Heading anchors of a page at a revision, for checking `#anchor` links. */
export async function pageAnchors(db: Queryable, revisionId: string, pageId: string): Promise<Set<string>> {
  const key = `${revisionId}\t${pageId}`;
  const hit = anchorsCache.get(key);
  if (hit) return hit;
  const doc = await docAtRevision(db, revisionId);
  const anchors = new Set(headingAnchors(readPageBody(doc, pageId)).map((h) => h.anchor));
  anchorsCache.set(key, anchors);
  return anchors;
}

export type LinkStatus = 'ok' | 'broken' | 'in-app';

/** Whether a link target resolves in the revision: pages, files and headings must exist; app URLs are marked. */
export async function linkStatus(
  db: Queryable,
  revisionId: string,
  content: Materialized,
  fromPageId: string,
  target: Target,
  appBase: string,
): Promise<LinkStatus> {
  switch (target.kind) {
    case 'page': {
      if (!content.pages[target.pageId]) return 'broken';
      if (target.anchor && !(await pageAnchors(db, revisionId, target.pageId)).has(target.anchor)) return 'broken';
      return 'ok';
    }
    case 'file':
      return content.files[target.fileId] ? 'ok' : 'broken';
    case 'anchor':
      return (await pageAnchors(db, revisionId, fromPageId)).has(target.anchor) ? 'ok' : 'broken';
    case 'url':
      return target.url.startsWith(`${appBase}/app/`) ? 'in-app' : 'ok';
    case 'path':
      // A relative path no import resolved: it points at nothing in the space.
      return 'broken';
  }
}
