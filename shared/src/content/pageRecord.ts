import type * as Y from 'yjs';
import type { JsonValue } from './json';
import { PageKey, readBoolean, readJson, readObject, readString } from './layout';
import { pageSlug } from './slugs';

export { FALLBACK_SLUG } from './slugs';

/** `document` pages hold a body; `group` pages only title a set of children; `link` pages point elsewhere. */
export const PAGE_TYPES = ['document', 'group', 'link'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

/** A page's fields as stored in its Y.Map, with defaults filled in. The body is read separately. */
export interface Page {
  id: string;
  type: PageType;
  title: string;
  emoji: string | null;
  icon: string | null;
  /** As stored, read through `pageSlug`; paths use the slug made unique among siblings (see `pageTree`). */
  slug: string;
  description: string;
  /** As stored; a parent that is missing or part of a cycle puts the page at the root of `pageTree`. */
  parent: string | null;
  order: string;
  hidden: boolean;
  noIndex: boolean;
  noRobotsIndex: boolean;
  layout: { [key: string]: JsonValue } | null;
  cover: { [key: string]: JsonValue } | null;
  /** Target of a `link` page: a URL or `page:<pageId>`. */
  href: string | null;
  /** Computed pages (`{type: 'builtin:openapi', …}`) keep their definition here as plain JSON. */
  computed: { [key: string]: JsonValue } | null;
  variables: Record<string, string>;
  /** The repository file the page came from (`path`) and its git blob id (`oid`), when imported from one. */
  git: GitSource | null;
}

/** Where in a repository a page or file came from: the file's path and its git blob id. */
export interface GitSource {
  oid: string;
  path: string;
}

/** A `{oid, path}` record, or null when the value is not one. */
export function readGitSource(value: unknown): GitSource | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { oid, path } = value as Record<string, unknown>;
  return typeof oid === 'string' && typeof path === 'string' ? { oid, path } : null;
}

export function readPage(id: string, map: Y.Map<unknown>): Page {
  const type = readString(map, PageKey.type);
  const title = readString(map, PageKey.title) ?? '';
  return {
    id,
    type: (PAGE_TYPES as readonly string[]).includes(type ?? '') ? (type as PageType) : 'document',
    title,
    emoji: readString(map, PageKey.emoji),
    icon: readString(map, PageKey.icon),
    slug: pageSlug(readString(map, PageKey.slug), title),
    description: readString(map, PageKey.description) ?? '',
    parent: readString(map, PageKey.parent),
    order: readString(map, PageKey.order) ?? '',
    hidden: readBoolean(map, PageKey.hidden),
    noIndex: readBoolean(map, PageKey.noIndex),
    noRobotsIndex: readBoolean(map, PageKey.noRobotsIndex),
    layout: readObject(map, PageKey.layout),
    cover: readObject(map, PageKey.cover),
    href: readString(map, PageKey.href),
    computed: readObject(map, PageKey.computed),
    variables: readStringRecord(readJson(map.get(PageKey.variables))),
    git: readGitSource(readJson(map.get(PageKey.git))),
  };
}

export function readStringRecord(value: JsonValue | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') out[key] = item;
    else if (typeof item === 'number' || typeof item === 'boolean') out[key] = String(item);
  }
  return out;
}
