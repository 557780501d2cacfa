import type { Editor } from '@tiptap/core';
import { TextSelection, type Transaction } from '@tiptap/pm/state';
import { tableCellAt } from './tables';

/**
 * Ways out of a code block or a table from the keyboard: ArrowDown on the last line of
 * either goes to the block after it, made as an empty paragraph when there is none (a
 * block at the end of the page could not be left otherwise), and Enter on an empty last
 * line of code leaves the code, that empty line dropped. The code block's bar says so.
 */

export const LEAVE_CODE_HINT = '↓ at the end, or Enter on an empty last line, leaves the code';
export const LEAVE_TABLE_HINT = '↓ in the last row leaves the table';

/** Puts the caret in a new paragraph at `pos` (a position between blocks). */
function paragraphAt(editor: Editor, tr: Transaction, pos: number): boolean {
  const paragraph = editor.schema.nodes.paragraph;
  if (!paragraph) return false;
  tr.insert(pos, paragraph.create());
  tr.setSelection(TextSelection.create(tr.doc, pos + 1));
  editor.view.dispatch(tr.scrollIntoView());
  return true;
}

/** Leaves the block at `depth` of the caret downwards, when nothing follows it in its parent. */
function leaveDown(editor: Editor, depth: number): boolean {
  const { $from } = editor.state.selection;
  const after = $from.after(depth);
  if ($from.index(depth - 1) < $from.node(depth - 1).childCount - 1) return false; // the browser's own ArrowDown gets there
  return paragraphAt(editor, editor.state.tr, after);
}

export function arrowDownOut(editor: Editor): boolean {
  const { selection } = editor.state;
  if (!selection.empty) return false;
  const { $from } = selection;
  if (!editor.view.endOfTextblock('down')) return false;
  if ($from.parent.type.name === 'codeBlock') return leaveDown(editor, $from.depth);
  const cell = tableCellAt($from);
  if (!cell || cell.row !== cell.table.childCount - 1) return false;
  // The caret is in the last textblock of its cell.
  for (let d = $from.depth; d > 0; d--) {
    const name = $from.node(d).type.name;
    if (name === 'tableCell' || name === 'tableHeader') {
      if ($from.index(d) !== $from.node(d).childCount - 1) return false;
      return leaveDown(editor, d - 2);
    }
  }
  return false;
}

export function enterOutOfCode(editor: Editor): boolean {
  const { selection } = editor.state;
  const { $from } = selection;
  const code = $from.parent;
  if (!selection.empty || code.type.name !== 'codeBlock') return false;
  if ($from.parentOffset !== code.content.size || !code.textContent.endsWith('\n')) return false;
  const tr = editor.state.tr.delete($from.pos - 1, $from.pos);
  return paragraphAt(editor, tr, tr.mapping.map($from.after()));
}
