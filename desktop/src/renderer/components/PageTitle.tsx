import { PageKey, findPageMap } from '@quire/shared/content/layout';
import { useEffect, useRef } from 'react';
import * as Y from 'yjs';
import { focusEditorStart } from '../editor/activeEditor';
import { setPageTitle } from '../sync/pageTitles';

/** Where a caret at `index` lands after `delta` (a Y.Text change made by someone else). */
function mapIndex(index: number, delta: Y.YTextEvent['delta']): number {
  let pos = 0;
  let out = index;
  for (const op of delta) {
    if (pos >= index) break;
    if (op.retain) pos += op.retain;
    else if (typeof op.insert === 'string') out += op.insert.length;
    else if (op.delete) {
      out -= Math.min(op.delete, index - pos);
      pos += op.delete;
    }
  }
  return Math.max(0, out);
}

/**
 * The page title, bound to the title's `Y.Text`: two people typing in it merge character
 * by character, and someone else's typing never moves this writer's caret. Enter goes
 * to the start of the body.
 */
export function PageTitle({ doc, pageId, editable, unpublished }: { doc: Y.Doc; pageId: string; editable: boolean; unpublished: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const el = input.current;
    const map = findPageMap(doc, pageId);
    if (!el || !map) return;
    let text: Y.Text | null = null;
    const observer = (event: Y.YTextEvent, tr: Y.Transaction) => {
      if (tr.local && document.activeElement === el) return;
      const start = el.selectionStart ?? 0;
      const end = el.selectionEnd ?? 0;
      const focused = document.activeElement === el;
      el.value = String(text ?? '');
      if (focused) el.setSelectionRange(mapIndex(start, event.delta), mapIndex(end, event.delta));
    };
    // A title stored as a plain string (older documents) is shown as is; it becomes a Y.Text on its first edit.
    const bind = () => {
      text?.unobserve(observer);
      const value = map.get(PageKey.title);
      text = value instanceof Y.Text ? value : null;
      text?.observe(observer);
      const shown = typeof value === 'string' ? value : String(text ?? '');
      if (el.value !== shown) el.value = shown;
    };
    bind();
    const rebind = (event: Y.YMapEvent<unknown>) => {
      if (event.keysChanged.has(PageKey.title)) bind();
    };
    map.observe(rebind);
    return () => {
      text?.unobserve(observer);
      map.unobserve(rebind);
    };
  }, [doc, pageId]);
  return (
    <input
      ref={input}
      className="page-title"
      aria-label="Page title"
      placeholder="Untitled"
      readOnly={!editable}
      onChange={(e) => setPageTitle(doc, pageId, e.target.value, unpublished)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
          e.preventDefault();
          focusEditorStart();
        }
      }}
    />
  );
}
