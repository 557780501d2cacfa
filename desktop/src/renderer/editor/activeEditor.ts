import type { Editor } from '@tiptap/core';

/** The page editor on screen, for the title's Enter (the title sits outside the editor). */
let current: Editor | null = null;

export function setActiveEditor(editor: Editor | null): void {
  current = editor;
}

export function activeEditor(): Editor | null {
  return current && !current.isDestroyed ? current : null;
}

/**
 * Moves the caret to the start of the page body. The DOM focus moves at once: TipTap's
 * focus command waits for the next frame, and a writer who types straight after Enter
 * would lose those first keys to the title.
 */
export function focusEditorStart(): void {
  const editor = activeEditor();
  if (!editor) return;
  editor.view.focus();
  editor.commands.focus('start', { scrollIntoView: true });
}
