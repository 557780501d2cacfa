import { createPage, deletePage, movePage } from '@quire/shared/content/pages';
import type { PageTreeNode } from '@quire/shared/content/tree';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type * as Y from 'yjs';
import { markCreatedHere, setPageTitle } from '../sync/pageTitles';
import { Icon } from './Icons';
import { type Presence, initials } from './hooks';
import { confirmAction } from './Prompt';
import { notify } from './Toasts';

type DropPlace = 'before' | 'after' | 'inside';

/** Every row has this height (`.tree-row` in the stylesheet): the list is virtualized on it. */
const ROW_HEIGHT = 31;

/**
 * Past this many pages, pages with children start folded, except the way to the open
 * page: a space of a thousand pages opens as quickly as a small one and reads as an outline.
 */
const FOLD_ABOVE = 150;

function countPages(nodes: PageTreeNode[]): number {
  return nodes.reduce((n, node) => n + 1 + countPages(node.children), 0);
}

/** The ids of the pages above `id`. */
export function ancestorsOf(nodes: PageTreeNode[], id: string | null, path: string[] = []): string[] | null {
  if (!id) return null;
  for (const node of nodes) {
    if (node.id === id) return path;
    const found = ancestorsOf(node.children, id, [...path, node.id]);
    if (found) return found;
  }
  return null;
}

function withChildren(nodes: PageTreeNode[], out: string[] = []): string[] {
  for (const node of nodes) {
    if (node.children.length) {
      out.push(node.id);
      withChildren(node.children, out);
    }
  }
  return out;
}

interface VisibleRow {
  node: PageTreeNode;
  depth: number;
  open: boolean;
}

/** The rows on screen if nothing were virtualized: the tree, depth first, folded pages' children left out. */
function visibleRows(nodes: PageTreeNode[], isOpen: (id: string) => boolean, depth = 0, out: VisibleRow[] = []): VisibleRow[] {
  for (const node of nodes) {
    const open = node.children.length > 0 && isOpen(node.id);
    out.push({ node, depth, open });
    if (open) visibleRows(node.children, isOpen, depth + 1, out);
  }
  return out;
}

interface TreeProps {
  doc: Y.Doc;
  tree: PageTreeNode[];
  selected: string | null;
  editable: boolean;
  /** Pages of a space that was never published: their slugs follow their titles. */
  unpublished: boolean;
  presence: Presence[];
  onSelect: (pageId: string) => void;
  /** The element that scrolls the tree (the sidebar's), for virtualization. */
  scrollRef: React.RefObject<HTMLElement | null>;
}

/** What a row can ask of the tree; one stable object, so rows re-render only when their own props change. */
interface RowActions {
  select(id: string): void;
  setOpen(id: string, open: boolean): void;
  rename(id: string | null): void;
  setTitle(id: string, title: string): void;
  addPage(parent: string | null): void;
  remove(node: PageTreeNode): void;
  startDrag(id: string | null): void;
  dragging(): string | null;
  setDrop(drop: { id: string; place: DropPlace } | null): void;
  drop(): { id: string; place: DropPlace } | null;
  move(id: string, target: string, place: DropPlace): void;
}

interface RowProps {
  node: PageTreeNode;
  depth: number;
  open: boolean;
  selected: boolean;
  editable: boolean;
  renaming: boolean;
  isDragging: boolean;
  dropPlace: DropPlace | null;
  here: Presence[] | undefined;
  actions: RowActions;
  doc: Y.Doc;
  top: number;
}

const NO_PRESENCE: Presence[] = [];

const TreeRow = memo(
  function TreeRow({
    node,
    depth,
    open,
    selected,
    editable,
    renaming,
    isDragging,
    dropPlace,
    here = NO_PRESENCE,
    actions,
    doc,
    top,
  }: RowProps) {
    const dropClass = dropPlace ? ` drop-${dropPlace}` : '';
    return (
      <li
        role="treeitem"
        aria-level={depth + 1}
        aria-expanded={node.children.length ? open : undefined}
        aria-selected={selected}
        style={{ transform: `translateY(${top}px)` }}
      >
        <div
          className={`tree-row${selected ? ' is-selected' : ''}${isDragging ? ' is-dragging' : ''}${dropClass}`}
          style={{ paddingLeft: 8 + depth * 16 }}
          draggable={editable && !renaming}
          data-page-id={node.id}
          onDragStart={(e) => {
            actions.startDrag(node.id);
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('application/x-quire-page', node.id);
          }}
          onDragEnd={() => {
            actions.startDrag(null);
            actions.setDrop(null);
          }}
          onDragOver={(e) => {
            const dragging = actions.dragging();
            if (!dragging || dragging === node.id) return;
            e.preventDefault();
            const rect = e.currentTarget.getBoundingClientRect();
            const y = (e.clientY - rect.top) / rect.height;
            const place: DropPlace = y < 0.28 ? 'before' : y > 0.72 ? 'after' : 'inside';
            const current = actions.drop();
            if (current?.id !== node.id || current.place !== place) actions.setDrop({ id: node.id, place });
          }}
          onDragLeave={() => {
            if (actions.drop()?.id === node.id) actions.setDrop(null);
          }}
          onDrop={(e) => {
            e.preventDefault();
            const id = e.dataTransfer.getData('application/x-quire-page') || actions.dragging();
            const drop = actions.drop();
            if (id && drop) actions.move(id, node.id, drop.place);
            actions.startDrag(null);
            actions.setDrop(null);
          }}
          onClick={() => actions.select(node.id)}
          onDoubleClick={() => editable && actions.rename(node.id)}
        >
          <button
            type="button"
            className={`tree-twisty${node.children.length ? '' : ' is-leaf'}`}
            aria-label={open ? 'Collapse' : 'Expand'}
            tabIndex={-1}
            onClick={(e) => {
              e.stopPropagation();
              actions.setOpen(node.id, !open);
            }}
          >
            <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
          </button>
          <span className="tree-icon">{node.emoji ?? <Icon name={node.type === 'group' ? 'folder' : 'page'} size={15} />}</span>
          {renaming ? (
            <input
              className="tree-rename"
              aria-label="Page title"
              defaultValue={node.title}
              autoFocus
              onFocus={(e) => e.target.select()}
              onClick={(e) => e.stopPropagation()}
              onBlur={(e) => {
                const title = e.target.value.trim() || 'Untitled';
                if (title !== node.title) actions.setTitle(node.id, title);
                actions.rename(null);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
                if (e.key === 'Escape') {
                  // Only the renaming ends, not a dialog or panel open beside it.
                  e.stopPropagation();
                  actions.rename(null);
                }
              }}
            />
          ) : (
            <span className="tree-title">{node.title || 'Untitled'}</span>
          )}
          {here.length > 0 && (
            <span className="tree-presence">
              {here.slice(0, 3).map((p) => (
                <span key={p.clientId} className="avatar avatar-xs" style={{ background: p.color }} title={`${p.name} is here`}>
                  {initials(p.name)}
                </span>
              ))}
            </span>
          )}
          {editable && (
            <span className="tree-actions">
              <button
                type="button"
                className="icon-btn"
                title="Add a page inside"
                aria-label="Add a page inside"
                onClick={(e) => {
                  e.stopPropagation();
                  actions.addPage(node.id);
                }}
              >
                <Icon name="plus" size={14} />
              </button>
              <button
                type="button"
                className="icon-btn"
                title="Rename"
                aria-label="Rename"
                onClick={(e) => {
                  e.stopPropagation();
                  actions.rename(node.id);
                }}
              >
                <Icon name="edit" size={14} />
              </button>
              <button
                type="button"
                className="icon-btn"
                title="Delete"
                aria-label="Delete"
                onClick={(e) => {
                  e.stopPropagation();
                  actions.remove(node);
                }}
              >
                <Icon name="trash" size={14} />
              </button>
            </span>
          )}
        </div>
      </li>
    );
  },
  // The tree is rebuilt (new node objects) whenever any page's title, place or icon changes;
  // a row re-renders only when what it shows changed.
  (a, b) =>
    a.node.id === b.node.id &&
    a.node.title === b.node.title &&
    a.node.emoji === b.node.emoji &&
    a.node.type === b.node.type &&
    a.node.children.length === b.node.children.length &&
    a.depth === b.depth &&
    a.open === b.open &&
    a.selected === b.selected &&
    a.editable === b.editable &&
    a.renaming === b.renaming &&
    a.isDragging === b.isDragging &&
    a.dropPlace === b.dropPlace &&
    a.here === b.here &&
    a.top === b.top &&
    a.doc === b.doc,
);

/**
 * The space's pages: click to open, double-click (or the menu) to rename, drag to
 * reorder or nest, add and delete. Every action is one edit of the branch doc through the
 * shared page functions, so it syncs and merges like any other edit.
 *
 * Only the rows in view are in the DOM (a thousand-page space expanded costs what its
 * visible rows cost), and each row is memoized on what it shows.
 */
export const PageTree = memo(function PageTree({ doc, tree, selected, editable, unpublished, presence, onSelect, scrollRef }: TreeProps) {
  // What the writer folded or unfolded; everything else follows the default.
  const [toggled, setToggled] = useState<Map<string, boolean>>(new Map());
  const [allOpen, setAllOpen] = useState<boolean | null>(null);
  const folding = useMemo(() => countPages(tree) > FOLD_ABOVE, [tree]);
  const openPath = useMemo(() => new Set(ancestorsOf(tree, selected) ?? []), [tree, selected]);
  const rows = useMemo(
    () => visibleRows(tree, (id) => toggled.get(id) ?? allOpen ?? (!folding || openPath.has(id))),
    [tree, toggled, allOpen, folding, openPath],
  );
  const expandable = useMemo(() => withChildren(tree).length > 0, [tree]);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [drop, setDropState] = useState<{ id: string; place: DropPlace } | null>(null);
  const live = useRef({ dragging, drop, onSelect, unpublished });
  live.current = { dragging, drop, onSelect, unpublished };

  // Presence per page, as stable arrays: a row re-renders only when who is on its page changes.
  const hereByPage = useMemo(() => {
    const map = new Map<string, Presence[]>();
    for (const p of presence) if (p.page) map.set(p.page, [...(map.get(p.page) ?? []), p]);
    return map;
  }, [presence]);

  const setOpen = useCallback((id: string, open: boolean) => setToggled((t) => new Map(t).set(id, open)), []);
  const actions = useMemo<RowActions>(
    () => ({
      select: (id) => live.current.onSelect(id),
      setOpen,
      rename: setRenaming,
      setTitle: (id, title) => setPageTitle(doc, id, title, live.current.unpublished),
      addPage: (parent) => {
        const id = createPage(doc, { title: 'Untitled', parent, document: { type: 'doc', content: [{ type: 'paragraph' }] } });
        markCreatedHere(doc, id);
        if (parent) setOpen(parent, true);
        live.current.onSelect(id);
        setRenaming(id);
      },
      remove: (node) => {
        const children = node.children.length;
        void confirmAction(
          'Delete page',
          children
            ? `Delete “${node.title || 'Untitled'}” and the ${children} page${children > 1 ? 's' : ''} under it?`
            : `Delete “${node.title || 'Untitled'}”?`,
          'Delete',
          true,
        ).then((ok) => ok && deletePage(doc, node.id));
      },
      startDrag: setDragging,
      dragging: () => live.current.dragging,
      setDrop: setDropState,
      drop: () => live.current.drop,
      move: (id, target, place) => {
        if (id === target) return;
        try {
          if (place === 'inside') movePage(doc, id, { parent: target });
          else movePage(doc, id, place === 'before' ? { before: target } : { after: target });
        } catch (err) {
          notify('error', (err as Error).message);
        }
      },
    }),
    [doc, setOpen],
  );

  // The tree sits below the spaces and the search box in the sidebar's scroll area.
  const listRef = useRef<HTMLUListElement>(null);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const list = listRef.current;
    const scroller = scrollRef.current;
    if (!list || !scroller) return;
    const offset = list.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
    if (Math.abs(offset - margin) > 0.5) setMargin(offset);
  });
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    scrollMargin: margin,
    getItemKey: (i) => rows[i]?.node.id ?? i,
  });

  // The open page's row is brought into view when it is chosen elsewhere (switcher, search, a link).
  useLayoutEffect(() => {
    if (!selected) return;
    const index = rows.findIndex((r) => r.node.id === selected);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
    // biome-ignore lint/correctness/useExhaustiveDependencies: only when the selection changes
  }, [selected]);

  const items = virtualizer.getVirtualItems();
  return (
    <div className="tree">
      {expandable && (
        <div className="tree-tools">
          <button
            type="button"
            className="link-btn small"
            onClick={() => {
              setToggled(new Map());
              setAllOpen(true);
            }}
          >
            Expand all
          </button>
          <button
            type="button"
            className="link-btn small"
            onClick={() => {
              setToggled(new Map());
              setAllOpen(false);
            }}
          >
            Collapse all
          </button>
        </div>
      )}
      <ul ref={listRef} role="tree" aria-label="Pages" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          const id = row.node.id;
          return (
            <TreeRow
              key={id}
              node={row.node}
              depth={row.depth}
              open={row.open}
              selected={selected === id}
              editable={editable}
              renaming={renaming === id}
              isDragging={dragging === id}
              dropPlace={drop?.id === id ? drop.place : null}
              here={hereByPage.get(id)}
              actions={actions}
              doc={doc}
              top={item.start - margin}
            />
          );
        })}
      </ul>
      {tree.length === 0 && <p className="muted small pad">No pages yet.</p>}
      {editable && (
        <button type="button" className="tree-add" onClick={() => actions.addPage(null)}>
          <Icon name="plus" size={15} /> Add a page
        </button>
      )}
    </div>
  );
});
