import { type HeadingAnchor, headingAnchors } from '@quire/shared/content/anchors';
import { readBody } from '@quire/shared/content/body';
import { bodyFragment, findPageMap } from '@quire/shared/content/layout';
import type { PageTreeNode } from '@quire/shared/content/tree';
import type { Editor as TiptapEditor, JSONContent } from '@tiptap/core';
import Collaboration from '@tiptap/extension-collaboration';
import Dropcursor from '@tiptap/extension-dropcursor';
import Gapcursor from '@tiptap/extension-gapcursor';
import Placeholder from '@tiptap/extension-placeholder';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type * as Y from 'yjs';
import { Icon, type IconName } from '../components/Icons';
import { useEscape } from '../components/escape';
import type { BranchReplica } from '../sync/BranchReplica';
import { COMMENT_ON_SELECTION } from '../review/commentAnchor';
import { setActiveEditor } from './activeEditor';
import { type PlacedCaret, applyPlacedCaret } from './placedCaret';
import { contractViewExtras } from './contractViews';
import { WritingShortcuts } from './behaviour';
import { BLOCK_CHOICES } from './blocks';
import { CodeHighlight } from './highlight';
import { CommentHighlights } from './commentHighlights';
import { CollaboratorCursors } from './collaboratorCursors';
import { pickImageFiles } from './images';
import { nodeViewExtras } from './nodeViews';
import { PasteHandling, insertFiles } from './paste';
import { BranchFiles } from '../files/fileUrls';
import { call } from '../bridge';
import { schemaExtensions } from './schema';
import { LEAVE_TABLE_HINT } from './leaveBlocks';
import { SlashMenu } from './slashMenu';
import { FindBar } from './FindBar';
import { FindInPage } from './findReplace';
import { PageOutline } from './PageOutline';
import { LinkControl } from './LinkControl';
import { Backlinks } from './Backlinks';
import { FollowLinks, scrollToAnchor } from './followLinks';
import { PageLinks } from './pageLinks';
import { Mentions } from './mentions';
import { membersOf } from './members';
import { BlockHandle } from './BlockHandle';
import { addColumn, addRow, deleteColumn, deleteRow, deleteTable, insertTable, tableCellAt } from './tables';

export interface Collaborator {
  name: string;
  color: string;
}

/** The page body fragment, created when a minimal client wrote the page without one. */
function fragmentOf(doc: Y.Doc, pageId: string): Y.XmlFragment | null {
  const map = findPageMap(doc, pageId);
  return map ? bodyFragment(map, true) : null;
}

/** Toolbar buttons act on the editor's selection: a click must not take the focus from it. */
const keepFocus = (e: React.MouseEvent) => e.preventDefault();

function ToolButton({
  icon,
  label,
  active,
  disabled,
  onClick,
}: {
  icon: IconName;
  label: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={`tool${active ? ' is-active' : ''}`}
      title={label}
      aria-label={label}
      aria-pressed={active}
      disabled={disabled}
      onMouseDown={keepFocus}
      onClick={onClick}
    >
      <Icon name={icon} size={17} />
    </button>
  );
}

/** Inserts `json` after the closest ancestor of type `name` (a new tab, step). */
function addAfterAncestor(editor: TiptapEditor, name: string, json: JSONContent) {
  const { $from } = editor.state.selection;
  for (let d = $from.depth; d > 0; d--) {
    if ($from.node(d).type.name === name) {
      const pos = $from.after(d);
      editor
        .chain()
        .insertContentAt(pos, json)
        .focus(pos + 2)
        .run();
      return;
    }
  }
}

function hasAncestor(editor: TiptapEditor, name: string): boolean {
  const { $from } = editor.state.selection;
  for (let d = $from.depth; d > 0; d--) if ($from.node(d).type.name === name) return true;
  return false;
}

function Toolbar({
  editor,
  pages,
  headingsOf,
}: {
  editor: TiptapEditor;
  pages: PageTreeNode[];
  headingsOf: (pageId: string) => HeadingAnchor[];
}) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      block: e.isActive('heading', { level: 1 })
        ? 'h1'
        : e.isActive('heading', { level: 2 })
          ? 'h2'
          : e.isActive('heading', { level: 3 })
            ? 'h3'
            : e.isActive('codeBlock')
              ? 'code'
              : 'p',
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      strike: e.isActive('strike'),
      code: e.isActive('code'),
      link: e.isActive('link'),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      task: e.isActive('taskList'),
      quote: e.isActive('blockquote'),
      table: !!tableCellAt(e.state.selection.$from),
      tabs: hasAncestor(e, 'tabs'),
      stepper: hasAncestor(e, 'stepper'),
      selection: !e.state.selection.empty,
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
      editable: e.isEditable,
    }),
  });
  const [insertOpen, setInsertOpen] = useState(false);
  useEscape(insertOpen && (() => setInsertOpen(false)));
  const [linkOpen, setLinkOpen] = useState(false);
  if (!state.editable) return null;
  const chain = () => editor.chain().focus();
  const setBlock = (value: string) => {
    if (value === 'p') chain().setNode('paragraph').run();
    else if (value === 'code') chain().toggleNode('codeBlock', 'paragraph').run();
    else
      chain()
        .setNode('heading', { level: Number(value.slice(1)) })
        .run();
  };
  const saveLink = (href: string) => {
    setLinkOpen(false);
    if (!href) chain().extendMarkRange('link').unsetMark('link').run();
    else chain().extendMarkRange('link').setMark('link', { href }).run();
  };
  return (
    <div className="toolbar" role="toolbar" aria-label="Formatting">
      <select className="tool-select" aria-label="Block type" value={state.block} onChange={(e) => setBlock(e.target.value)}>
        <option value="p">Text</option>
        <option value="h1">Heading 1</option>
        <option value="h2">Heading 2</option>
        <option value="h3">Heading 3</option>
        <option value="code">Code</option>
      </select>
      <span className="tool-sep" />
      <ToolButton icon="bold" label="Bold (Ctrl+B)" active={state.bold} onClick={() => chain().toggleMark('bold').run()} />
      <ToolButton icon="italic" label="Italic (Ctrl+I)" active={state.italic} onClick={() => chain().toggleMark('italic').run()} />
      <ToolButton icon="strike" label="Strikethrough" active={state.strike} onClick={() => chain().toggleMark('strike').run()} />
      <ToolButton icon="code" label="Inline code (Ctrl+E)" active={state.code} onClick={() => chain().toggleMark('code').run()} />
      <ToolButton icon="link" label="Link" active={state.link} onClick={() => setLinkOpen(true)} />
      {linkOpen && (
        <LinkControl
          pages={pages}
          current={(editor.getAttributes('link').href as string | undefined) ?? ''}
          headingsOf={headingsOf}
          onSave={saveLink}
          onClose={() => setLinkOpen(false)}
        />
      )}
      <span className="tool-sep" />
      <ToolButton
        icon="list"
        label="Bulleted list"
        active={state.bullet}
        onClick={() => chain().toggleList('bulletList', 'listItem').run()}
      />
      <ToolButton
        icon="orderedList"
        label="Numbered list"
        active={state.ordered}
        onClick={() => chain().toggleList('orderedList', 'listItem').run()}
      />
      <ToolButton icon="taskList" label="Task list" active={state.task} onClick={() => chain().toggleList('taskList', 'taskItem').run()} />
      <ToolButton icon="quote" label="Quote" active={state.quote} onClick={() => chain().toggleWrap('blockquote').run()} />
      <ToolButton
        icon="codeBlock"
        label="Code block"
        active={state.block === 'code'}
        onClick={() => chain().toggleNode('codeBlock', 'paragraph').run()}
      />
      <span className="tool-sep" />
      <ToolButton icon="image" label="Image from a file" onClick={async () => insertFiles(editor, await pickImageFiles())} />
      <ToolButton icon="table" label="Table" onClick={() => insertTable(editor)} />
      <div className="tool-menu">
        <button
          type="button"
          className="tool tool-wide"
          aria-haspopup="menu"
          aria-expanded={insertOpen}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => setInsertOpen((o) => !o)}
        >
          <Icon name="plus" size={16} /> Insert
        </button>
        {insertOpen && (
          <div className="menu" role="menu" onMouseLeave={() => setInsertOpen(false)}>
            {BLOCK_CHOICES.filter((b) => b.node in editor.schema.nodes).map((b) => (
              <button
                key={b.id}
                type="button"
                role="menuitem"
                className="menu-item"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => {
                  setInsertOpen(false);
                  void b.run(editor, pages);
                }}
              >
                <Icon name={b.icon} size={16} /> {b.label}
              </button>
            ))}
          </div>
        )}
      </div>
      <span className="tool-spacer" />
      <ToolButton icon="undo" label="Undo (Ctrl+Z)" disabled={!state.canUndo} onClick={() => chain().undo().run()} />
      <ToolButton icon="redo" label="Redo (Ctrl+Shift+Z)" disabled={!state.canRedo} onClick={() => chain().redo().run()} />
      {/* Tools for where the caret is float below the bar: a second row would push the page down. */}
      {(state.table || state.tabs || state.stepper || state.selection) && (
        <div className="toolbar-context">
          {state.table && (
            <span className="tool-group" role="group" aria-label="Table" title={LEAVE_TABLE_HINT}>
              <button type="button" className="tool tool-text" onMouseDown={keepFocus} onClick={() => addRow(editor, true)}>
                + Row
              </button>
              <button type="button" className="tool tool-text" onMouseDown={keepFocus} onClick={() => addColumn(editor, true)}>
                + Column
              </button>
              <button type="button" className="tool tool-text" onMouseDown={keepFocus} onClick={() => deleteRow(editor)}>
                − Row
              </button>
              <button type="button" className="tool tool-text" onMouseDown={keepFocus} onClick={() => deleteColumn(editor)}>
                − Column
              </button>
              <ToolButton icon="trash" label="Delete table" onClick={() => deleteTable(editor)} />
            </span>
          )}
          {state.tabs && (
            <button
              type="button"
              className="tool tool-text"
              onMouseDown={keepFocus}
              onClick={() =>
                addAfterAncestor(editor, 'tab', { type: 'tab', attrs: { title: 'New tab' }, content: [{ type: 'paragraph' }] })
              }
            >
              + Tab
            </button>
          )}
          {state.stepper && (
            <button
              type="button"
              className="tool tool-text"
              onMouseDown={keepFocus}
              onClick={() => addAfterAncestor(editor, 'step', { type: 'step', content: [{ type: 'paragraph' }] })}
            >
              + Step
            </button>
          )}
          {state.selection && (
            <ToolButton
              icon="comment"
              label="Comment on the selection"
              onClick={() => window.dispatchEvent(new Event(COMMENT_ON_SELECTION))}
            />
          )}
        </div>
      )}
    </div>
  );
}

/** Ctrl+F opens the find bar, Ctrl+H with replace, from anywhere in the window. */
function useFindShortcuts(enabled: boolean) {
  const [open, setOpen] = useState<{ replace: boolean; ask: number } | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      const key = e.key.toLowerCase();
      // Cmd+H hides the app on macOS: replace is Ctrl+H there too.
      if (key !== 'f' && !(key === 'h' && e.ctrlKey)) return;
      e.preventDefault();
      setOpen((o) => ({ replace: key === 'h' || !!o?.replace, ask: (o?.ask ?? 0) + 1 }));
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [enabled]);
  return { open, close: () => setOpen(null) };
}

/**
 * The WYSIWYG editor of one page, bound to the page body's Y.XmlFragment through
 * y-prosemirror (TipTap's Collaboration), with collaborators' cursors from the branch's
 * awareness. Re-created per page (the caller keys it by page id).
 */
export function PageEditor({
  replica,
  pageId,
  user,
  editable,
  pages,
  placedCaret,
  onCaretPlaced,
  anchor,
  onOpenPage,
}: {
  replica: BranchReplica;
  pageId: string;
  user: Collaborator;
  editable: boolean;
  pages: PageTreeNode[];
  /** Where the writer clicked on the saved page before this editor existed: taken over, focused. */
  placedCaret?: PlacedCaret | null;
  onCaretPlaced?: () => void;
  /** A heading to scroll to once the page is drawn (a followed `page:<id>#anchor` link). */
  anchor?: string | null;
  /** Opens another page (and scrolls to a heading of it): a followed link, a backlink. */
  onOpenPage?: (pageId: string, anchor: string | null) => void;
}) {
  const fragment = useMemo(() => fragmentOf(replica.doc, pageId), [replica, pageId]);
  const pagesRef = useRef(pages);
  pagesRef.current = pages;
  const openRef = useRef(onOpenPage);
  openRef.current = onOpenPage;
  const editor = useEditor(
    {
      editable,
      extensions: [
        ...schemaExtensions({ ...nodeViewExtras(), ...contractViewExtras() }),
        WritingShortcuts,
        PasteHandling,
        BranchFiles.configure({ branch: replica.ref }),
        Dropcursor.configure({ color: '#4f46e5', width: 2 }),
        Gapcursor,
        Placeholder.configure({
          placeholder: ({ node }) =>
            node.type.name === 'heading' ? 'Heading' : 'Write, or type markdown: # heading, - list, > quote, ``` code…',
        }),
        SlashMenu.configure({ pages: () => pagesRef.current }),
        PageLinks.configure({ pages: () => pagesRef.current }),
        Mentions.configure({ members: () => membersOf(replica.ref.spaceId) }),
        FollowLinks.configure({ pageId, openPage: (id, at) => openRef.current?.(id, at) }),
        CodeHighlight,
        FindInPage,
        CommentHighlights.configure({ doc: replica.doc, pageId }),
        Collaboration.configure({ fragment }),
        CollaboratorCursors.configure({ awareness: replica.awareness, user }),
      ],
      editorProps: { attributes: { class: 'prose', spellcheck: 'true', 'aria-label': 'Page content' } },
      // The toolbar, find bar and outline follow the editor themselves: the whole page
      // component re-rendering on every keystroke would be work for nothing.
      shouldRerenderOnTransaction: false,
    },
    [fragment],
  );
  useEffect(() => {
    editor?.setEditable(editable);
  }, [editor, editable]);
  useEffect(() => {
    if (!editor || !placedCaret || !editable) return;
    if (applyPlacedCaret(editor, placedCaret)) return void onCaretPlaced?.();
    const retry = () => {
      if (!applyPlacedCaret(editor, placedCaret)) return;
      editor.off('update', retry);
      onCaretPlaced?.();
    };
    editor.on('update', retry);
    return () => {
      editor.off('update', retry);
    };
  }, [editor, placedCaret, editable]);
  useEffect(() => {
    if (!editor || !anchor) return;
    // The body is bound on creation; a heading synced in just after is still scrolled to.
    if (scrollToAnchor(editor, anchor)) return;
    const retry = () => scrollToAnchor(editor, anchor) && editor.off('update', retry);
    editor.on('update', retry);
    return () => {
      editor.off('update', retry);
    };
  }, [editor, anchor]);
  const find = useFindShortcuts(!!editor);
  const headingsOf = (id: string) => {
    const map = findPageMap(replica.doc, id);
    return map ? headingAnchors(readBody(bodyFragment(map, false))) : [];
  };
  useEffect(() => {
    setActiveEditor(editor);
    return () => setActiveEditor(null);
  }, [editor]);
  useEffect(() => {
    // Pages written before files were files hold their images inline: move them out, once.
    if (editable) void call('files.migratePage', { branch: replica.ref, pageId }).catch(() => {});
  }, [replica, pageId, editable]);
  useEffect(() => {
    // Which page this window is on, for the presence shown in the page tree.
    replica.awareness.setLocalStateField('page', pageId);
  }, [replica, pageId]);
  if (!fragment) return <div className="empty-state">This page no longer exists.</div>;
  return (
    <div className="editor">
      {editor && <Toolbar editor={editor} pages={pages} headingsOf={headingsOf} />}
      {editor && find.open && <FindBar editor={editor} replace={find.open.replace} ask={find.open.ask} onClose={find.close} />}
      <EditorContent editor={editor} className="editor-content" />
      {editor && editable && <BlockHandle editor={editor} />}
      {editor && <PageOutline editor={editor} />}
      <Backlinks doc={replica.doc} pageId={pageId} pages={pages} onOpen={(id) => onOpenPage?.(id, null)} />
    </div>
  );
}
