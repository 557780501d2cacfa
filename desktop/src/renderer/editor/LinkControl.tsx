import type { HeadingAnchor } from '@quire/shared/content/anchors';
import { pageTarget, parseTarget } from '@quire/shared/content/targets';
import type { PageTreeNode } from '@quire/shared/content/tree';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useEscape } from '../components/escape';
import { Icon } from '../components/Icons';
import { matchPages } from '../components/pageMatch';

const SUGGESTIONS = 8;

/** Text saved as written: an address with a scheme (`https:`, `mailto:`) or a heading of this page (`#setup`). */
function isAddress(text: string): boolean {
  const kind = parseTarget(text).kind;
  return kind === 'url' || kind === 'anchor';
}

type Choice = { kind: 'page'; page: PageTreeNode } | { kind: 'heading'; anchor: HeadingAnchor | null };

/**
 * The toolbar's link dialog: pages are suggested as the writer types (title or path), and
 * once one is picked, its headings, so the link is `page:<id>[#anchor]` and survives
 * renames. Text that is neither a page nor an address is refused with a reason instead of
 * being saved as a link that leads nowhere.
 */
export function LinkControl({
  pages,
  current,
  headingsOf,
  onSave,
  onClose,
}: {
  pages: PageTreeNode[];
  /** The link's target when the selection already is a link. */
  current: string;
  headingsOf: (pageId: string) => HeadingAnchor[];
  /** `''` removes the link. */
  onSave: (href: string) => void;
  onClose: () => void;
}) {
  const initial = useMemo(() => {
    const t = parseTarget(current);
    return t.kind === 'page' ? (pages.find((p) => p.id === t.pageId)?.title ?? current) : current;
  }, []);
  const [query, setQuery] = useState(initial);
  const [picked, setPicked] = useState<PageTreeNode | null>(null);
  const [active, setActive] = useState(0);
  const [refused, setRefused] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEscape(onClose);
  useEffect(() => input.current?.select(), []);

  const choices: Choice[] = useMemo(() => {
    if (picked) return [null, ...headingsOf(picked.id)].map((anchor) => ({ kind: 'heading' as const, anchor }));
    const q = query.trim();
    if (!q || isAddress(q)) return [];
    return matchPages(pages, q, SUGGESTIONS).map((page) => ({ kind: 'page' as const, page }));
  }, [pages, query, picked, headingsOf]);
  useEffect(() => setActive(0), [query, picked]);
  useEffect(() => setRefused(null), [query]);

  const choose = (choice: Choice) => {
    if (choice.kind === 'page') {
      setPicked(choice.page);
      setQuery(choice.page.title);
    } else if (picked) onSave(pageTarget(picked.id, choice.anchor?.anchor));
  };
  const submit = () => {
    const q = query.trim();
    const choice = choices[active];
    if (choice) return choose(choice);
    if (!q || isAddress(q)) return onSave(q);
    setRefused(q);
  };

  return (
    <div className="modal-backdrop switcher-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="switcher" role="dialog" aria-label="Link">
        <div className="switcher-input">
          <Icon name="link" size={16} />
          <input
            ref={input}
            aria-label="URL or page"
            placeholder="https://… or a page"
            role="combobox"
            aria-expanded={choices.length > 0}
            aria-controls="link-choices"
            value={query}
            onChange={(e) => {
              setPicked(null);
              setQuery(e.target.value);
            }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, choices.length - 1));
              else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
              else if (e.key === 'Enter') submit();
              else return;
              e.preventDefault();
            }}
          />
          <kbd>Esc</kbd>
        </div>
        {refused !== null && (
          <p className="muted small pad" role="alert">
            No page named “{refused}” — add https:// for a web address.
          </p>
        )}
        {choices.length > 0 && (
          <div className="switcher-list" role="listbox" id="link-choices" aria-label={picked ? `Headings of ${picked.title}` : 'Pages'}>
            {choices.map((c, i) => (
              <button
                key={c.kind === 'page' ? c.page.id : (c.anchor?.anchor ?? '')}
                type="button"
                role="option"
                aria-selected={i === active}
                className={`switcher-hit${i === active ? ' is-active' : ''}`}
                onMouseMove={() => setActive(i)}
                onClick={() => choose(c)}
              >
                {c.kind === 'page' ? (
                  <>
                    <span className="switcher-title">{c.page.title || 'Untitled'}</span>
                    <span className="switcher-path">{c.page.path}</span>
                  </>
                ) : (
                  <>
                    <span className="switcher-title">{c.anchor ? c.anchor.title || 'Untitled heading' : 'Top of the page'}</span>
                    {c.anchor && <span className="switcher-path">#{c.anchor.anchor}</span>}
                  </>
                )}
              </button>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
