import * as Y from 'yjs';
import { newId } from '../ids';
import { keyBetween, keysBetween } from '../order';
import { writeBody } from './body';
import { invalid, notFound } from './errors';
import type { JsonValue, NodeJSON } from './json';
import { findPageMap, PageKey, pagesMap, requirePageMap } from './layout';
import { markdownToBody } from './markdown/parse';
import { emptyBody } from './normalize';
import { FALLBACK_SLUG, type GitSource, PAGE_TYPES, type Page, type PageType, readPage } from './pageRecord';
import { slugify, uniqueSlug } from './slugs';
import { compareSiblings, pagesInTreeOrder, subtreeIds, type TreeIndex, treeIndex } from './tree';

/** Where a page goes among its siblings: right before or after one of them, else last. */
export interface PagePosition {
  /** Parent page id; null for the root. Defaults to the parent of `before`/`after`, else the root. */
  parent?: string | null;
  before?: string;
  after?: string;
}

/** Page fields a caller may set; keys left out keep their value (or default). */
export interface PageFields {
  title?: string;
  type?: PageType;
  emoji?: string | null;
  icon?: string | null;
  /** Normalized with `slugify` and made unique among siblings. */
  slug?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: { [key: string]: JsonValue } | null;
  cover?: { [key: string]: JsonValue } | null;
  href?: string | null;
  computed?: { [key: string]: JsonValue } | null;
  variables?: Record<string, string>;
  git?: GitSource | null;
}

export interface CreatePageInput extends PageFields, PagePosition {
  title: string;
  /** Defaults to a new random id. */
  id?: string;
  /** Initial body as ProseMirror JSON; `markdown` is the alternative. */
  document?: NodeJSON;
  markdown?: string;
}

/** Every page, parents before children and siblings in order (the order of `pageTree`). */
export function listPages(doc: Y.Doc): Page[] {
  return pagesInTreeOrder(treeIndex(doc));
}

export function getPage(doc: Y.Doc, pageId: string): Page | null {
  const map = findPageMap(doc, pageId);
  return map ? readPage(pageId, map) : null;
}

/** Creates a page (and its body) in one transaction and returns its id. */
export function createPage(doc: Y.Doc, input: CreatePageInput): string {
  return createPages(doc, [input])[0] as string;
}

/**
 * Creates pages in order, in one transaction (a later page may be the child or sibling of
 * an earlier one). The tree is read once and kept up to date as pages are added, so an
 * import of thousands of pages costs what each page does, not the size of the tree again.
 */
export function createPages(doc: Y.Doc, inputs: readonly CreatePageInput[]): string[] {
  const prepared = inputs.map((input) => {
    const id = input.id ?? newId();
    if (findPageMap(doc, id)) throw invalid(`page ${id} already exists`);
    checkType(input.type);
    const body: NodeJSON = input.document ?? (input.markdown !== undefined ? markdownToBody(input.markdown).doc : emptyBody());
    return { id, input, body };
  });
  doc.transact(() => {
    const index = treeIndex(doc);
    for (const { id, input, body } of prepared) {
      if (index.pages.has(id)) throw invalid(`page ${id} already exists`);
      const parent = resolveParent(index, id, input);
      const map = new Y.Map<unknown>();
      pagesMap(doc).set(id, map);
      map.set(PageKey.title, new Y.Text(input.title));
      map.set(PageKey.type, input.type ?? 'document');
      map.set(PageKey.parent, parent);
      map.set(PageKey.order, orderKeyAt(doc, index, id, parent, input));
      map.set(PageKey.slug, siblingSlug(index, id, parent, input.slug ?? input.title));
      writeFields(map, { ...input, slug: undefined, title: undefined, type: undefined });
      const fragment = new Y.XmlFragment();
      map.set(PageKey.body, fragment);
      writeBody(fragment, body);
      addToIndex(index, readPage(id, map));
    }
  });
  return prepared.map((p) => p.id);
}

/** Records a page just created in an index read before it, keeping siblings sorted by order key, then id. */
function addToIndex(index: TreeIndex, page: Page): void {
  index.pages.set(page.id, page);
  index.parentOf.set(page.id, page.parent);
  const siblings = index.childrenOf.get(page.parent) ?? [];
  let at = siblings.length;
  while (at > 0 && compareSiblings(siblings[at - 1] as Page, page) > 0) at--;
  siblings.splice(at, 0, page);
  index.childrenOf.set(page.parent, siblings);
}

/** Sets the given fields of a page; unknown keys other clients stored are kept. */
export function updatePage(doc: Y.Doc, pageId: string, fields: PageFields): Page {
  const map = requirePageMap(doc, pageId);
  checkType(fields.type);
  doc.transact(() => {
    if (fields.slug !== undefined) {
      const index = treeIndex(doc);
      map.set(PageKey.slug, siblingSlug(index, pageId, index.parentOf.get(pageId) ?? null, fields.slug));
    }
    writeFields(map, { ...fields, slug: undefined });
  });
  return readPage(pageId, map);
}

/**
 * Moves a page under a new parent and/or between siblings. Only the page's own `parent`
 * and `order` change (plus its slug if a sibling already uses it), so concurrent moves
 * of the same page resolve to one place and never duplicate it.
 */
export function movePage(doc: Y.Doc, pageId: string, position: PagePosition): Page {
  const map = requirePageMap(doc, pageId);
  doc.transact(() => {
    const index = treeIndex(doc);
    const parent = resolveParent(index, pageId, position);
    if (parent !== null && subtreeIds(index, pageId).includes(parent)) {
      throw invalid('a page cannot be moved under itself or one of its descendants');
    }
    map.set(PageKey.order, orderKeyAt(doc, index, pageId, parent, position));
    // compared with the stored parent, so moving a page out of a cycle really cuts the cycle
    if ((index.pages.get(pageId)?.parent ?? null) !== parent) map.set(PageKey.parent, parent);
    if ((index.parentOf.get(pageId) ?? null) !== parent) {
      const slug = index.pages.get(pageId)?.slug ?? FALLBACK_SLUG;
      const unique = siblingSlug(index, pageId, parent, slug);
      if (unique !== slug) map.set(PageKey.slug, unique);
    }
  });
  return readPage(pageId, map);
}

/** Deletes a page and every page shown under it; returns the deleted ids (none if the page did not exist). */
export function deletePage(doc: Y.Doc, pageId: string): string[] {
  if (!findPageMap(doc, pageId)) return [];
  const ids = subtreeIds(treeIndex(doc), pageId);
  doc.transact(() => {
    const pages = pagesMap(doc);
    for (const id of ids) pages.delete(id);
  });
  return ids;
}

function checkType(type: string | undefined): void {
  if (type !== undefined && !(PAGE_TYPES as readonly string[]).includes(type)) {
    throw invalid(`page type must be one of ${PAGE_TYPES.join(', ')}`);
  }
}

function writeFields(map: Y.Map<unknown>, fields: PageFields): void {
  const set = (key: string, value: unknown): void => {
    if (value !== undefined) map.set(key, value);
  };
  if (fields.title !== undefined) writeTitle(map, fields.title);
  set(PageKey.type, fields.type);
  set(PageKey.emoji, fields.emoji);
  set(PageKey.icon, fields.icon);
  set(PageKey.description, fields.description);
  set(PageKey.hidden, fields.hidden);
  set(PageKey.noIndex, fields.noIndex);
  set(PageKey.noRobotsIndex, fields.noRobotsIndex);
  set(PageKey.layout, fields.layout);
  set(PageKey.cover, fields.cover);
  set(PageKey.href, fields.href);
  set(PageKey.computed, fields.computed);
  set(PageKey.variables, fields.variables);
  set(PageKey.git, fields.git === undefined || fields.git === null ? fields.git : { oid: fields.git.oid, path: fields.git.path });
}

/**
 * Titles are `Y.Text`, so two people typing in the same title merge character by
 * character. A change is written as the one range that differs, which keeps the other
 * side's concurrent characters; a title stored as a plain string (older documents, or a
 * client that writes strings) becomes a `Y.Text` on its first edit.
 */
export function writeTitle(map: Y.Map<unknown>, title: string): void {
  const current = map.get(PageKey.title);
  if (!(current instanceof Y.Text)) {
    map.set(PageKey.title, new Y.Text(title));
    return;
  }
  const before = current.toString();
  if (before === title) return;
  let start = 0;
  while (start < before.length && start < title.length && before[start] === title[start]) start++;
  let end = 0;
  while (end < before.length - start && end < title.length - start && before[before.length - 1 - end] === title[title.length - 1 - end])
    end++;
  // Never split a surrogate pair (an emoji in a title): step back to the pair's start.
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
  if (end > 0 && isHighSurrogate(before.charCodeAt(before.length - end - 1))) end--;
  const removed = before.length - start - end;
  if (removed > 0) current.delete(start, removed);
  const inserted = title.slice(start, title.length - end);
  if (inserted) current.insert(start, inserted);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** The page's title as a shared text, made one when it is stored as a plain string. */
export function titleText(doc: Y.Doc, pageId: string): Y.Text {
  const map = requirePageMap(doc, pageId);
  const current = map.get(PageKey.title);
  if (current instanceof Y.Text) return current;
  const text = new Y.Text(typeof current === 'string' ? current : '');
  doc.transact(() => map.set(PageKey.title, text));
  return text;
}

function resolveParent(index: TreeIndex, pageId: string, position: PagePosition): string | null {
  const sibling = position.before ?? position.after;
  if (sibling !== undefined) {
    if (sibling === pageId) throw invalid('a page cannot be placed next to itself');
    if (!index.pages.has(sibling)) throw notFound('page', sibling);
    const siblingParent = index.parentOf.get(sibling) ?? null;
    if (position.parent !== undefined && position.parent !== siblingParent) {
      throw invalid(`page ${sibling} is not a child of ${position.parent ?? 'the root'}`);
    }
    return siblingParent;
  }
  const parent = position.parent ?? null;
  if (parent !== null && !index.pages.has(parent)) throw notFound('page', parent);
  if (parent === pageId) throw invalid('a page cannot be its own parent');
  return parent;
}

/**
 * An order key for the page at its new place. Fractional keys fit between any two
 * distinct keys; siblings inserted concurrently at the same place can share a key, and
 * then (or with a malformed key) the siblings are given fresh keys in their current order.
 */
function orderKeyAt(doc: Y.Doc, index: TreeIndex, pageId: string, parent: string | null, position: PagePosition): string {
  const siblings = (index.childrenOf.get(parent) ?? []).filter((page) => page.id !== pageId);
  let at = siblings.length;
  if (position.before !== undefined) at = siblings.findIndex((page) => page.id === position.before);
  else if (position.after !== undefined) at = siblings.findIndex((page) => page.id === position.after) + 1;
  const low = siblings[at - 1]?.order ?? null;
  const high = siblings[at]?.order ?? null;
  try {
    return keyBetween(low, high);
  } catch {
    const keys = keysBetween(null, null, siblings.length + 1);
    siblings.forEach((page, i) => {
      const key = keys[i < at ? i : i + 1] as string;
      findPageMap(doc, page.id)?.set(PageKey.order, key);
      // the index stays valid for the next page created in the same batch
      (page as { order: string }).order = key;
    });
    return keys[at] as string;
  }
}

function siblingSlug(index: TreeIndex, pageId: string, parent: string | null, wanted: string): string {
  const taken = new Set((index.childrenOf.get(parent) ?? []).filter((page) => page.id !== pageId).map((page) => page.slug));
  return uniqueSlug(slugify(wanted) || FALLBACK_SLUG, taken);
}
