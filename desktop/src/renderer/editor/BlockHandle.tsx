import type { Editor } from '@tiptap/core';
import type { EditorView } from '@tiptap/pm/view';
import { useEffect, useRef, useState } from 'react';
import { Icon } from '../components/Icons';
import { useEscape } from '../components/escape';
import {
  TURN_INTO,
  canTurnInto,
  deleteTopLevelBlock,
  duplicateTopLevelBlock,
  moveTopLevelBlockBy,
  selectTopLevelBlock,
  turnTopLevelBlockInto,
} from './blockActions';
import { moveTopLevelBlock } from './blockMove';
import { edgeScroller } from './dragScroll';

/** A pointer that moved less than this between press and release clicked the handle. */
const DRAG_THRESHOLD = 4;
const HANDLE_SIZE = 24;

interface Spot {
  index: number;
  top: number;
  left: number;
}

/** The DOM of each top-level block, in page order. */
function blockElements(view: EditorView): HTMLElement[] {
  const { doc } = view.state;
  const out: HTMLElement[] = [];
  for (let i = 0, pos = 0; i < doc.childCount; pos += doc.child(i).nodeSize, i++) {
    const dom = view.nodeDOM(pos);
    if (dom instanceof HTMLElement) out.push(dom);
    else return [];
  }
  return out;
}

/** The top-level block at height `y` (the nearest one in the gaps between blocks), by binary search. */
function blockIndexAt(blocks: HTMLElement[], y: number): number {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (blocks[mid]!.getBoundingClientRect().top <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Where a block dragged to height `y` lands: before the first block whose middle is below it. */
function dropIndexAt(blocks: HTMLElement[], y: number): number {
  const i = blocks.findIndex((b) => {
    const r = b.getBoundingClientRect();
    return y < r.top + r.height / 2;
  });
  return i < 0 ? blocks.length : i;
}

/** Beside the first line of the block: half a line down, less half the handle. */
function handleOffset(block: HTMLElement): number {
  const line = Number.parseFloat(getComputedStyle(block).lineHeight);
  const first = Number.isFinite(line) ? Math.min(line, block.getBoundingClientRect().height) : HANDLE_SIZE;
  return Math.max(0, first / 2 - HANDLE_SIZE / 2);
}

/**
 * The handle (⋮⋮) in the left gutter of the top-level block under the pointer: dragging it
 * moves the block (one transaction, so one undo step, synced like typed text), a click
 * selects the block and opens its menu: move up or down, duplicate, turn into, delete.
 */
export function BlockHandle({ editor }: { editor: Editor }) {
  const [spot, setSpot] = useState<Spot | null>(null);
  const [menu, setMenu] = useState(false);
  const [dropTop, setDropTop] = useState<number | null>(null);
  const drag = useRef<{ from: number; y: number; moved: boolean; scroll: ReturnType<typeof edgeScroller> } | null>(null);
  const justDragged = useRef(false);
  const spotRef = useRef(spot);
  spotRef.current = spot;
  const menuRef = useRef(menu);
  menuRef.current = menu;
  useEscape(menu && (() => setMenu(false)));

  const host = () => editor.view.dom.closest('.editor') as HTMLElement | null;

  useEffect(() => {
    const view = editor.view;
    let frame = 0;
    let last: { x: number; y: number } | null = null;
    const locate = () => {
      frame = 0;
      const editorEl = host();
      if (!last || !editorEl || menuRef.current || drag.current || !editor.isEditable) return;
      const prose = view.dom.getBoundingClientRect();
      const { x, y } = last;
      const near = y >= prose.top && y <= prose.bottom && x >= prose.left - 56 && x <= prose.right;
      if (!near) return spotRef.current && setSpot(null);
      const blocks = blockElements(view);
      if (!blocks.length) return;
      const index = blockIndexAt(blocks, y);
      const block = blocks[index]!;
      const box = editorEl.getBoundingClientRect();
      const top = Math.round(block.getBoundingClientRect().top - box.top + handleOffset(block));
      const left = Math.round(prose.left - box.left - HANDLE_SIZE - 6);
      const was = spotRef.current;
      if (!was || was.index !== index || was.top !== top || was.left !== left) setSpot({ index, top, left });
    };
    const onMove = (e: MouseEvent) => {
      last = { x: e.clientX, y: e.clientY };
      if (!frame) frame = requestAnimationFrame(locate);
    };
    // Typing hides the handle (it would sit over the text being written); the pointer brings it back.
    const onKey = () => !menuRef.current && spotRef.current && setSpot(null);
    window.addEventListener('mousemove', onMove, { passive: true });
    view.dom.addEventListener('keydown', onKey);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('mousemove', onMove);
      view.dom.removeEventListener('keydown', onKey);
    };
  }, [editor]);

  useEffect(() => {
    if (!menu) return;
    const onDown = (e: MouseEvent) => {
      if (!(e.target as Element).closest?.('.block-menu, .block-handle')) setMenu(false);
    };
    window.addEventListener('mousedown', onDown, true);
    return () => window.removeEventListener('mousedown', onDown, true);
  }, [menu]);

  if (!spot || !editor.isEditable) return null;
  const count = editor.state.doc.childCount;
  const index = Math.min(spot.index, count - 1);
  const act = (fn: () => void) => () => {
    setMenu(false);
    setSpot(null);
    fn();
  };

  /** The line where the dragged block would land, for the pointer at height `y`. */
  const showDrop = (y: number) => {
    const blocks = blockElements(editor.view);
    const editorEl = host();
    if (!blocks.length || !editorEl) return;
    const to = dropIndexAt(blocks, y);
    const box = editorEl.getBoundingClientRect();
    const edge =
      to < blocks.length ? blocks[to]!.getBoundingClientRect().top - 4 : blocks[blocks.length - 1]!.getBoundingClientRect().bottom + 4;
    setDropTop(Math.round(edge - box.top));
  };
  const onPointerDown = (e: React.PointerEvent<HTMLButtonElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    // Near the top or bottom edge of what scrolls the page, the page scrolls under the drag.
    drag.current = { from: index, y: e.clientY, moved: false, scroll: edgeScroller(editor.view.dom, showDrop) };
  };
  const onPointerMove = (e: React.PointerEvent) => {
    const d = drag.current;
    if (!d) return;
    if (!d.moved && Math.abs(e.clientY - d.y) < DRAG_THRESHOLD) return;
    d.moved = true;
    setMenu(false);
    showDrop(e.clientY);
    d.scroll.move(e.clientY);
  };
  const onPointerUp = (e: React.PointerEvent) => {
    const d = drag.current;
    drag.current = null;
    d?.scroll.stop();
    setDropTop(null);
    if (!d?.moved) return;
    justDragged.current = true;
    const blocks = blockElements(editor.view);
    if (blocks.length) moveTopLevelBlock(editor, d.from, dropIndexAt(blocks, e.clientY));
    editor.view.focus();
    setSpot(null);
  };

  return (
    <>
      <button
        type="button"
        className={`block-handle${menu ? ' is-open' : ''}`}
        style={{ top: spot.top, left: spot.left }}
        aria-label="Block actions"
        aria-haspopup="menu"
        aria-expanded={menu}
        title="Drag to move · Click for actions"
        onMouseDown={(e) => e.preventDefault()}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          drag.current?.scroll.stop();
          drag.current = null;
          setDropTop(null);
        }}
        onClick={() => {
          if (justDragged.current) return void (justDragged.current = false);
          selectTopLevelBlock(editor, index);
          setMenu((m) => !m);
        }}
      >
        <Icon name="grip" size={16} />
      </button>
      {dropTop !== null && <div className="block-drop-line" style={{ top: dropTop }} aria-hidden />}
      {menu && (
        <div className="menu block-menu" role="menu" aria-label="Block" style={{ top: spot.top + HANDLE_SIZE + 4, left: spot.left }}>
          <MenuItem icon="chevronUp" label="Move up" disabled={index === 0} onClick={act(() => moveTopLevelBlockBy(editor, index, -1))} />
          <MenuItem
            icon="chevronDown"
            label="Move down"
            disabled={index >= count - 1}
            onClick={act(() => moveTopLevelBlockBy(editor, index, 1))}
          />
          <MenuItem icon="plus" label="Duplicate" onClick={act(() => duplicateTopLevelBlock(editor, index))} />
          {canTurnInto(editor, index) && (
            <div role="group" aria-label="Turn into">
              <div className="menu-label">Turn into</div>
              {TURN_INTO.map((kind) => (
                <MenuItem
                  key={kind.id}
                  icon={kind.icon}
                  label={kind.label}
                  onClick={act(() => turnTopLevelBlockInto(editor, index, kind))}
                />
              ))}
            </div>
          )}
          <div className="menu-sep" />
          <MenuItem icon="trash" label="Delete" onClick={act(() => deleteTopLevelBlock(editor, index))} />
        </div>
      )}
    </>
  );
}

function MenuItem({
  icon,
  label,
  disabled,
  onClick,
}: {
  icon: Parameters<typeof Icon>[0]['name'];
  label: string;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      role="menuitem"
      className="menu-item"
      disabled={disabled}
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
    >
      <Icon name={icon} size={16} /> {label}
    </button>
  );
}
