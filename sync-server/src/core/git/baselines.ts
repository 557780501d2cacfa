import { type PageTreeNode, pageTree, setPageGitBaseline, setSummaryBaseline } from '@quire/shared/content/index';
import type * as Y from 'yjs';
import type { Queryable } from '../../store/db';
import { putGitSource } from '../../store/gitSources';
import { renderFolder, renderHash } from '../content/export/markdown';
import { type ImportPlan, gitSource } from '../content/import/plan';

/**
 * Records, in a branch just filled by a git import, how each imported page and the summary
 * render now and where each page sits: an export that finds the same later knows nobody
 * touched them and writes back the files the import read.
 */
export function recordGitBaselines(doc: Y.Doc, plan: ImportPlan): void {
  const rendered = renderFolder(doc);
  const walk = (nodes: PageTreeNode[], parent: string | null) => {
    for (const node of nodes) {
      const page = rendered.pages.get(node.id);
      if (node.git && page) setPageGitBaseline(doc, node.id, { rendered: renderHash(page.text), parent, slug: node.slug });
      walk(node.children, node.id);
    }
  };
  walk(pageTree(doc), null);
  const summary = plan.summarySource;
  setSummaryBaseline(
    doc,
    summary ? { oid: gitSource(summary.path, summary.bytes).oid, path: summary.path, rendered: renderHash(rendered.summary) } : null,
  );
}

/** Keeps the files the import read, for the export to write back. */
export async function keepGitSources(tx: Queryable, spaceId: string, plan: ImportPlan): Promise<void> {
  for (const page of plan.pages) if (page.git && page.source) await putGitSource(tx, spaceId, page.git.oid, page.source);
  const summary = plan.summarySource;
  if (summary) await putGitSource(tx, spaceId, gitSource(summary.path, summary.bytes).oid, summary.bytes);
}
