import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';

const ITEMS = new Set(['listItem', 'taskItem']);

/**
 * Alt+Shift+Up/Down: moves the blocks the selection touches (list items inside a list,
 * else blocks at the top of the page) past the block before or after them, in one
 * transaction (one undo step); the selection goes along.
 */
export function moveBlock(editor: Editor, dir: -1 | 1): boolean {
  const { state } = editor;
  const { $from, $to, anchor, head } = state.selection;
  if ($from.depth < 1) return true;
  let depth = 1;
  for (let d = $from.depth; d > 0; d--) {
    if (ITEMS.has($from.node(d).type.name)) {
      depth = d;
      break;
    }
  }
  const parent = $from.node(depth - 1);
  const first = $from.index(depth - 1);
  const sameParent = $to.depth >= depth && $to.start(depth - 1) === $from.start(depth - 1);
  const last = sameParent ? $to.index(depth - 1) : first;
  const target = dir < 0 ? first - 1 : last + 1;
  // At the edge the keys do nothing rather than move the caret.
  if (target < 0 || target >= parent.childCount) return true;
  const start = $from.before(depth);
  let end = start;
  for (let i = first; i <= last; i++) end += parent.child(i).nodeSize;
  const moved = state.doc.slice(start, end).content;
  const sibling = parent.child(target);
  const tr = state.tr;
  let shift: number;
  if (dir < 0) {
    tr.delete(start, end);
    tr.insert(start - sibling.nodeSize, moved);
    shift = -sibling.nodeSize;
  } else {
    tr.insert(end + sibling.nodeSize, moved);
    tr.delete(start, end);
    shift = sibling.nodeSize;
  }
  const inside = (p: number) => p >= start && p <= end;
  const selection =
    inside(anchor) && inside(head)
      ? TextSelection.create(tr.doc, anchor + shift, head + shift)
      : TextSelection.near(tr.doc.resolve(Math.min(start + shift + 1, tr.doc.content.size)));
  editor.view.dispatch(tr.setSelection(selection).scrollIntoView());
  return true;
}
