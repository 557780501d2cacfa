import * as Y from 'yjs';
import { notFound } from './errors';
import { isRecord, type JsonValue } from './json';

/**
 * Names of the branch Y.Doc's top-level types. A branch (a space's main content or a
 * change request) is one Y.Doc; these names are the contract with every Yjs client.
 * Comments' passages are a map of their own beside these (`commentAnchors.ts`), made only
 * once a passage is commented on; so is what the last git import read (`gitBaseline.ts`),
 * made by the first import.
 */
export const BranchMap = {
  /** pageId → Y.Map of {@link PageKey} keys */
  pages: 'pages',
  /** fileId → plain JSON file record */
  files: 'files',
  /** reusableContentId → Y.Map `{title, body}` */
  reusableContents: 'reusableContents',
  /** variable name → string value */
  variables: 'variables',
} as const;
export type BranchMap = (typeof BranchMap)[keyof typeof BranchMap];

/**
 * Keys of a page's Y.Map. Only `title`, `type`, `parent`, `order` and `body` are required;
 * a missing key reads as its default, and keys not listed here are left untouched.
 */
export const PageKey = {
  title: 'title',
  type: 'type',
  /** parent page id, or null at the root: the tree is parent pointers, never nested arrays */
  parent: 'parent',
  /** fractional index key among siblings */
  order: 'order',
  /** Y.XmlFragment holding the page document, as y-prosemirror writes it */
  body: 'body',
  emoji: 'emoji',
  icon: 'icon',
  slug: 'slug',
  description: 'description',
  hidden: 'hidden',
  noIndex: 'noIndex',
  noRobotsIndex: 'noRobotsIndex',
  /** plain JSON: GitBook's page layout options */
  layout: 'layout',
  /** plain JSON: cover image references */
  cover: 'cover',
  /** target of a `link` page: a URL or `page:<pageId>` */
  href: 'href',
  /** plain JSON: `{type: 'builtin:openapi', dependencies, props}` of a computed page */
  computed: 'computed',
  /** plain JSON: page-level variables, `{{ page.vars.name }}` */
  variables: 'variables',
  /** plain JSON: `{oid, path}` of the repository file the page came from (git sync layout) */
  git: 'git',
  /** plain JSON: `{rendered, parent, slug}`: the page as the last git sync read it, so an export knows it untouched */
  gitBaseline: 'gitBaseline',
  /** plain JSON: `{revision, by, at}` of the last time the page was restored from its history (`restores.ts`) */
  restoredFrom: 'restoredFrom',
} as const;
export type PageKey = (typeof PageKey)[keyof typeof PageKey];

export function pagesMap(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap(BranchMap.pages);
}

export function filesMap(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap(BranchMap.files);
}

export function reusableContentsMap(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap(BranchMap.reusableContents);
}

export function variablesMap(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap(BranchMap.variables);
}

/** A page's Y.Map, or null when the id is unknown (or holds something that is not a page). */
export function findPageMap(doc: Y.Doc, pageId: string): Y.Map<unknown> | null {
  const value = pagesMap(doc).get(pageId);
  return value instanceof Y.Map ? value : null;
}

export function requirePageMap(doc: Y.Doc, pageId: string): Y.Map<unknown> {
  const map = findPageMap(doc, pageId);
  if (!map) throw notFound('page', pageId);
  return map;
}

/** A stored value as plain JSON: other clients may write nested Yjs types where we write JSON. */
export function readJson(value: unknown): JsonValue | undefined {
  if (value instanceof Y.AbstractType) return value.toJSON() as JsonValue;
  if (value === undefined) return undefined;
  return value as JsonValue;
}

export function readString(map: Y.Map<unknown>, key: string): string | null {
  const value = readJson(map.get(key));
  return typeof value === 'string' ? value : null;
}

export function readBoolean(map: Y.Map<unknown>, key: string): boolean {
  return readJson(map.get(key)) === true;
}

export function readObject(map: Y.Map<unknown>, key: string): { [key: string]: JsonValue } | null {
  const value = readJson(map.get(key));
  return isRecord(value) ? (value as { [key: string]: JsonValue }) : null;
}

/** The body fragment of a page or reusable content, created when a minimal client left it out. */
export function bodyFragment(map: Y.Map<unknown>, create: boolean): Y.XmlFragment | null {
  const value = map.get(PageKey.body);
  if (value instanceof Y.XmlFragment) return value;
  if (!create) return null;
  const fragment = new Y.XmlFragment();
  map.set(PageKey.body, fragment);
  return fragment;
}
