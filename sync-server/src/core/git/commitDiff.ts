import {
  type NodeJSON,
  addFile,
  createPage,
  deletePage,
  getPage,
  listFiles,
  listPages,
  type PageTreeNode,
  pageTree,
  setPageDocument,
  setPageGitBaseline,
  readSummaryBaseline,
  setSummaryBaseline,
  updatePage,
} from '@quire/shared/content/index';
import type * as Y from 'yjs';
import { renderFolder, renderHash } from '../content/export/markdown';
import { type ImportPlan, type PlannedFile, type PlannedPage, gitSource } from '../content/import/plan';
import { applySummaryOrder } from './summaryMoves';

/** What applying a commit to the base changed, for the sync to store beside the merge. */
export interface CommitDiff {
  /** Pages whose file changed in git (their bytes are kept for the next export). */
  changedPages: PlannedPage[];
  /** Files of the commit the base did not hold (their bytes are stored). */
  newFiles: PlannedFile[];
  /** Whether the table of contents changed (its bytes are kept). */
  summaryChanged: boolean;
}

/**
 * Turns `base`, the content both sides agreed on at the last sync, into the content of a
 * newer commit, changing only what the commit changed: a page whose file has the bytes the
 * base would export is left alone; a changed file's page gets the new body written through
 * y-prosemirror (unchanged blocks kept, changed text diffed character by character), so the
 * edits applied to `base` merge into main next to Quire's own edits of the same page. Pages
 * are matched by the path they are exported at; a file new in git is a new page, a file gone
 * from git a removed page. What is applied is the updates `base` emits meanwhile.
 */
export function applyCommit(base: Y.Doc, plan: ImportPlan): CommitDiff {
  const rendered = renderFolder(base);
  const byPath = new Map<string, string>();
  const exportedOids = new Map<string, Set<string>>();
  for (const [pageId, page] of rendered.pages) {
    const git = getPage(base, pageId)?.git;
    byPath.set(page.path.toLowerCase(), pageId);
    if (git) byPath.set(git.path.toLowerCase(), pageId);
    // Untouched since the import, the export writes the bytes git had; else its own rendering.
    exportedOids.set(pageId, new Set([gitSource(page.path, new TextEncoder().encode(page.text)).oid, ...(git ? [git.oid] : [])]));
  }

  // Plan ids (new) to the base's ids, for files, parents and references in bodies.
  const ids = new Map<string, string>();
  const fileByPath = new Map<string, string>();
  for (const f of listFiles(base)) if (f.git) fileByPath.set(f.git.path.toLowerCase(), f.id);
  const newFiles: PlannedFile[] = [];
  for (const f of plan.files) {
    const known = f.git ? fileByPath.get(f.git.path.toLowerCase()) : undefined;
    if (known) ids.set(f.id, known);
    else newFiles.push(f);
  }
  for (const p of plan.pages) {
    const known = p.git ? byPath.get(p.git.path.toLowerCase()) : undefined;
    if (known) ids.set(p.id, known);
  }
  // A group has no file: it is the base's group of the same title, when only one has it.
  const groups = new Map<string, string | null>();
  for (const page of listPages(base)) {
    if (page.type === 'group') groups.set(page.title, groups.has(page.title) ? null : page.id);
  }
  for (const p of plan.pages) {
    const group = p.type === 'group' && !ids.has(p.id) ? groups.get(p.title) : undefined;
    if (group) ids.set(p.id, group);
  }
  const mapIds = (body: NodeJSON): NodeJSON => {
    let json = JSON.stringify(body);
    for (const [from, to] of ids) json = json.split(from).join(to);
    return JSON.parse(json) as NodeJSON;
  };

  const changedPages: PlannedPage[] = [];
  const seen = new Set<string>();
  base.transact(() => {
    for (const f of newFiles) {
      addFile(base, {
        id: f.id,
        name: f.name,
        contentType: f.contentType,
        size: f.bytes.byteLength,
        ...(f.dimensions ? { dimensions: f.dimensions } : {}),
        ...(f.git ? { git: f.git } : {}),
      });
    }
    for (const p of plan.pages) {
      const id = ids.get(p.id);
      if (id) seen.add(id);
      if (p.type !== 'document' || !p.git) continue;
      if (id && exportedOids.get(id)?.has(p.git.oid)) continue;
      changedPages.push(p);
      const fields = {
        title: p.title,
        git: p.git,
        ...(p.description !== undefined ? { description: p.description } : {}),
        ...(p.icon !== undefined ? { icon: p.icon } : {}),
        ...(p.layout !== undefined ? { layout: p.layout } : {}),
      };
      if (id) {
        const page = getPage(base, id);
        updatePage(base, id, { ...fields, ...(page?.title === p.title ? { title: undefined } : {}) });
        setPageDocument(base, id, mapIds(p.body ?? { type: 'doc', content: [] }));
      } else {
        const parent = p.parentId ? (ids.get(p.parentId) ?? p.parentId) : null;
        createPage(base, {
          id: p.id,
          parent: parent && getPage(base, parent) ? parent : null,
          type: 'document',
          ...fields,
          ...(p.slug ? { slug: p.slug } : {}),
          document: mapIds(p.body ?? { type: 'doc', content: [] }),
        });
        ids.set(p.id, p.id);
        seen.add(p.id);
      }
    }
    // A file git removed: its page goes too (groups and links have no file and stay).
    const planPaths = new Set(plan.pages.flatMap((p) => (p.git ? [p.git.path.toLowerCase()] : [])));
    for (const [pageId, page] of rendered.pages) {
      if (seen.has(pageId) || planPaths.has(page.path.toLowerCase())) continue;
      const git = getPage(base, pageId)?.git;
      if (git && planPaths.has(git.path.toLowerCase())) continue;
      if (getPage(base, pageId)) deletePage(base, pageId);
    }
    // The summary git has is not the one both sides agreed on: pages it placed elsewhere are moved.
    const summary = plan.summarySource;
    if (summary) {
      const oid = gitSource(summary.path, summary.bytes).oid;
      const agreed = [readSummaryBaseline(base)?.oid, gitSource(summary.path, new TextEncoder().encode(rendered.summary)).oid];
      if (!agreed.includes(oid)) applySummaryOrder(base, plan.pages, ids);
    }
  });

  const summaryChanged = !!plan.summarySource;
  recordBaselines(
    base,
    changedPages.map((p) => ids.get(p.id) ?? p.id),
    plan,
  );
  return { changedPages, newFiles, summaryChanged };
}

/** The changed pages, and the summary, now render as git has them: the next export writes git's bytes for them. */
function recordBaselines(doc: Y.Doc, pageIds: string[], plan: ImportPlan): void {
  const wanted = new Set(pageIds);
  const keys = new Map(plan.pages.map((p) => [p.git?.path, p.frontMatterKeys ?? []]));
  const places: { id: string; parent: string | null; slug: string; frontMatter: string[] }[] = [];
  const walk = (nodes: PageTreeNode[], parent: string | null) => {
    for (const node of nodes) {
      if (wanted.has(node.id)) places.push({ id: node.id, parent, slug: node.slug, frontMatter: keys.get(node.git?.path) ?? [] });
      walk(node.children, node.id);
    }
  };
  walk(pageTree(doc), null);
  doc.transact(() => {
    // the place first: the rendering compared later reads it
    for (const p of places) setPageGitBaseline(doc, p.id, { rendered: '', parent: p.parent, slug: p.slug, frontMatter: p.frontMatter });
    const rendered = renderFolder(doc);
    for (const p of places) {
      const text = rendered.pages.get(p.id)?.text;
      if (text !== undefined)
        setPageGitBaseline(doc, p.id, { rendered: renderHash(text), parent: p.parent, slug: p.slug, frontMatter: p.frontMatter });
    }
    const summary = plan.summarySource;
    if (summary) {
      setSummaryBaseline(doc, {
        oid: gitSource(summary.path, summary.bytes).oid,
        path: summary.path,
        rendered: renderHash(rendered.summary),
      });
    }
  });
}
