import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';

/** Where the writer clicked (or what they selected) in a page before it could be edited: positions in its body. */
export interface PlacedCaret {
  anchor: number;
  head: number;
}

/**
 * Puts a caret placed on the saved page into the live editor, focused, once the editor
 * shows the page (the Yjs binding fills it a moment after it is created). False while the
 * editor is still empty.
 */
export function applyPlacedCaret(editor: Editor, caret: PlacedCaret): boolean {
  const { doc } = editor.state;
  if (doc.textContent.length === 0 && doc.childCount <= 1) return false;
  const clamp = (pos: number) => Math.max(0, Math.min(pos, doc.content.size));
  const selection = TextSelection.between(doc.resolve(clamp(caret.anchor)), doc.resolve(clamp(caret.head)));
  editor.view.dispatch(editor.state.tr.setSelection(selection).scrollIntoView());
  editor.view.focus();
  return true;
}
