import { EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useState } from 'react';
import type { BranchRef, ComputedPageView } from '../../common/ipc';
import { call } from '../bridge';
import { BranchFiles } from '../files/fileUrls';
import { contractViewExtras } from './contractViews';
import { nodeViewExtras } from './nodeViews';
import { schemaExtensions } from './schema';

/** Whether a page's body is computed (its `computed` definition names a known type). */
export function isComputedPage(page: { computed: unknown }): boolean {
  const c = page.computed as { type?: unknown } | null;
  return !!c && c.type === 'builtin:openapi';
}

/**
 * A computed page (`builtin:openapi`): the operations of an OpenAPI spec, rendered by the
 * server and shown read-only with the editor's own schema, so it looks like any page.
 * Edited through its spec, not here.
 */
export function ComputedPage({ branch, pageId }: { branch: BranchRef; pageId: string }) {
  const [view, setView] = useState<ComputedPageView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const editor = useEditor(
    {
      editable: false,
      extensions: [...schemaExtensions({ ...nodeViewExtras(), ...contractViewExtras() }), BranchFiles.configure({ branch })],
      editorProps: { attributes: { class: 'prose', 'aria-label': 'Page content' } },
    },
    [branch.spaceId, branch.changeRequestId],
  );
  useEffect(() => {
    let alive = true;
    setView(null);
    setError(null);
    call('pages.computed', { branch, pageId })
      .then((v) => alive && setView(v))
      .catch((err: Error) => alive && setError(err.message));
    return () => {
      alive = false;
    };
  }, [branch.spaceId, branch.changeRequestId, pageId]);
  useEffect(() => {
    if (editor && view?.document) editor.commands.setContent(view.document);
  }, [editor, view]);
  const note = error ?? view?.reason ?? (view ? null : 'Loading the operations of the API…');
  return (
    <div className="editor computed-page">
      <p className="computed-note">Generated from an OpenAPI specification of the organization.</p>
      {note && <p className="empty-state">{note}</p>}
      {view?.document && <EditorContent editor={editor} className="editor-content" />}
    </div>
  );
}
