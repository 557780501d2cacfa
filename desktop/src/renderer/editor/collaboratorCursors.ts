import { Extension } from '@tiptap/core';
import { yCursorPlugin } from 'y-prosemirror';
import type { Awareness } from 'y-protocols/awareness';

export interface CursorUser {
  name: string;
  color: string;
}

/** A collaborator's caret with their name above it (styled as `.collaboration-cursor__*`). */
function caret(user: CursorUser): HTMLElement {
  const cursor = document.createElement('span');
  cursor.classList.add('collaboration-cursor__caret');
  cursor.style.borderColor = user.color;
  const label = document.createElement('div');
  label.classList.add('collaboration-cursor__label');
  label.style.backgroundColor = user.color;
  label.append(document.createTextNode(user.name));
  cursor.append(label);
  return cursor;
}

/**
 * Collaborators' carets and selections from the branch's awareness, and this writer's own
 * published there. Unlike TipTap's CollaborationCursor, nothing stays registered on the
 * awareness once the editor is gone: that extension's `update` listener is never removed
 * and kept every editor of the branch (its view and all its DOM) alive, one per visit to a
 * page, each also running on every keystroke.
 */
export const CollaboratorCursors = Extension.create<{ awareness: Awareness | null; user: CursorUser }>({
  name: 'collaboratorCursors',
  priority: 999,
  addOptions: () => ({ awareness: null, user: { name: '', color: '' } }),
  addProseMirrorPlugins() {
    const { awareness, user } = this.options;
    if (!awareness) return [];
    awareness.setLocalStateField('user', user);
    return [yCursorPlugin(awareness, { cursorBuilder: caret })];
  },
});
