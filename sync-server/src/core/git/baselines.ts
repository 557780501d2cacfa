import { type PageTreeNode, pageTree, setPageGitBaseline, setReusableContentGit, setSummaryBaseline } from '@quire/shared/content/index';
import type * as Y from 'yjs';
import type { Queryable } from '../../store/db';
import { putGitSources } from '../../store/gitSources';
import { renderFolder, renderHash } from '../content/export/markdown';
import { type ImportPlan, gitSource } from '../content/import/plan';

/**
 * Records, in a branch just filled by a git import, how each imported page and the summary
 * render now and where each page sits: an export that finds the same later knows nobody
 * touched them and writes back the files the import read.
 */
export function recordGitBaselines(doc: Y.Doc, plan: ImportPlan): void {
  const keys = new Map(plan.pages.map((p) => [p.id, p.frontMatterKeys ?? []]));
  const places: { id: string; parent: string | null; slug: string }[] = [];
  const walk = (nodes: PageTreeNode[], parent: string | null) => {
    for (const node of nodes) {
      if (node.git && node.type === 'document') places.push({ id: node.id, parent, slug: node.slug });
      walk(node.children, node.id);
    }
  };
  walk(pageTree(doc), null);
  // the place and front matter order first: the rendering they are compared by reads them
  for (const p of places)
    setPageGitBaseline(doc, p.id, { rendered: '', parent: p.parent, slug: p.slug, frontMatter: keys.get(p.id) ?? [] });
  const rendered = renderFolder(doc);
  for (const p of places) {
    const page = rendered.pages.get(p.id);
    if (page)
      setPageGitBaseline(doc, p.id, { rendered: renderHash(page.text), parent: p.parent, slug: p.slug, frontMatter: keys.get(p.id) ?? [] });
  }
  for (const r of plan.reusableContents ?? []) {
    const path = rendered.layout.includePaths.get(r.id);
    const text = path ? rendered.includes.get(path) : undefined;
    if (r.git && text !== undefined) setReusableContentGit(doc, r.id, { ...r.git, rendered: renderHash(text) });
  }
  const summary = plan.summarySource;
  setSummaryBaseline(
    doc,
    summary ? { oid: gitSource(summary.path, summary.bytes).oid, path: summary.path, rendered: renderHash(rendered.summary) } : null,
  );
}

/** Keeps the files the import read, for the export to write back. */
export async function keepGitSources(tx: Queryable, spaceId: string, plan: ImportPlan): Promise<void> {
  const sources: { oid: string; bytes: Uint8Array }[] = [];
  for (const page of plan.pages) if (page.git && page.source) sources.push({ oid: page.git.oid, bytes: page.source });
  for (const r of plan.reusableContents ?? []) if (r.git && r.source) sources.push({ oid: r.git.oid, bytes: r.source });
  const summary = plan.summarySource;
  if (summary) sources.push({ oid: gitSource(summary.path, summary.bytes).oid, bytes: summary.bytes });
  await putGitSources(tx, spaceId, sources);
}
