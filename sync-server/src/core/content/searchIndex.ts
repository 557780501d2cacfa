import type * as Y from 'yjs';
import type { Queryable } from '../../store/db';
import { type SectionEntry, clearSpaceSections, replacePageSections } from '../../store/search';
import type { Materialized, PageEntry } from './materialize';
import { bodySections, readPageBody } from './model';
import { pagePaths, reusePaths } from './tree';

/**
 * Brings a space's search index up to date with a new main revision: the rows of the
 * pages it changed, and of pages whose path it changed, are rebuilt.
 * Groups and links have no text of their own and are not indexed.
 */
export async function reindexPages(
  tx: Queryable,
  spaceId: string,
  doc: Y.Doc,
  content: Materialized,
  prev: Materialized,
  changed: string[] | 'all',
) {
  let ids: string[];
  let paths: Map<string, string>;
  if (changed === 'all') {
    await clearSpaceSections(tx, spaceId);
    paths = pagePaths(content);
    ids = Object.keys(content.pages);
  } else if (!changed.some((id) => placementChanged(prev.pages[id], content.pages[id]))) {
    // Only bodies or titles changed: every path is what it was, so the tree is not rebuilt.
    paths = reusePaths(prev, content);
    ids = changed;
  } else {
    paths = pagePaths(content);
    const moved = new Set(changed);
    const before = pagePaths(prev);
    for (const [id, path] of paths) if (before.get(id) !== path) moved.add(id);
    ids = [...moved];
  }
  if (!ids.length) return;
  const sections: SectionEntry[] = [];
  for (const id of ids) {
    const page = content.pages[id];
    if (!page || page.type !== 'document') continue;
    const path = paths.get(id) ?? page.slug;
    const parts = bodySections(readPageBody(doc, id));
    if (!parts.length) parts.push({ anchor: '', title: '', text: '' });
    parts.forEach((s, position) =>
      sections.push({
        pageId: id,
        sectionId: s.anchor,
        position,
        pageTitle: page.title,
        pagePath: path,
        sectionTitle: s.title,
        body: s.text,
      }),
    );
  }
  await replacePageSections(tx, spaceId, changed === 'all' ? [] : ids, sections);
}

/** Whether a page's place in the tree (and so any path) may have changed: added, removed, moved or re-slugged. */
function placementChanged(before: PageEntry | undefined, after: PageEntry | undefined): boolean {
  if (!before || !after) return true;
  return before.parent !== after.parent || before.slug !== after.slug || before.order !== after.order;
}
