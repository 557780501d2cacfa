import type { NodeJSON } from '@quire/shared/content/json';
import { EditorContent, useEditor } from '@tiptap/react';
import { schemaExtensions } from './schema';

/**
 * A page as the LocalNode last saved it, drawn read-only while the window decodes the
 * branch (a large space takes a few hundred milliseconds). Nothing can be typed into it;
 * the live editor takes its place as soon as the branch is decoded.
 */
export function SavedPage({ title, body }: { title: string; body: NodeJSON }) {
  const editor = useEditor({
    editable: false,
    extensions: schemaExtensions(),
    content: body,
    editorProps: { attributes: { class: 'prose', 'aria-label': 'Page content', 'aria-readonly': 'true' } },
  });
  return (
    <>
      <input className="page-title" aria-label="Page title" placeholder="Untitled" readOnly value={title} />
      <div className="editor is-opening" aria-busy="true" title="Opening…">
        <EditorContent editor={editor} className="editor-content" />
      </div>
    </>
  );
}
