import type { PageTreeNode } from '@quire/shared/content/tree';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useEscape } from './escape';
import { Icon } from './Icons';
import { matchPages } from './pageMatch';

/**
 * Ctrl/Cmd+K: type part of a page's title, Enter opens it. Works on the window's copy of
 * the branch, so it is instant and works offline.
 */
export function PageSwitcher({ pages, onOpen, onClose }: { pages: PageTreeNode[]; onOpen: (pageId: string) => void; onClose: () => void }) {
  const [query, setQuery] = useState('');
  useEscape(onClose);
  const [active, setActive] = useState(0);
  const hits = useMemo(() => matchPages(pages, query), [pages, query]);
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  const pick = (page: PageTreeNode | undefined) => {
    if (!page) return;
    onOpen(page.id);
    onClose();
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes it from the input
    <div className="modal-backdrop switcher-backdrop" onClick={onClose}>
      <div className="switcher" role="dialog" aria-label="Go to page" onClick={(e) => e.stopPropagation()}>
        <div className="switcher-input">
          <Icon name="search" size={16} />
          <input
            autoFocus
            aria-label="Page to open"
            placeholder="Go to a page…"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') {
                e.preventDefault();
                setActive((a) => Math.min(a + 1, hits.length - 1));
              } else if (e.key === 'ArrowUp') {
                e.preventDefault();
                setActive((a) => Math.max(a - 1, 0));
              } else if (e.key === 'Enter') {
                e.preventDefault();
                pick(hits[active]);
              }
            }}
          />
          <kbd>Esc</kbd>
        </div>
        <div className="switcher-list" role="listbox" aria-label="Pages" ref={list}>
          {hits.length === 0 && <p className="muted small pad">No page matches “{query.trim()}”.</p>}
          {hits.map((page, i) => (
            <button
              key={page.id}
              type="button"
              role="option"
              aria-selected={i === active}
              className={`switcher-hit${i === active ? ' is-active' : ''}`}
              onMouseMove={() => setActive(i)}
              onClick={() => pick(page)}
            >
              <span className="tree-icon">{page.emoji ?? <Icon name={page.type === 'group' ? 'folder' : 'page'} size={15} />}</span>
              <span className="switcher-title">{page.title || 'Untitled'}</span>
              <span className="switcher-path">{page.path}</span>
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
