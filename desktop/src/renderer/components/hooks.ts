import { pagesMap } from '@quire/shared/content/layout';
import { buildTreeIndex, type PageTreeNode, pageTree, treeFromIndex } from '@quire/shared/content/tree';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { BranchView } from '../../common/branchView';
import type { BranchRef, Catalog, SyncStatus } from '../../common/ipc';
import { bridge, call } from '../bridge';
import { BranchReplica } from '../sync/BranchReplica';
import { notify } from './Toasts';

export function useSyncStatus(): SyncStatus | null {
  const [status, setStatus] = useState<SyncStatus | null>(null);
  useEffect(() => {
    let alive = true;
    // The LocalNode tells after every saved edit, mostly the same status: an unchanged one
    // would still cost a render and a commit of the footer per keystroke.
    let last = '';
    const take = (s: SyncStatus) => {
      const json = JSON.stringify(s);
      if (json === last) return;
      last = json;
      setStatus(s);
    };
    void call('sync.status', {}).then((s) => alive && take(s));
    const off = bridge.on('status', take);
    return () => {
      alive = false;
      off();
    };
  }, []);
  return status;
}

export function useCatalog(refreshOnMount: boolean): Catalog | null {
  const [catalog, setCatalog] = useState<Catalog | null>(null);
  useEffect(() => {
    let alive = true;
    const load = () => void call('catalog.get', {}).then((c) => alive && setCatalog(c));
    load();
    if (refreshOnMount)
      void call('catalog.refresh', {})
        .then((c) => alive && setCatalog(c))
        .catch(() => {});
    const off = bridge.on('catalog.changed', load);
    return () => {
      alive = false;
      off();
    };
  }, [refreshOnMount]);
  return catalog;
}

/**
 * Opens the window's replica of a branch while the branch is selected. Until it is open,
 * `view` holds what the LocalNode saved to draw the branch from (when it had it).
 */
export function useReplica(ref: BranchRef | null): { replica: BranchReplica | null; view: BranchView | null; error: string | null } {
  const [replica, setReplica] = useState<BranchReplica | null>(null);
  const [view, setView] = useState<BranchView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = ref ? `${ref.spaceId}/${ref.changeRequestId ?? ''}` : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key is the branch identity
  useEffect(() => {
    if (!ref) {
      setReplica(null);
      return;
    }
    let alive = true;
    let opened: BranchReplica | null = null;
    setReplica(null);
    setView(null);
    setError(null);
    BranchReplica.open(ref, (v) => alive && setView(v))
      .then((r) => {
        opened = r;
        if (alive) {
          setReplica(r);
          setView(null);
        } else void r.close();
      })
      .catch((err: Error) => {
        if (alive) setError(err.message);
        notify('error', err.message);
      });
    return () => {
      alive = false;
      if (opened) void opened.close();
    };
  }, [key]);
  return { replica, view: replica ? null : view, error };
}

const NO_PAGES: PageTreeNode[] = [];

/**
 * The branch's page tree, recomputed (once a frame at most) whenever pages change; built
 * from the saved view while the replica is still opening. Computed while rendering, so the
 * first frame of a branch (or of its view) already shows its pages. When the replica takes
 * over from the view, the view's tree is kept for that frame (the view describes the state
 * the replica decoded) and the doc's own tree follows in the next one: the frame that makes
 * the page editable does not also walk every page.
 */
export function usePageTree(replica: BranchReplica | null, view: BranchView | null = null): PageTreeNode[] {
  const fromView = useRef<PageTreeNode[] | null>(null);
  const initial = useMemo(() => {
    if (replica) {
      const drawn = fromView.current;
      fromView.current = null;
      return drawn ?? pageTree(replica.doc);
    }
    fromView.current = view ? treeFromIndex(buildTreeIndex(new Map(view.pages.map((p) => [p.id, p])))) : null;
    return fromView.current ?? NO_PAGES;
  }, [replica, view]);
  const [latest, setLatest] = useState<{ from: PageTreeNode[]; tree: PageTreeNode[] } | null>(null);
  useEffect(() => {
    if (!replica) return;
    const pages = pagesMap(replica.doc);
    let frame = 0;
    const recompute = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        setLatest({ from: initial, tree: pageTree(replica.doc) });
      });
    };
    // Only tree-shaping keys matter (a title typed in its Y.Text included); body keystrokes
    // (deep in `body`) are skipped cheaply.
    const observer = (events: { path: unknown[]; changes: { keys: Map<string, unknown> } }[]) => {
      for (const e of events) {
        if (e.path.length === 0) return recompute();
        if (e.path.length === 1) {
          for (const k of e.changes.keys.keys()) if (k !== 'body') return recompute();
        }
        if (e.path.length === 2 && e.path[1] === 'title') return recompute();
      }
    };
    pages.observeDeep(observer as never);
    // Taken from the view: an update that arrived while the state was on its way is in the doc only.
    if (replica.openedFromView) recompute();
    return () => {
      pages.unobserveDeep(observer as never);
      cancelAnimationFrame(frame);
    };
  }, [replica, initial]);
  return latest?.from === initial ? latest.tree : initial;
}

export interface Presence {
  clientId: number;
  name: string;
  color: string;
  page: string | null;
}

/** Who else is in this branch, and on which page. */
export function usePresence(replica: BranchReplica | null): Presence[] {
  const [people, setPeople] = useState<Presence[]>([]);
  useEffect(() => {
    if (!replica) {
      setPeople([]);
      return;
    }
    let last = '';
    const read = () => {
      const out: Presence[] = [];
      replica.awareness.getStates().forEach((state, clientId) => {
        if (clientId === replica.doc.clientID) return;
        const user = (state as { user?: { name?: string; color?: string }; page?: string }).user;
        if (!user?.name) return;
        out.push({ clientId, name: user.name, color: user.color ?? '#64748b', page: (state as { page?: string }).page ?? null });
      });
      // Cursors move on every keystroke; who is where changes rarely. Re-render only for the latter.
      const key = JSON.stringify(out);
      if (key === last) return;
      last = key;
      setPeople(out);
    };
    read();
    replica.awareness.on('change', read);
    return () => replica.awareness.off('change', read);
  }, [replica]);
  return people;
}

/** A stable colour per person, readable on white. */
export function colorFor(seed: string): string {
  const palette = ['#4f46e5', '#0891b2', '#16a34a', '#d97706', '#db2777', '#7c3aed', '#dc2626', '#0d9488'];
  let h = 0;
  for (const ch of seed) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return palette[h % palette.length] as string;
}

export function initials(name: string): string {
  const parts = name
    .trim()
    .split(/[\s@._-]+/)
    .filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts[1]?.[0] ?? '')).toUpperCase();
}

/** "just now", "5 min ago", "Mar 3". */
export function timeAgo(iso: string): string {
  const ms = Date.now() - new Date(iso).getTime();
  if (ms < 60_000) return 'just now';
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ago`;
  if (ms < 86_400_000) return `${Math.floor(ms / 3_600_000)} h ago`;
  return new Date(iso).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}
