import type { Editor } from '@tiptap/core';

/** The page editor on screen, for the title's Enter (the title sits outside the editor). */
let current: Editor | null = null;

export function setActiveEditor(editor: Editor | null): void {
  current = editor;
}

export function activeEditor(): Editor | null {
  return current && !current.isDestroyed ? current : null;
}

/** Moves the caret to the start of the page body. */
export function focusEditorStart(): void {
  activeEditor()?.commands.focus('start', { scrollIntoView: true });
}
