import { useEffect, useRef } from 'react';
import { activeEditor } from '../editor/activeEditor';

/**
 * Escape closes what was opened last (a dialog, a menu, a panel, the find bar) wherever the
 * focus is, and the caret goes back to the page. One listener for the window: each
 * dialog's own handler only heard Escape while the focus was inside it. What closes on
 * Escape inside the editor (its `/` menu) stops the key there.
 */
const open: { current: () => void }[] = [];

function onKeyDown(e: KeyboardEvent) {
  if (e.key !== 'Escape' || open.length === 0) return;
  e.preventDefault();
  const closing = open.length === 1;
  open[open.length - 1]!.current();
  // At once, before the next key: when React removes the dialog, its focused control would
  // take the focus with it, and the keys typed next would go nowhere.
  const editor = activeEditor();
  if (closing && editor?.isEditable) editor.view.focus();
}

if (typeof document !== 'undefined') document.addEventListener('keydown', onKeyDown);

/** While `close` is given, Escape calls it (the latest opened first). */
export function useEscape(close: (() => void) | null | false): void {
  const latest = useRef<() => void>(() => {});
  const active = !!close;
  if (close) latest.current = close;
  useEffect(() => {
    if (!active) return;
    const entry = { current: () => latest.current() };
    open.push(entry);
    return () => {
      const i = open.indexOf(entry);
      if (i >= 0) open.splice(i, 1);
    };
  }, [active]);
}
