import type { NodeJSON } from '@quire/shared/content/json';
import { EditorContent, useEditor } from '@tiptap/react';
import type { BranchRef } from '../../common/ipc';
import { BranchFiles } from '../files/fileUrls';
import { contractViewExtras } from './contractViews';
import { nodeViewExtras } from './nodeViews';
import type { PlacedCaret } from './placedCaret';
import { schemaExtensions } from './schema';

/**
 * A page as the LocalNode last saved it, drawn read-only while the window decodes the
 * branch (a large space takes a few hundred milliseconds). Nothing can be typed into it;
 * the live editor takes its place as soon as the branch is decoded. Where the writer
 * clicked (or what they selected) meanwhile is handed over to it (`onPlaceCaret`): the
 * saved body is the live page's body, so its positions hold there.
 */
export function SavedPage({
  branch,
  title,
  body,
  onPlaceCaret,
}: {
  branch: BranchRef;
  title: string;
  body: NodeJSON;
  onPlaceCaret?: (caret: PlacedCaret) => void;
}) {
  const editor = useEditor({
    editable: false,
    // Drawn by the live editor's own views: images show from the file's bytes (a placeholder until then).
    extensions: [...schemaExtensions({ ...nodeViewExtras(), ...contractViewExtras() }), BranchFiles.configure({ branch })],
    content: body,
    editorProps: { attributes: { class: 'prose', 'aria-label': 'Page content', 'aria-readonly': 'true' } },
  });
  const place = (e: React.MouseEvent) => {
    const view = editor?.view;
    if (!view || !onPlaceCaret) return;
    const selection = window.getSelection();
    if (selection && !selection.isCollapsed && selection.anchorNode && selection.focusNode && view.dom.contains(selection.anchorNode)) {
      try {
        onPlaceCaret({
          anchor: view.posAtDOM(selection.anchorNode, selection.anchorOffset),
          head: view.posAtDOM(selection.focusNode, selection.focusOffset),
        });
        return;
      } catch {
        // A selection ending outside the text: placed at the click instead.
      }
    }
    const at = view.posAtCoords({ left: e.clientX, top: e.clientY });
    if (at) onPlaceCaret({ anchor: at.pos, head: at.pos });
  };
  return (
    <>
      <input className="page-title" aria-label="Page title" placeholder="Untitled" readOnly value={title} />
      <div className="editor is-opening" aria-busy="true" title="Opening…" onMouseUp={place}>
        <EditorContent editor={editor} className="editor-content" />
      </div>
    </>
  );
}
