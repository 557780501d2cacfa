import { readBody } from '@quire/shared/content/body';
import { bodyFragment, pagesMap } from '@quire/shared/content/layout';
import { extractLinks } from '@quire/shared/content/links';
import { parseTarget } from '@quire/shared/content/targets';
import * as Y from 'yjs';

/** After edits go quiet this long, pages are read again for their links: typing never waits on it. */
const QUIET_MS = 300;

/**
 * Which pages of a branch link to which, kept in the window from the branch doc itself, so
 * backlinks are right offline and follow every edit, this window's or a collaborator's.
 * A page's links are read again only once it changed, and only while someone is looking.
 */
export class BacklinkIndex {
  /** Each page's link targets (page ids), as of its last read. */
  private readonly targets = new Map<string, Set<string>>();
  private readonly dirty = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly doc: Y.Doc) {
    const pages = pagesMap(doc);
    for (const id of pages.keys()) this.dirty.add(id);
    pages.observeDeep((events) => {
      for (const event of events) {
        if (event.target === pages) for (const key of event.changes.keys.keys()) this.dirty.add(key);
        else if (typeof event.path[0] === 'string') this.dirty.add(event.path[0]);
      }
      this.schedule();
    });
  }

  /** Ids of the pages whose bodies link to `pageId` (to the page or one of its headings). */
  linkingTo(pageId: string): string[] {
    this.refresh();
    const out: string[] = [];
    for (const [source, targets] of this.targets) if (source !== pageId && targets.has(pageId)) out.push(source);
    return out;
  }

  /** Called (after edits go quiet) whenever links may have changed; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private schedule() {
    if (this.timer || this.listeners.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      for (const listener of this.listeners) listener();
    }, QUIET_MS);
  }

  private refresh() {
    const pages = pagesMap(this.doc);
    for (const id of this.dirty) {
      const map = pages.get(id);
      if (!(map instanceof Y.Map)) {
        this.targets.delete(id);
        continue;
      }
      const targets = new Set<string>();
      for (const link of extractLinks(readBody(bodyFragment(map, false)))) {
        const target = parseTarget(link.target);
        if (target.kind === 'page') targets.add(target.pageId);
      }
      this.targets.set(id, targets);
    }
    this.dirty.clear();
  }
}

const indexes = new WeakMap<Y.Doc, BacklinkIndex>();

/** The one index of a branch doc, made when first asked. */
export function backlinkIndex(doc: Y.Doc): BacklinkIndex {
  let index = indexes.get(doc);
  if (!index) {
    index = new BacklinkIndex(doc);
    indexes.set(doc, index);
  }
  return index;
}
