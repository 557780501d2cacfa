import { bodyToGitbookDocument, bodyToMarkdown, evaluateVariables, getPageMarkdown, headingAnchors } from '@quire/shared/content/index';
import type * as Y from 'yjs';
import type { Queryable } from '../../store/db';
import { Lru } from './lru';
import type { Materialized } from './materialize';
import { type Target, readPageBody } from './model';
import { contentAtRevision, docAtRevision } from './revisions';

/** How a page body is read: a GitBook `document` (JSON) or GitBook-flavoured `markdown`. */
export interface BodyReadOptions {
  format: 'markdown' | 'document';
  /** Replace `{{ space.vars.x }}` / `{{ page.vars.x }}` expressions with their values. */
  evaluated: boolean;
}

const rendered = new Lru<string, unknown>(4000);
const anchorsCache = new Lru<string, Set<string>>(4000);

/**
 * A page body at a revision. Revisions never change, so the result is kept and the same
 * read is answered from memory next time.
 */
export async function readBody(db: Queryable, revisionId: string, pageId: string, opts: BodyReadOptions): Promise<unknown> {
  const key = `${revisionId}\t${pageId}\t${opts.format}\t${opts.evaluated}`;
  const hit = rendered.get(key);
  if (hit !== undefined) return hit;
  const content = await contentAtRevision(db, revisionId);
  const doc = await docAtRevision(db, revisionId);
  const out = renderBody(doc, content, pageId, opts);
  rendered.set(key, out);
  return out;
}

function renderBody(doc: Y.Doc, content: Materialized, pageId: string, opts: BodyReadOptions): string | unknown {
  if (!opts.evaluated && opts.format === 'markdown') return getPageMarkdown(doc, pageId);
  let body = readPageBody(doc, pageId);
  if (opts.evaluated) body = evaluateVariables(body, { space: content.variables, page: content.pages[pageId]?.variables ?? {} });
  return opts.format === 'markdown' ? bodyToMarkdown(body) : bodyToGitbookDocument(body);
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
