import type { PageTreeNode } from '@quire/shared/content/tree';
import { memo, useEffect, useRef, useState } from 'react';
import * as Y from 'yjs';
import type { BranchRef, Catalog, SearchHit, SessionState, SpaceSummary } from '../../common/ipc';
import { call } from '../bridge';
import type { BranchReplica } from '../sync/BranchReplica';
import { Icon } from './Icons';
import { PageTree } from './PageTree';
import type { Presence } from './hooks';
import { SidebarResizer } from './SidebarResizer';
import { SyncStatusBar } from './SyncStatusBar';

/** The tree's doc while the branch is drawn from its saved view: nothing edits it (the tree is read-only then). */
const OPENING = new Y.Doc();

function SpaceRow({ space, active, onOpen }: { space: SpaceSummary; active: boolean; onOpen: () => void }) {
  return (
    <button type="button" className={`space-row${active ? ' is-active' : ''}`} onClick={onOpen} data-space-id={space.id}>
      <span className="space-emoji">{space.emoji ?? <Icon name="logo" size={15} />}</span>
      <span className="space-title">{space.title}</span>
      {space.syncState === 'publishing' && <span className="badge badge-muted">Publishing</span>}
      {space.syncState === 'local' && (
        <span className="space-local" title="On this device only">
          <Icon name="laptop" size={13} />
        </span>
      )}
    </button>
  );
}

function SpacesSection({
  catalog,
  currentSpace,
  onOpen,
  onNewSpace,
  expanded,
  setExpanded,
}: {
  catalog: Catalog;
  currentSpace: SpaceSummary | null;
  onOpen: (spaceId: string) => void;
  onNewSpace: () => void;
  expanded: boolean;
  setExpanded: (v: boolean) => void;
}) {
  return (
    <section className="side-section">
      <div className="side-heading">
        <button type="button" className="side-toggle" onClick={() => setExpanded(!expanded)} aria-expanded={expanded}>
          <Icon name={expanded ? 'chevronDown' : 'chevronRight'} size={13} /> Spaces
        </button>
        <button type="button" className="icon-btn" title="New space" aria-label="New space" onClick={onNewSpace}>
          <Icon name="plus" size={15} />
        </button>
      </div>
      {!expanded && currentSpace && <SpaceRow space={currentSpace} active onOpen={() => setExpanded(true)} />}
      {expanded && (
        <div className="spaces">
          {catalog.organizations.map((org) => {
            const roots = org.spaces.filter((s) => !s.collectionId || !org.collections.some((c) => c.id === s.collectionId));
            return (
              <div key={org.id} className="org">
                <div className="org-title">{org.title}</div>
                {org.collections.map((col) => {
                  const spaces = org.spaces.filter((s) => s.collectionId === col.id);
                  if (!spaces.length) return null;
                  return (
                    <div key={col.id} className="collection">
                      <div className="collection-title">
                        <Icon name="collection" size={14} /> {col.title}
                      </div>
                      {spaces.map((s) => (
                        <SpaceRow key={s.id} space={s} active={s.id === currentSpace?.id} onOpen={() => onOpen(s.id)} />
                      ))}
                    </div>
                  );
                })}
                {roots.map((s) => (
                  <SpaceRow key={s.id} space={s} active={s.id === currentSpace?.id} onOpen={() => onOpen(s.id)} />
                ))}
                {org.spaces.length === 0 && <p className="muted small pad-x">No spaces yet.</p>}
              </div>
            );
          })}
          {catalog.localSpaces.length > 0 && (
            <div className="org">
              <div className="org-title">On this device</div>
              {catalog.localSpaces.map((s) => (
                <SpaceRow key={s.id} space={s} active={s.id === currentSpace?.id} onOpen={() => onOpen(s.id)} />
              ))}
            </div>
          )}
          {catalog.organizations.length === 0 && catalog.localSpaces.length === 0 && (
            <button type="button" className="empty-cta" onClick={onNewSpace}>
              <Icon name="plus" size={15} /> Create your first space
            </button>
          )}
        </div>
      )}
    </section>
  );
}

function SearchBox({ branch, onOpen }: { branch: BranchRef; onOpen: (pageId: string) => void }) {
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const [active, setActive] = useState(0);
  const seq = useRef(0);
  useEffect(() => {
    const q = query.trim();
    if (!q) {
      setHits(null);
      return;
    }
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      void call('search.space', { branch, query: q }).then((h) => {
        if (mine === seq.current) {
          setHits(h);
          setActive(0);
        }
      });
    }, 120);
    return () => clearTimeout(timer);
  }, [query, branch]);
  const pick = (hit: SearchHit | undefined) => {
    if (!hit) return;
    onOpen(hit.pageId);
    setQuery('');
  };
  return (
    <div className="search">
      <div className="search-input">
        <Icon name="search" size={15} />
        <input
          type="search"
          placeholder="Search this space"
          aria-label="Search this space"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, (hits?.length ?? 1) - 1));
            if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
            if (e.key === 'Enter') pick(hits?.[active]);
            if (e.key === 'Escape' && query) {
              e.stopPropagation();
              setQuery('');
            }
          }}
        />
      </div>
      {hits && (
        <div className="search-results" role="listbox" aria-label="Search results">
          {hits.length === 0 && <p className="muted small pad">No page matches “{query.trim()}”.</p>}
          {hits.map((hit, i) => (
            <button
              key={hit.pageId}
              type="button"
              role="option"
              aria-selected={i === active}
              className={`search-hit${i === active ? ' is-active' : ''}`}
              onClick={() => pick(hit)}
            >
              <strong>{hit.title}</strong>
              {hit.snippet && <span>{hit.snippet}</span>}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * Memoized: the workspace re-renders for navigation and tree changes, never per keystroke,
 * and the sidebar (tree included) re-renders only when one of these props changes.
 */
export const Sidebar = memo(function Sidebar(props: {
  session: SessionState;
  catalog: Catalog;
  space: SpaceSummary | null;
  branch: BranchRef | null;
  replica: BranchReplica | null;
  tree: PageTreeNode[];
  pageId: string | null;
  editable: boolean;
  presence: Presence[];
  onOpenSpace: (spaceId: string) => void;
  onOpenPage: (pageId: string) => void;
  onNewSpace: () => void;
  onPublish: () => void;
  onOpenOutbox: () => void;
  onAccount: () => void;
}) {
  const [spacesOpen, setSpacesOpen] = useState(!props.space);
  useEffect(() => {
    if (!props.space) setSpacesOpen(true);
  }, [props.space]);
  const server = props.session.server;
  const scrollRef = useRef<HTMLDivElement>(null);
  return (
    <aside className="sidebar">
      <header className="sidebar-header">
        <span className="brand-mark small">
          <Icon name="logo" size={18} />
        </span>
        <span className="brand-name">Quire</span>
        <button
          type="button"
          className="account"
          onClick={props.onAccount}
          title={server ? `${server.user.displayName} on ${server.url}` : 'Working on this device'}
        >
          <Icon name={server ? 'server' : 'laptop'} size={14} />
          <span>{server ? new URL(server.url).host : 'This device'}</span>
        </button>
      </header>
      <div className="sidebar-scroll" ref={scrollRef}>
        <SpacesSection
          catalog={props.catalog}
          currentSpace={props.space}
          onOpen={(id) => {
            props.onOpenSpace(id);
            setSpacesOpen(false);
          }}
          onNewSpace={props.onNewSpace}
          expanded={spacesOpen}
          setExpanded={setSpacesOpen}
        />
        {props.space && props.branch && (
          <section className="side-section side-pages">
            {props.space.syncState === 'local' && props.session.mode === 'server' && (
              <button type="button" className="publish-cta" onClick={props.onPublish}>
                <Icon name="upload" size={15} /> Publish this space to the server
              </button>
            )}
            <SearchBox branch={props.branch} onOpen={props.onOpenPage} />
            {props.replica || props.tree.length > 0 ? (
              <PageTree
                doc={props.replica?.doc ?? OPENING}
                tree={props.tree}
                selected={props.pageId}
                editable={props.editable && !!props.replica}
                unpublished={props.space.syncState !== 'remote'}
                presence={props.presence}
                onSelect={props.onOpenPage}
                scrollRef={scrollRef}
              />
            ) : (
              <div className="tree-loading">
                <span className="skeleton" />
                <span className="skeleton" />
                <span className="skeleton short" />
              </div>
            )}
          </section>
        )}
      </div>
      <SyncStatusBar onOpenOutbox={props.onOpenOutbox} />
      <SidebarResizer />
    </aside>
  );
});
