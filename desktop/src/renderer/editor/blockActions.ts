import type { Editor } from '@tiptap/core';
import { NodeSelection } from '@tiptap/pm/state';
import type { IconName } from '../components/Icons';
import { moveTopLevelBlock, topLevelPos } from './blockMove';

/**
 * What the block menu (opened from a block's handle) does to a top-level block, by its
 * index on the page. Each action is one transaction, so one undo step that syncs like
 * typed text.
 */

export function selectTopLevelBlock(editor: Editor, index: number): void {
  const { doc } = editor.state;
  if (index < 0 || index >= doc.childCount) return;
  const tr = editor.state.tr.setSelection(NodeSelection.create(doc, topLevelPos(doc, index)));
  editor.view.dispatch(tr);
  editor.view.focus();
}

export function deleteTopLevelBlock(editor: Editor, index: number): void {
  selectTopLevelBlock(editor, index);
  editor.commands.deleteSelection();
}

export function duplicateTopLevelBlock(editor: Editor, index: number): void {
  const { doc } = editor.state;
  if (index < 0 || index >= doc.childCount) return;
  const at = topLevelPos(doc, index + 1);
  const tr = editor.state.tr.insert(at, doc.child(index));
  editor.view.dispatch(tr.setSelection(NodeSelection.create(tr.doc, at)).scrollIntoView());
  editor.view.focus();
}

export function moveTopLevelBlockBy(editor: Editor, index: number, dir: -1 | 1): void {
  moveTopLevelBlock(editor, index, dir < 0 ? index - 1 : index + 2);
  editor.view.focus();
}

export interface TurnInto {
  id: string;
  label: string;
  icon: IconName;
  /** Runs with the caret inside the block. */
  run(editor: Editor): boolean;
}

/** The kinds a text block (paragraph, heading, code) can become. */
export const TURN_INTO: TurnInto[] = [
  { id: 'paragraph', label: 'Text', icon: 'page', run: (e) => e.commands.setNode('paragraph') },
  { id: 'h1', label: 'Heading 1', icon: 'heading', run: (e) => e.commands.setNode('heading', { level: 1 }) },
  { id: 'h2', label: 'Heading 2', icon: 'heading', run: (e) => e.commands.setNode('heading', { level: 2 }) },
  { id: 'h3', label: 'Heading 3', icon: 'heading', run: (e) => e.commands.setNode('heading', { level: 3 }) },
  { id: 'bulletList', label: 'Bulleted list', icon: 'list', run: (e) => e.commands.toggleList('bulletList', 'listItem') },
  { id: 'orderedList', label: 'Numbered list', icon: 'orderedList', run: (e) => e.commands.toggleList('orderedList', 'listItem') },
  { id: 'blockquote', label: 'Quote', icon: 'quote', run: (e) => e.commands.toggleWrap('blockquote') },
  { id: 'codeBlock', label: 'Code block', icon: 'codeBlock', run: (e) => e.commands.setNode('codeBlock') },
];

/** Whether the block can be turned into another kind: text blocks only (a table cannot become a heading). */
export function canTurnInto(editor: Editor, index: number): boolean {
  const { doc } = editor.state;
  return index >= 0 && index < doc.childCount && doc.child(index).isTextblock;
}

export function turnTopLevelBlockInto(editor: Editor, index: number, kind: TurnInto): void {
  if (!canTurnInto(editor, index)) return;
  const start = topLevelPos(editor.state.doc, index);
  const size = editor.state.doc.child(index).nodeSize;
  // The whole block's text selected: the command turns that one block, and the caret stays in it.
  editor.commands.setTextSelection({ from: start + 1, to: start + size - 1 });
  kind.run(editor);
  editor.view.focus();
}
