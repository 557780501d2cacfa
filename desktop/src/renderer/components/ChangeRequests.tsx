import { useEffect, useMemo, useRef, useState } from 'react';
import type { ChangeRequestSummary } from '../../common/ipc';
import { bridge, call } from '../bridge';
import { PageDiff } from '../review/BlockDiffView';
import { FilesBranch } from '../files/fileUrls';
import { ReviewsPanel } from '../review/ReviewsPanel';
import type { PageChange } from '../review/blockDiff';
import { useBranchDiff, useChangeRequestBase } from '../review/useBranchDiff';
import type { BranchReplica } from '../sync/BranchReplica';
import { Icon } from './Icons';
import { askText, confirmAction } from './Prompt';
import { notify } from './Toasts';
import { timeAgo, useReplica } from './hooks';

export function useChangeRequests(spaceId: string | null): ChangeRequestSummary[] {
  const [list, setList] = useState<ChangeRequestSummary[]>([]);
  useEffect(() => {
    if (!spaceId) {
      setList([]);
      return;
    }
    let alive = true;
    let last = '';
    // The list is polled: an unchanged answer must not re-render the workspace.
    const load = () =>
      void call('changeRequests.list', { spaceId })
        .then((l) => {
          const key = JSON.stringify(l);
          if (!alive || key === last) return;
          last = key;
          setList(l);
        })
        .catch(() => {});
    load();
    const off = bridge.on('changeRequests.changed', (e) => e.spaceId === spaceId && load());
    // The server decides some things on its own (outdated once main's edits form a revision, a
    // merge by someone else): listing again now and then picks them up; offline it reads locally.
    const timer = setInterval(load, 5000);
    return () => {
      alive = false;
      off();
      clearInterval(timer);
    };
  }, [spaceId]);
  return list;
}

export function StatusBadge({ cr }: { cr: ChangeRequestSummary }) {
  if (cr.mergeState === 'merged' || cr.status === 'merged')
    return (
      <span className="badge badge-merged">
        <Icon name="merge" size={12} /> Merged
      </span>
    );
  if (cr.mergeState === 'queued') return <span className="badge badge-muted">Merge queued</span>;
  if (cr.status === 'archived') return <span className="badge badge-muted">Archived</span>;
  if (cr.status === 'draft') return <span className="badge badge-muted">Draft</span>;
  return <span className="badge badge-open">Open</span>;
}

export function OutdatedBadge({ cr }: { cr: ChangeRequestSummary }) {
  if (!cr.outdated || cr.mergeState === 'merged') return null;
  return (
    <span className="badge badge-warning" title="Main has changed since this change request took it in">
      Outdated
    </span>
  );
}

/** The branch picker: main, or one of the space's change requests; and opening a new one. */
export function BranchSwitcher({
  spaceId,
  list,
  current,
  onSwitch,
}: {
  spaceId: string;
  list: ChangeRequestSummary[];
  current: ChangeRequestSummary | null;
  onSwitch: (changeRequestId: string | null) => void;
}) {
  const [open, setOpen] = useState(false);
  const active = list.filter((cr) => cr.mergeState !== 'merged' && cr.status !== 'merged' && cr.status !== 'archived');
  const done = list.filter((cr) => !active.includes(cr));
  const create = async () => {
    setOpen(false);
    const subject = await askText({
      title: 'New change request',
      label: 'What will you change?',
      placeholder: 'Rewrite the installation guide',
      confirm: 'Open change request',
    });
    if (!subject?.trim()) return;
    try {
      const cr = await call('changeRequests.create', { spaceId, subject: subject.trim() });
      onSwitch(cr.id);
    } catch (err) {
      notify('error', (err as Error).message);
    }
  };
  return (
    <div className="branch-switcher">
      <button
        type="button"
        className={`branch-btn${current ? ' is-cr' : ''}`}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <Icon name="branch" size={15} />
        <span className="branch-name">{current ? `#${current.number ?? '…'} ${current.subject}` : 'Main'}</span>
        {current && <OutdatedBadge cr={current} />}
        <Icon name="chevronDown" size={13} />
      </button>
      {open && (
        <div className="menu branch-menu" role="menu" onMouseLeave={() => setOpen(false)}>
          <button
            type="button"
            role="menuitem"
            className={`menu-item${!current ? ' is-active' : ''}`}
            onClick={() => {
              setOpen(false);
              onSwitch(null);
            }}
          >
            <Icon name="check" size={14} className={current ? 'invisible' : ''} /> Main content
          </button>
          {active.length > 0 && <div className="menu-label">Change requests</div>}
          {active.map((cr) => (
            <button
              key={cr.id}
              type="button"
              role="menuitem"
              className={`menu-item cr-item${current?.id === cr.id ? ' is-active' : ''}`}
              data-cr-id={cr.id}
              onClick={() => {
                setOpen(false);
                onSwitch(cr.id);
              }}
            >
              <Icon name="check" size={14} className={current?.id === cr.id ? '' : 'invisible'} />
              <span className="cr-item-text">
                <span>
                  <span className="muted">#{cr.number ?? '…'}</span> {cr.subject}
                </span>
                <small>
                  {cr.createdBy ? `${cr.createdBy} · ` : ''}
                  {timeAgo(cr.updatedAt)}
                  {cr.syncState === 'pending' ? ' · waiting to be sent' : ''}
                </small>
              </span>
              <OutdatedBadge cr={cr} />
            </button>
          ))}
          {done.length > 0 && <div className="menu-label">Merged and closed</div>}
          {done.slice(0, 5).map((cr) => (
            <button
              key={cr.id}
              type="button"
              role="menuitem"
              className="menu-item cr-item is-done"
              onClick={() => {
                setOpen(false);
                onSwitch(cr.id);
              }}
            >
              <Icon name="merge" size={14} />
              <span className="cr-item-text">
                <span>
                  <span className="muted">#{cr.number ?? '…'}</span> {cr.subject}
                </span>
              </span>
            </button>
          ))}
          <div className="menu-sep" />
          <button type="button" role="menuitem" className="menu-item" onClick={() => void create()}>
            <Icon name="plus" size={14} /> New change request
          </button>
        </div>
      )}
    </div>
  );
}

/** One page's changes as a card: what happened to it, its title (a link to it), and its blocks. */
function PageCard({ page, onOpenPage }: { page: PageChange; onOpenPage?: (pageId: string) => void }) {
  return (
    <section className="diff-card" data-page-id={page.pageId}>
      <header>
        <span className={`chip chip-${page.kind}`}>{page.kind === 'added' ? 'Added' : page.kind === 'removed' ? 'Removed' : 'Edited'}</span>
        {page.kind === 'removed' ? (
          <span className="strike">{page.title}</span>
        ) : !onOpenPage ? (
          <strong>{page.title || 'Untitled'}</strong>
        ) : (
          <button type="button" className="link-btn" onClick={() => onOpenPage(page.pageId)}>
            {page.title || 'Untitled'}
          </button>
        )}
        {page.previousTitle !== undefined && <span className="muted small">renamed from “{page.previousTitle}”</span>}
        {page.moved && <span className="muted small">moved</span>}
      </header>
      <PageDiff page={page} />
    </section>
  );
}

function ChangeCounts({ pages }: { pages: PageChange[] }) {
  const count = (kind: PageChange['kind']) => pages.filter((p) => p.kind === kind).length;
  return (
    <>
      {count('edited') > 0 && <span className="chip chip-edited">{count('edited')} edited</span>}
      {count('added') > 0 && <span className="chip chip-added">{count('added')} added</span>}
      {count('removed') > 0 && <span className="chip chip-removed">{count('removed')} removed</span>}
    </>
  );
}

/**
 * Main moved on since the change request started: said plainly, with what updating from
 * main would bring shown apart from the request's own changes.
 */
function MainMoved({ changes, busy, onUpdate }: { changes: PageChange[] | null; busy: boolean; onUpdate: () => void }) {
  const [open, setOpen] = useState(false);
  const n = changes?.length ?? 0;
  return (
    <section className="review-notice" aria-label="Main has changed">
      <div className="review-notice-row">
        <Icon name="branch" size={16} />
        <p>
          <strong>Main has changed since this request started.</strong> The changes below are this request’s own; main’s newer edits are not
          among them.
        </p>
        <button type="button" className="btn" disabled={busy} onClick={onUpdate}>
          <Icon name="refresh" size={15} /> Update from main
        </button>
      </div>
      {n > 0 && (
        <>
          <button type="button" className="link-btn review-notice-toggle" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
            <Icon name={open ? 'chevronDown' : 'chevronRight'} size={13} /> What updating would bring: {n} page{n > 1 ? 's' : ''} changed on
            main
          </button>
          {open && changes && (
            <section className="main-changes" aria-label="Changes on main">
              <p className="review-summary">
                <ChangeCounts pages={changes} />
              </p>
              {changes.map((p) => (
                <PageCard key={p.pageId} page={p} />
              ))}
            </section>
          )}
        </>
      )}
    </section>
  );
}

/**
 * What a change request changes, with merge and update-from-main. Its changes are drawn
 * against where it started (the main it was opened from or last took in), never against
 * main as it is now; merged, it still shows what it merged.
 */
export function ReviewView({
  cr,
  replica,
  onOpenPage,
  onBackToMain,
}: {
  cr: ChangeRequestSummary;
  /** The window's copy of the change request's branch. */
  replica: BranchReplica | null;
  onOpenPage: (pageId: string) => void;
  onBackToMain: () => void;
}) {
  const mainRef = useMemo(() => ({ spaceId: cr.spaceId }), [cr.spaceId]);
  const { replica: main } = useReplica(mainRef);
  const base = useChangeRequestBase(cr);
  const baseDoc = base.state === 'ready' ? base.doc : null;
  const pages = useBranchDiff(baseDoc, replica);
  const merged = cr.mergeState === 'merged' || cr.status === 'merged';
  const mainChanges = useBranchDiff(merged ? null : baseDoc, main);
  const mainMoved = !merged && (cr.outdated || (mainChanges?.length ?? 0) > 0);
  // Files of both sides live in the space; the change request's branch reaches them all.
  const filesBranch = useMemo(() => ({ spaceId: cr.spaceId, changeRequestId: cr.id }), [cr.spaceId, cr.id]);
  const [busy, setBusy] = useState(false);
  // The toast says what the badge says: "Merged" once it is, "Merge queued" while it waits.
  const lastMergeState = useRef(cr.mergeState);
  const announced = useRef(false);
  useEffect(() => {
    if (cr.mergeState === 'merged' && lastMergeState.current === 'queued' && !announced.current) {
      announced.current = true;
      notify('info', 'Merged into main.');
    }
    lastMergeState.current = cr.mergeState;
  }, [cr.mergeState]);
  const run = async <T,>(fn: () => Promise<T>, done: string | ((result: T) => string)) => {
    setBusy(true);
    try {
      const result = await fn();
      notify('info', typeof done === 'string' ? done : done(result));
    } catch (err) {
      notify('error', (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const update = () => void run(() => call('changeRequests.updateFromMain', { changeRequestId: cr.id }), 'Updated from main.');
  const merge = async () => {
    if (!(await confirmAction('Merge change request', `Merge “${cr.subject}” into the main content?`, 'Merge'))) return;
    setBusy(true);
    try {
      const result = await call('changeRequests.merge', { changeRequestId: cr.id });
      if (result.mergeState === 'merged' && !announced.current) {
        announced.current = true;
        notify('info', 'Merged into main.');
      } else if (result.mergeState === 'queued') notify('info', 'Merge queued: it is sent once the server can be reached.');
    } catch (err) {
      notify('error', (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <FilesBranch.Provider value={filesBranch}>
      <div className="review">
        <header className="review-head">
          <div className="review-title">
            <div className="review-badges">
              <StatusBadge cr={cr} />
              <OutdatedBadge cr={cr} />
              {cr.syncState === 'pending' && <span className="badge badge-muted">Waiting to be sent</span>}
            </div>
            <h1>
              <span className="muted">#{cr.number ?? '…'}</span> {cr.subject}
              {!merged && (
                <button
                  type="button"
                  className="icon-btn"
                  aria-label="Rename the change request"
                  onClick={async () => {
                    const subject = await askText({ title: 'Rename change request', label: 'Subject', value: cr.subject });
                    if (subject?.trim() && subject.trim() !== cr.subject)
                      await run(() => call('changeRequests.rename', { changeRequestId: cr.id, subject: subject.trim() }), 'Renamed.');
                  }}
                >
                  <Icon name="edit" size={15} />
                </button>
              )}
            </h1>
            <p className="muted">
              {cr.createdBy ? `Opened by ${cr.createdBy} · ` : ''}updated {timeAgo(cr.updatedAt)}
            </p>
          </div>
          {!merged && (
            <div className="review-actions">
              {!mainMoved && (
                <button type="button" className="btn" disabled={busy || cr.mergeState === 'queued'} onClick={update}>
                  <Icon name="refresh" size={15} /> Update from main
                </button>
              )}
              <button type="button" className="btn btn-primary" disabled={busy || cr.mergeState !== 'none'} onClick={() => void merge()}>
                <Icon name="merge" size={15} /> {cr.mergeState === 'queued' ? 'Merge queued' : busy ? 'Merging…' : 'Merge'}
              </button>
            </div>
          )}
          {merged && (
            <button type="button" className="btn" onClick={onBackToMain}>
              <Icon name="arrowLeft" size={15} /> Back to main
            </button>
          )}
        </header>
        {mainMoved && <MainMoved changes={mainChanges} busy={busy || cr.mergeState === 'queued'} onUpdate={update} />}
        <ReviewsPanel cr={cr} />
        {base.state === 'missing' ? (
          <div className="panel-empty big">
            <Icon name="diff" size={28} />
            <p>Where this change request started is not on this machine yet: its changes show once the server can be reached.</p>
          </div>
        ) : !pages ? (
          <div className="review-loading" aria-busy="true" aria-label="Loading the changes">
            <span className="skeleton" />
            <span className="skeleton" />
            <span className="skeleton short" />
          </div>
        ) : pages.length === 0 ? (
          <div className="panel-empty big">
            <Icon name="diff" size={28} />
            <p>
              {merged
                ? 'This change request was merged without changes.'
                : 'No changes yet. Edit pages in this change request; they show up here.'}
            </p>
          </div>
        ) : (
          <>
            <p className="review-summary">
              {merged ? 'Merged into main: ' : ''}
              <strong>{pages.length}</strong> page{pages.length > 1 ? 's' : ''} changed
              <ChangeCounts pages={pages} />
            </p>
            {pages.map((p) => (
              <PageCard key={p.pageId} page={p} onOpenPage={onOpenPage} />
            ))}
          </>
        )}
      </div>
    </FilesBranch.Provider>
  );
}
