import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';

const ITEMS = new Set(['listItem', 'taskItem']);

/**
 * Alt+Shift+Up/Down: swaps the block holding the caret (a list item inside a list, else the
 * block at the top of the page) with the one before or after it, in one transaction (one
 * undo step); the caret goes along.
 */
export function moveBlock(editor: Editor, dir: -1 | 1): boolean {
  const { state } = editor;
  const { $from, anchor, head } = state.selection;
  if ($from.depth < 1) return true;
  let depth = 1;
  for (let d = $from.depth; d > 0; d--) {
    if (ITEMS.has($from.node(d).type.name)) {
      depth = d;
      break;
    }
  }
  const index = $from.index(depth - 1);
  const parent = $from.node(depth - 1);
  const target = index + dir;
  // At the edge the keys do nothing rather than move the caret.
  if (target < 0 || target >= parent.childCount) return true;
  const node = $from.node(depth);
  const sibling = parent.child(target);
  const start = $from.before(depth);
  const tr = state.tr;
  let shift: number;
  if (dir < 0) {
    tr.delete(start, start + node.nodeSize);
    tr.insert(start - sibling.nodeSize, node);
    shift = -sibling.nodeSize;
  } else {
    tr.insert(start + node.nodeSize + sibling.nodeSize, node);
    tr.delete(start, start + node.nodeSize);
    shift = sibling.nodeSize;
  }
  const end = start + node.nodeSize;
  const inside = (p: number) => p >= start && p <= end;
  const selection =
    inside(anchor) && inside(head)
      ? TextSelection.create(tr.doc, anchor + shift, head + shift)
      : TextSelection.near(tr.doc.resolve(Math.min(start + shift + 1, tr.doc.content.size)));
  editor.view.dispatch(tr.setSelection(selection).scrollIntoView());
  return true;
}
