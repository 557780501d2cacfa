import type { NodeJSON } from '@quire/shared/content/json';
import { markdownToBody } from '@quire/shared/content/index';
import { LRUCache } from 'lru-cache';
import type { OpenAPIDocument } from '../core/openapi/parse';
import { renderOpenAPIOperations } from '../core/openapi/render';
import { type ApiTag, schemaChunks, tagTree } from '../core/openapi/tags';
import type { Queryable } from '../store/db';
import type { ApiPart, PublishedPage, SpaceSnapshot } from './contentSource';
import { loadSpec } from './openapiPages';

/**
 * An API reference page of a space (`builtin:openapi`) is a part of the site's tree: the
 * page itself gives the overview (description, servers, authentication), and below it
 * each tag has a page of its own (nested under its `x-parent`), each operation too when
 * its tag has many, and the named schemas a last one. They are made from the spec's
 * latest version, so they follow it without a new revision of the space.
 */

export interface ApiSpecView {
  document: OpenAPIDocument;
  tags: ApiTag[];
  schemasSlug: string;
}

const views = new LRUCache<string, { view: ApiSpecView; children: PublishedPage[] }>({ max: 64 });

/** The snapshot with the pages of its API references, and their bodies (for search, `.md` and llms.txt). */
export async function withApiPages(db: Queryable, orgId: string, snap: SpaceSnapshot): Promise<SpaceSnapshot> {
  const flat = flatten(snap.pages);
  if (!flat.some((p) => p.openapiSpec)) return snap;
  const taken = new Set(flat.map((p) => p.path));
  const specs = new Map<string, ApiSpecView>();
  const expand = async (list: PublishedPage[]): Promise<PublishedPage[]> => {
    const out: PublishedPage[] = [];
    for (const p of list) {
      const children = await expand(p.children);
      if (!p.openapiSpec || p.api) {
        out.push(children === p.children ? p : { ...p, children });
        continue;
      }
      const spec = await loadSpec(db, orgId, { spec: p.openapiSpec });
      if (spec.kind !== 'ready') {
        out.push({ ...p, api: { kind: 'overview' }, children });
        continue;
      }
      const key = `${spec.versionId}\t${p.id}\t${p.path}\t${p.noIndex}`;
      let made = views.get(key);
      if (!made) {
        const tags = tagTree(spec.document);
        let schemasSlug = 'schemas';
        while (tags.some((t) => t.slug === schemasSlug)) schemasSlug += '-list';
        const view = { document: spec.document, tags, schemasSlug };
        made = { view, children: apiChildren(p, view) };
        views.set(key, made);
      }
      specs.set(p.id, made.view);
      // A page of the space at the same path wins: it was there first.
      const own = made.children.filter((c) => !taken.has(c.path)).map((c) => withoutTaken(c, taken));
      out.push({ ...p, api: { kind: 'overview' }, children: [...own, ...children] });
    }
    return out;
  };
  const pages = await expand(snap.pages);
  const rootOf = new Map<string, string>();
  for (const p of flatten(pages)) if (p.api && p.api.kind !== 'overview') rootOf.set(p.id, p.id.split('~api~')[0] as string);
  return {
    ...snap,
    pages,
    body: async (pageId) => {
      const root = rootOf.get(pageId) ?? pageId;
      const view = specs.get(root);
      const page = view ? flatten(pages).find((p) => p.id === pageId) : undefined;
      if (!view || !page?.api) return snap.body(pageId);
      return apiBody(view, page.api);
    },
  };
}

function withoutTaken(p: PublishedPage, taken: Set<string>): PublishedPage {
  return { ...p, children: p.children.filter((c) => !taken.has(c.path)).map((c) => withoutTaken(c, taken)) };
}

/** The pages below an API reference page: its tags (and their operations when split), then its schemas. */
function apiChildren(root: PublishedPage, view: ApiSpecView): PublishedPage[] {
  const page = (idPart: string, title: string, path: string, api: ApiPart, children: PublishedPage[] = []): PublishedPage => ({
    id: `${root.id}~api~${idPart}`,
    title,
    emoji: null,
    icon: null,
    description: '',
    type: 'document',
    href: null,
    hidden: false,
    noIndex: root.noIndex,
    path,
    openapiSpec: root.openapiSpec,
    api,
    children,
  });
  const tagPages = (tags: ApiTag[], parents: string[], base: string): PublishedPage[] =>
    tags.map((t) => {
      const slugs = [...parents, t.slug];
      const path = `${base}/${t.slug}`;
      const ops = t.split
        ? t.operations.map((o) =>
            page(`${slugs.join('/')}/${o.slug}`, o.title, `${path}/${o.slug}`, { kind: 'operation', tags: slugs, operation: o.slug }),
          )
        : [];
      return page(slugs.join('/'), t.title, path, { kind: 'tag', tags: slugs }, [...ops, ...tagPages(t.children, slugs, path)]);
    });
  const out = tagPages(view.tags, [], root.path);
  const chunks = schemaChunks(view.document);
  const schemas = `${root.path}/${view.schemasSlug}`;
  const parts =
    chunks.length > 1
      ? chunks.map((names, i) =>
          page(`${view.schemasSlug}/${i + 1}`, `${names[0]} – ${names.at(-1)}`, `${schemas}/${i + 1}`, { kind: 'schemas', chunk: i }),
        )
      : [];
  if (chunks.length) out.push(page(view.schemasSlug, 'Schemas', schemas, { kind: 'schemas' }, parts));
  return out;
}

/** The tag a list of slugs names, walking the tree. */
export function findTag(tags: ApiTag[], slugs: string[]): ApiTag | undefined {
  let list = tags;
  let found: ApiTag | undefined;
  for (const s of slugs) {
    found = list.find((t) => t.slug === s);
    if (!found) return undefined;
    list = found.children;
  }
  return found;
}

export function namedSchemas(spec: OpenAPIDocument): Record<string, unknown> {
  const c = spec.components as Record<string, unknown> | undefined;
  const s = c && typeof c === 'object' ? (c.schemas as Record<string, unknown> | undefined) : undefined;
  if (s && typeof s === 'object') return s;
  return spec.definitions && typeof spec.definitions === 'object' ? (spec.definitions as Record<string, unknown>) : {};
}

/** What search, `.md` and llms.txt read of a part: its operations as markdown, or the list of tags. */
function apiBody(view: ApiSpecView, part: ApiPart): NodeJSON {
  const doc = view.document;
  if (part.kind === 'tag' || part.kind === 'operation') {
    const tag = findTag(view.tags, part.tags);
    const entries = (tag?.operations ?? []).filter((o) => part.kind === 'tag' || o.slug === part.operation);
    const md = entries.map((o) => renderOpenAPIOperations(doc, { operation: { path: o.op.path, method: o.op.method } })).join('\n');
    return markdownToBody(`${part.kind === 'tag' && tag?.description ? `${tag.description}\n\n` : ''}${md}`).doc;
  }
  if (part.kind === 'schemas')
    return markdownToBody(
      Object.keys(namedSchemas(doc))
        .map((n) => `- \`${n}\``)
        .join('\n'),
    ).doc;
  const info = (doc.info ?? {}) as Record<string, unknown>;
  const lines: string[] = [];
  if (typeof info.description === 'string') lines.push(info.description);
  const list = (tags: ApiTag[], depth: number) => {
    for (const t of tags) {
      lines.push(`${'  '.repeat(depth)}- ${t.title}`);
      list(t.children, depth + 1);
    }
  };
  list(view.tags, 0);
  return markdownToBody(lines.join('\n\n')).doc;
}

function flatten(pages: PublishedPage[]): PublishedPage[] {
  return pages.flatMap((p) => [p, ...flatten(p.children)]);
}
