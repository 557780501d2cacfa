import { setPageDocument } from '@quire/shared/content/body';
import type { NodeJSON } from '@quire/shared/content/json';
import { PageKey, findPageMap } from '@quire/shared/content/layout';
import { updatePage } from '@quire/shared/content/pages';
import { markPageRestored } from '@quire/shared/content/restores';
import { yUndoPluginKey, ySyncPluginKey } from 'y-prosemirror';
import * as Y from 'yjs';
import { activeEditor } from './activeEditor';

/** Origin of a restore written through the page's editor: its undo manager tracks it. */
const RESTORE = Symbol('restore');

/**
 * Makes the page read as it did in a revision, written by the editor that shows it: one
 * Yjs transaction (title, body, and the restore mark the server records it by) that is one
 * step of that editor's undo, so Ctrl+Z brings back the text from before the restore.
 * False when no editor shows this page here (the caller restores another way).
 */
export function restoreInEditor(
  doc: Y.Doc,
  pageId: string,
  old: { title: string; body: NodeJSON },
  mark: { revision: string; by: string },
): boolean {
  const editor = activeEditor();
  const page = findPageMap(doc, pageId);
  const sync = editor && (ySyncPluginKey.getState(editor.state) as { type?: unknown } | undefined);
  const undo = editor && (yUndoPluginKey.getState(editor.state) as { undoManager?: Y.UndoManager } | undefined)?.undoManager;
  if (!editor || !page || !undo || !sync || sync.type !== page.get(PageKey.body)) return false;
  const title = page.get(PageKey.title);
  // The title is undone with the body; typed titles (another origin) stay out of this undo.
  if (title instanceof Y.Text) undo.addToScope(title);
  undo.addTrackedOrigin(RESTORE);
  undo.stopCapturing();
  doc.transact(() => {
    setPageDocument(doc, pageId, old.body);
    updatePage(doc, pageId, { title: old.title });
    markPageRestored(doc, pageId, { ...mark, at: new Date().toISOString() });
  }, RESTORE);
  // Typing right after is a step of its own, not part of the restore.
  undo.stopCapturing();
  editor.commands.focus();
  return true;
}
