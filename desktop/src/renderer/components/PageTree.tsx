import { createPage, deletePage, movePage, updatePage } from '@quire/shared/content/pages';
import type { PageTreeNode } from '@quire/shared/content/tree';
import { useMemo, useState } from 'react';
import type * as Y from 'yjs';
import { Icon } from './Icons';
import { type Presence, initials } from './hooks';
import { confirmAction } from './Prompt';
import { notify } from './Toasts';

type DropPlace = 'before' | 'after' | 'inside';

/**
 * Past this many pages, pages with children start folded, except the way to the open
 * page: a space of a thousand pages opens as quickly as a small one and reads as an outline.
 */
const FOLD_ABOVE = 150;

function countPages(nodes: PageTreeNode[]): number {
  return nodes.reduce((n, node) => n + 1 + countPages(node.children), 0);
}

/** The ids of the pages above `id`. */
function ancestorsOf(nodes: PageTreeNode[], id: string | null, path: string[] = []): string[] | null {
  if (!id) return null;
  for (const node of nodes) {
    if (node.id === id) return path;
    const found = ancestorsOf(node.children, id, [...path, node.id]);
    if (found) return found;
  }
  return null;
}

interface TreeProps {
  doc: Y.Doc;
  tree: PageTreeNode[];
  selected: string | null;
  editable: boolean;
  presence: Presence[];
  onSelect: (pageId: string) => void;
}

/**
 * The space's pages: click to open, double-click (or the menu) to rename, drag to
 * reorder or nest, add and delete. Every action is one edit of the branch doc through the
 * shared page functions, so it syncs and merges like any other edit.
 */
export function PageTree({ doc, tree, selected, editable, presence, onSelect }: TreeProps) {
  // What the writer folded or unfolded; everything else follows the default.
  const [toggled, setToggled] = useState<Map<string, boolean>>(new Map());
  const folding = useMemo(() => countPages(tree) > FOLD_ABOVE, [tree]);
  const openPath = useMemo(() => new Set(ancestorsOf(tree, selected) ?? []), [tree, selected]);
  const isOpen = (id: string) => toggled.get(id) ?? (!folding || openPath.has(id));
  const setOpen = (id: string, open: boolean) => setToggled((t) => new Map(t).set(id, open));
  const [renaming, setRenaming] = useState<string | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [drop, setDrop] = useState<{ id: string; place: DropPlace } | null>(null);

  const addPage = (parent: string | null) => {
    const id = createPage(doc, { title: 'Untitled', parent, document: { type: 'doc', content: [{ type: 'paragraph' }] } });
    if (parent) setOpen(parent, true);
    onSelect(id);
    setRenaming(id);
  };

  const move = (id: string, target: string, place: DropPlace) => {
    if (id === target) return;
    try {
      if (place === 'inside') movePage(doc, id, { parent: target });
      else movePage(doc, id, place === 'before' ? { before: target } : { after: target });
    } catch (err) {
      notify('error', (err as Error).message);
    }
  };

  const remove = async (node: PageTreeNode) => {
    const children = node.children.length;
    const ok = await confirmAction(
      'Delete page',
      children
        ? `Delete “${node.title || 'Untitled'}” and the ${children} page${children > 1 ? 's' : ''} under it?`
        : `Delete “${node.title || 'Untitled'}”?`,
      'Delete',
      true,
    );
    if (ok) deletePage(doc, node.id);
  };

  const row = (node: PageTreeNode, depth: number) => {
    const open = isOpen(node.id);
    const here = presence.filter((p) => p.page === node.id);
    const dropClass = drop?.id === node.id ? ` drop-${drop.place}` : '';
    return (
      <li key={node.id} role="treeitem" aria-expanded={node.children.length ? open : undefined} aria-selected={selected === node.id}>
        <div
          className={`tree-row${selected === node.id ? ' is-selected' : ''}${dragging === node.id ? ' is-dragging' : ''}${dropClass}`}
          style={{ paddingLeft: 8 + depth * 16 }}
          draggable={editable && renaming !== node.id}
          data-page-id={node.id}
          onDragStart={(e) => {
            setDragging(node.id);
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('application/x-quire-page', node.id);
          }}
          onDragEnd={() => {
            setDragging(null);
            setDrop(null);
          }}
          onDragOver={(e) => {
            if (!dragging || dragging === node.id) return;
            e.preventDefault();
            const rect = e.currentTarget.getBoundingClientRect();
            const y = (e.clientY - rect.top) / rect.height;
            const place: DropPlace = y < 0.28 ? 'before' : y > 0.72 ? 'after' : 'inside';
            if (drop?.id !== node.id || drop.place !== place) setDrop({ id: node.id, place });
          }}
          onDragLeave={() => setDrop((d) => (d?.id === node.id ? null : d))}
          onDrop={(e) => {
            e.preventDefault();
            const id = e.dataTransfer.getData('application/x-quire-page') || dragging;
            if (id && drop) move(id, node.id, drop.place);
            setDragging(null);
            setDrop(null);
          }}
          onClick={() => onSelect(node.id)}
          onDoubleClick={() => editable && setRenaming(node.id)}
        >
          <button
            type="button"
            className={`tree-twisty${node.children.length ? '' : ' is-leaf'}`}
            aria-label={open ? 'Collapse' : 'Expand'}
            tabIndex={-1}
            onClick={(e) => {
              e.stopPropagation();
              setOpen(node.id, !open);
            }}
          >
            <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
          </button>
          <span className="tree-icon">{node.emoji ?? <Icon name={node.type === 'group' ? 'folder' : 'page'} size={15} />}</span>
          {renaming === node.id ? (
            <input
              className="tree-rename"
              aria-label="Page title"
              defaultValue={node.title}
              autoFocus
              onFocus={(e) => e.target.select()}
              onClick={(e) => e.stopPropagation()}
              onBlur={(e) => {
                const title = e.target.value.trim() || 'Untitled';
                if (title !== node.title) updatePage(doc, node.id, { title });
                setRenaming(null);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
                if (e.key === 'Escape') setRenaming(null);
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
                  addPage(node.id);
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
                  setRenaming(node.id);
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
                  void remove(node);
                }}
              >
                <Icon name="trash" size={14} />
              </button>
            </span>
          )}
        </div>
        {open && node.children.length > 0 && <ul role="group">{node.children.map((child) => row(child, depth + 1))}</ul>}
      </li>
    );
  };

  return (
    <div className="tree">
      <ul role="tree" aria-label="Pages">
        {tree.map((node) => row(node, 0))}
      </ul>
      {tree.length === 0 && <p className="muted small pad">No pages yet.</p>}
      {editable && (
        <button type="button" className="tree-add" onClick={() => addPage(null)}>
          <Icon name="plus" size={15} /> Add a page
        </button>
      )}
    </div>
  );
}
