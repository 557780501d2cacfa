import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import { useEffect, useRef, useState } from 'react';
import { useEscape } from '../components/escape';
import { Icon } from '../components/Icons';
import { clearFind, findState, replaceAll, replaceCurrent, setQuery, step } from './findReplace';

/** Ctrl+F / Ctrl+H: the find (and replace) bar over the page. `ask` changes each time either key is pressed. */
export function FindBar({ editor, replace, ask, onClose }: { editor: Editor; replace: boolean; ask: number; onClose: () => void }) {
  const [query, setQueryText] = useState(() => {
    const { from, to } = editor.state.selection;
    const picked = editor.state.doc.textBetween(from, to, ' ');
    return picked.length < 100 && !picked.includes('\n') ? picked : '';
  });
  const [replacement, setReplacement] = useState('');
  const findInput = useRef<HTMLInputElement>(null);
  const replaceInput = useRef<HTMLInputElement>(null);
  const found = useEditorState({
    editor,
    selector: ({ editor: e }) => {
      const s = findState(e.state);
      return { count: s?.matches.length ?? 0, current: s?.current ?? -1 };
    },
  });
  useEscape(onClose);
  useEffect(() => {
    if (query) setQuery(editor, query);
    return () => clearFind(editor);
  }, [editor]);
  useEffect(() => {
    const input = replace && findInput.current?.value ? replaceInput.current : findInput.current;
    input?.focus();
    input?.select();
  }, [ask, replace]);
  const onFind = (value: string) => {
    setQueryText(value);
    setQuery(editor, value);
  };
  return (
    <div className="find-wrap">
      <div className="find-bar" role="search" aria-label="Find in page">
        <div className="find-row">
          <input
            ref={findInput}
            aria-label="Find"
            placeholder="Find in page"
            value={query}
            onChange={(e) => onFind(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== 'Enter') return;
              e.preventDefault();
              step(editor, e.shiftKey ? -1 : 1);
            }}
          />
          <span className="find-count" data-testid="find-count" aria-live="polite">
            {query ? (found.count ? `${found.current + 1} of ${found.count}` : 'No matches') : ''}
          </span>
          <button
            type="button"
            className="icon-btn"
            aria-label="Previous match"
            title="Previous (Shift+Enter)"
            onClick={() => step(editor, -1)}
          >
            <Icon name="chevronUp" size={15} />
          </button>
          <button type="button" className="icon-btn" aria-label="Next match" title="Next (Enter)" onClick={() => step(editor, 1)}>
            <Icon name="chevronDown" size={15} />
          </button>
          <button type="button" className="icon-btn" aria-label="Close find" title="Close (Esc)" onClick={onClose}>
            <Icon name="x" size={15} />
          </button>
        </div>
        {replace && (
          <div className="find-row">
            <input
              ref={replaceInput}
              aria-label="Replace with"
              placeholder="Replace with"
              value={replacement}
              onChange={(e) => setReplacement(e.target.value)}
              onKeyDown={(e) => {
                if (e.key !== 'Enter') return;
                e.preventDefault();
                replaceCurrent(editor, replacement);
              }}
            />
            <button type="button" className="btn btn-small" disabled={!found.count} onClick={() => replaceCurrent(editor, replacement)}>
              Replace
            </button>
            <button type="button" className="btn btn-small" disabled={!found.count} onClick={() => replaceAll(editor, replacement)}>
              Replace all
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
