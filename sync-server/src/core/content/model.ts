/**
 * The content model as the server's content features use it. Everything that knows the
 * Y.Doc layout lives in `@quire/shared/content`; this module only picks what revisions,
 * links, search and imports need, and adds the body walks they share.
 */
import {
  BranchMap,
  type FileInfo,
  PageKey,
  type PageRestore,
  type NodeJSON,
  type Page,
  type Target,
  bodySections as modelSections,
  extractLinks,
  getPage,
  getPageDocument,
  getVariables,
  listFiles,
  listPages,
  listReusableContents,
  pageRestoredFrom,
  parseTarget,
} from '@quire/shared/content/index';
import * as Y from 'yjs';

export type { NodeJSON, Target };
export type PageMeta = Page;
export type FileMeta = FileInfo;

/** What a set of updates touched in a branch. */
export interface BranchChanges {
  /** Pages added, removed or edited (fields or body). */
  pages: Set<string>;
  /** Pages whose restore mark (`PageKey.restoredFrom`) was written: a writer restored them from their history. */
  restored: Set<string>;
  files: boolean;
  variables: boolean;
  reusableContents: boolean;
  any: boolean;
}

/**
 * Starts recording what changes in a branch document; the returned function stops and
 * answers. Pages are told apart by the first step of each change's path, so an edit deep
 * in one page's body marks that page alone.
 */
export function watchChanges(doc: Y.Doc): () => BranchChanges {
  const changes: BranchChanges = {
    pages: new Set(),
    restored: new Set(),
    files: false,
    variables: false,
    reusableContents: false,
    any: false,
  };
  const pages = doc.getMap(BranchMap.pages);
  const files = doc.getMap(BranchMap.files);
  const variables = doc.getMap(BranchMap.variables);
  const reusable = doc.getMap(BranchMap.reusableContents);
  const onPages = (events: Y.YEvent<Y.AbstractType<unknown>>[]) => {
    changes.any = true;
    for (const e of events) {
      if (e.target === pages) for (const key of (e as Y.YMapEvent<unknown>).keysChanged) changes.pages.add(key);
      else if (typeof e.path[0] === 'string') {
        changes.pages.add(e.path[0]);
        if (e.path.length === 1 && e instanceof Y.YMapEvent && e.keysChanged.has(PageKey.restoredFrom)) changes.restored.add(e.path[0]);
      }
    }
  };
  const flag = (key: 'files' | 'variables' | 'reusableContents') => () => {
    changes.any = true;
    changes[key] = true;
  };
  const onFiles = flag('files');
  const onVariables = flag('variables');
  const onReusable = flag('reusableContents');
  const onUpdate = () => {
    changes.any = true;
  };
  pages.observeDeep(onPages);
  files.observeDeep(onFiles);
  variables.observeDeep(onVariables);
  reusable.observeDeep(onReusable);
  doc.on('update', onUpdate);
  return () => {
    pages.unobserveDeep(onPages);
    files.unobserveDeep(onFiles);
    variables.unobserveDeep(onVariables);
    reusable.unobserveDeep(onReusable);
    doc.off('update', onUpdate);
    return changes;
  };
}

export function readPageMetas(doc: Y.Doc): PageMeta[] {
  return listPages(doc);
}

export function readPageMeta(doc: Y.Doc, pageId: string): PageMeta | undefined {
  return getPage(doc, pageId) ?? undefined;
}

export function readPageBody(doc: Y.Doc, pageId: string): NodeJSON {
  return getPageDocument(doc, pageId);
}

export function readFiles(doc: Y.Doc): FileMeta[] {
  return listFiles(doc);
}

export function readVariables(doc: Y.Doc): Record<string, string> {
  return getVariables(doc);
}

export function readReusableContents(doc: Y.Doc): { id: string; title: string }[] {
  return listReusableContents(doc);
}

/** Every target a body points at (links, images, files, content references, embeds), once each, in order. */
export function bodyTargets(body: NodeJSON): Target[] {
  const seen = new Set<string>();
  const out: Target[] = [];
  for (const link of extractLinks(body)) {
    if (seen.has(link.target)) continue;
    seen.add(link.target);
    out.push(parseTarget(link.target));
  }
  return out;
}

/** A part of a page between two headings, as search indexes and answers it. */
export interface BodySection {
  /** The heading's anchor; '' for the text before the first heading. */
  anchor: string;
  title: string;
  text: string;
}

/** The body split at its headings, with the anchors the outline gives them. */
export function bodySections(body: NodeJSON): BodySection[] {
  return modelSections(body).map((s) => ({ anchor: s.anchor ?? '', title: s.title, text: s.text.replace(/\s+/g, ' ').trim() }));
}

/** The page's last restore from its history, as the restoring writer marked it. */
export function readPageRestore(doc: Y.Doc, pageId: string): PageRestore | null {
  return pageRestoredFrom(doc, pageId);
}
