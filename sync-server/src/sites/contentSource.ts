import { evaluateVariables } from '@quire/shared/content/expressions';
import { getReusableContentDocument } from '@quire/shared/content/reusableContents';
import type * as Y from 'yjs';
import type { NodeJSON } from '@quire/shared/content/json';
import { LRUCache } from 'lru-cache';
import { readPageBody } from '../core/content/model';
import { contentAtRevision, docAtRevision } from '../core/content/revisions';
import { pageTreeOf } from '../core/content/tree';
import { computedSpecRef } from '../core/openapi/index';
import type { Queryable } from '../store/db';
import { openapiPageBody } from './openapiPages';

/**
 * What the published-site renderer reads from a space: its page tree and page bodies at
 * one revision. Revisions never change, so everything here may be cached by revision id.
 * The renderer depends on this interface only, not on how revisions are stored.
 */
export interface PublishedPage {
  id: string;
  title: string;
  emoji: string | null;
  icon: string | null;
  description: string;
  type: 'document' | 'group' | 'link';
  /** Target of a link page: a URL or `page:<id>`. */
  href: string | null;
  hidden: boolean;
  /** Kept out of search engines: not in the sitemap, `noindex` on the page. */
  noIndex: boolean;
  /** Path in the space (`getting-started/install`), unique among all pages. */
  path: string;
  /** GitBook's layout options from front matter (`{title: {visible}, outline: {visible}, cover: {…}}`). */
  layout?: Record<string, unknown> | null;
  /** The cover image: `{ref: {kind: 'file', file} | {kind: 'url', url}, yPos}`. */
  cover?: Record<string, unknown> | null;
  /** The OpenAPI spec (id or slug) a `builtin:openapi` page shows instead of its stored body. */
  openapiSpec?: string;
  /** Which part of its spec an API reference page shows (`apiPages.ts` adds the pages of tags, operations and schemas). */
  api?: ApiPart;
  children: PublishedPage[];
}

/** The part of a spec an API reference page shows: tags are named by the slugs of their path in the tag tree. */
export type ApiPart =
  | { kind: 'overview' }
  | { kind: 'tag'; tags: string[] }
  | { kind: 'operation'; tags: string[]; operation: string }
  | { kind: 'schemas'; chunk?: number };

export interface SpaceFile {
  id: string;
  name: string;
  contentType: string;
  size?: number;
  /** The repository path it was imported from. */
  gitPath?: string;
  width?: number;
  height?: number;
}

export interface SpaceSnapshot {
  revisionId: string;
  pages: PublishedPage[];
  files: Record<string, SpaceFile>;
  /** The body with variables evaluated, as ProseMirror JSON of the content model's schema. */
  body(pageId: string): Promise<NodeJSON>;
}

export interface ContentSource {
  snapshot(db: Queryable, revisionId: string): Promise<SpaceSnapshot>;
}

function toPublished(nodes: ReturnType<typeof pageTreeOf>, computed: (id: string) => unknown): PublishedPage[] {
  return nodes.map((n) => ({
    id: n.id,
    title: n.title,
    emoji: n.emoji,
    icon: n.icon,
    description: n.description,
    type: n.type,
    href: n.href,
    hidden: n.hidden,
    noIndex: n.noIndex || n.noRobotsIndex,
    path: n.path,
    layout: (n.layout as Record<string, unknown> | null) ?? null,
    cover: (n.cover as Record<string, unknown> | null) ?? null,
    openapiSpec: computedSpecRef(computed(n.id)),
    children: toPublished(n.children, computed),
  }));
}

const trees = new WeakMap<object, PublishedPage[]>();
const bodies = new LRUCache<string, NodeJSON>({ max: 2000 });

export function clearBodyCache() {
  bodies.clear();
}

/** Content at revisions, as the content engine stores them. */
export const revisionContentSource: ContentSource = {
  async snapshot(db, revisionId) {
    const content = await contentAtRevision(db, revisionId);
    let pages = trees.get(content);
    if (!pages) {
      pages = toPublished(pageTreeOf(content), (id) => content.pages[id]?.computed);
      trees.set(content, pages);
    }
    const files: Record<string, SpaceFile> = {};
    for (const [id, f] of Object.entries(content.files))
      files[id] = {
        id,
        name: f.name,
        contentType: f.contentType,
        size: f.size,
        gitPath: f.git?.path,
        width: f.dimensions?.width,
        height: f.dimensions?.height,
      };
    return {
      revisionId,
      pages,
      files,
      body: async (pageId) => {
        // A computed page (`builtin:openapi`) shows what it computes, rendered afresh.
        const computed = await openapiPageBody(db, revisionId, content.pages[pageId]?.computed);
        if (computed) return computed;
        const key = `${revisionId}\t${pageId}`;
        const hit = bodies.get(key);
        if (hit) return hit;
        const doc = await docAtRevision(db, revisionId);
        // Published pages show variables with their values, as readers expect.
        const body = evaluateVariables(withIncludes(doc, readPageBody(doc, pageId)), {
          space: content.variables,
          page: content.pages[pageId]?.variables ?? {},
        });
        bodies.set(key, body);
        return body;
      },
    };
  },
};

/** Includes of reusable content replaced by what they include (nested ones too, to a bound), as readers see them. */
function withIncludes(doc: Y.Doc, body: NodeJSON, depth = 0): NodeJSON {
  const expand = (n: NodeJSON): NodeJSON[] => {
    if (n.type === 'reusableContent') {
      const id = n.attrs?.reusableContentId;
      if (typeof id !== 'string' || depth > 3) return [n];
      try {
        return withIncludes(doc, getReusableContentDocument(doc, id), depth + 1).content ?? [];
      } catch {
        return [n];
      }
    }
    return [n.content ? { ...n, content: n.content.flatMap(expand) } : n];
  };
  return { ...body, content: (body.content ?? []).flatMap(expand) };
}
