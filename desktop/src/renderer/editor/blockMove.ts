import type { Editor } from '@tiptap/core';
import type { Fragment, Node as PMNode } from '@tiptap/pm/model';
import { NodeSelection, TextSelection, type Transaction } from '@tiptap/pm/state';

const ITEMS = new Set(['listItem', 'taskItem']);

/**
 * Moves `content` (the range start..end) to `insertAt`, a position outside the range in the
 * same document, within `tr`: one transaction, so one undo step and one sync update.
 * Returns where the moved content starts afterwards.
 */
function moveRange(tr: Transaction, start: number, end: number, insertAt: number, content: Fragment | PMNode): number {
  if (insertAt < start) {
    tr.delete(start, end);
    tr.insert(insertAt, content);
    return insertAt;
  }
  tr.insert(insertAt, content);
  tr.delete(start, end);
  return insertAt - (end - start);
}

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
  const insertAt = dir < 0 ? start - sibling.nodeSize : end + sibling.nodeSize;
  const shift = moveRange(tr, start, end, insertAt, moved) - start;
  const inside = (p: number) => p >= start && p <= end;
  const selection =
    inside(anchor) && inside(head)
      ? TextSelection.create(tr.doc, anchor + shift, head + shift)
      : TextSelection.near(tr.doc.resolve(Math.min(start + shift + 1, tr.doc.content.size)));
  editor.view.dispatch(tr.setSelection(selection).scrollIntoView());
  return true;
}

/** Where the top-level block number `index` starts (`childCount`: the end of the page). */
export function topLevelPos(doc: PMNode, index: number): number {
  let pos = 0;
  for (let i = 0; i < index && i < doc.childCount; i++) pos += doc.child(i).nodeSize;
  return pos;
}

/**
 * Moves the top-level block number `from` to just before the block now numbered `to`
 * (`childCount`: to the end), in one transaction; the moved block ends up selected.
 * Dragging a block by its handle and the block menu's Move up/down both come here.
 */
export function moveTopLevelBlock(editor: Editor, from: number, to: number): boolean {
  const { doc } = editor.state;
  if (from < 0 || from >= doc.childCount || to < 0 || to > doc.childCount || to === from || to === from + 1) return false;
  const node = doc.child(from);
  const start = topLevelPos(doc, from);
  const tr = editor.state.tr;
  const at = moveRange(tr, start, start + node.nodeSize, topLevelPos(doc, to), node);
  editor.view.dispatch(tr.setSelection(NodeSelection.create(tr.doc, at)).scrollIntoView());
  return true;
}
