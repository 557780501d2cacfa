import { getPage, updatePage } from '@quire/shared/content/pages';
import { FALLBACK_SLUG } from '@quire/shared/content/pageRecord';
import { slugify } from '@quire/shared/content/slugs';
import type * as Y from 'yjs';

/**
 * Pages that were never published: created in this window (and not yet seen by readers
 * on main), or anywhere in a space that lives on this device only. Their slug follows
 * their title, so "Untitled" renamed to "Release notes" gets `release-notes`, not
 * `untitled`. A published page keeps its slug: links to it must keep working.
 */
const createdHere = new WeakMap<Y.Doc, Set<string>>();

export function markCreatedHere(doc: Y.Doc, pageId: string): void {
  let set = createdHere.get(doc);
  if (!set) createdHere.set(doc, (set = new Set()));
  set.add(pageId);
}

export function wasCreatedHere(doc: Y.Doc, pageId: string): boolean {
  return createdHere.get(doc)?.has(pageId) ?? false;
}

/** A slug the writer never chose: the previous title's (possibly made unique with `-2`…), or the fallback. */
function isDerivedSlug(slug: string, title: string): boolean {
  const base = slugify(title) || FALLBACK_SLUG;
  return slug === base || slug === FALLBACK_SLUG || new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d+$`).test(slug);
}

/** Renames a page; while it was never published and its slug came from its title, the slug follows. */
export function setPageTitle(doc: Y.Doc, pageId: string, title: string, unpublished: boolean): void {
  const page = getPage(doc, pageId);
  if (!page || page.title === title) return;
  const follow = (unpublished || wasCreatedHere(doc, pageId)) && isDerivedSlug(page.slug, page.title);
  const slug = slugify(title);
  updatePage(doc, pageId, follow && slug && slug !== page.slug ? { title, slug } : { title });
}
