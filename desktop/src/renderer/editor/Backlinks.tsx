import type { PageTreeNode } from '@quire/shared/content/tree';
import { useEffect, useState } from 'react';
import type * as Y from 'yjs';
import { Icon } from '../components/Icons';
import { backlinkIndex } from './backlinkIndex';

function linking(doc: Y.Doc, pageId: string): string[] {
  return backlinkIndex(doc).linkingTo(pageId);
}

/** "Linked from": the pages whose bodies link to this one, in tree order, updated as any of them is edited. */
export function Backlinks({
  doc,
  pageId,
  pages,
  onOpen,
}: {
  doc: Y.Doc;
  pageId: string;
  pages: PageTreeNode[];
  onOpen: (pageId: string) => void;
}) {
  const [sources, setSources] = useState<string[]>([]);
  useEffect(() => {
    // Read after the page is drawn: the first read goes through every page of the space.
    const timer = setTimeout(() => setSources(linking(doc, pageId)), 0);
    const unsubscribe = backlinkIndex(doc).subscribe(() => setSources(linking(doc, pageId)));
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [doc, pageId]);
  const from = new Set(sources);
  const linked = pages.filter((p) => from.has(p.id));
  if (linked.length === 0) return null;
  return (
    <section className="backlinks" aria-label="Linked from">
      <h2>Linked from</h2>
      <ul>
        {linked.map((p) => (
          <li key={p.id}>
            <button type="button" className="backlink" onClick={() => onOpen(p.id)}>
              <span className="tree-icon">{p.emoji ?? <Icon name="page" size={15} />}</span>
              <span className="backlink-title">{p.title || 'Untitled'}</span>
              <span className="switcher-path">{p.path}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
