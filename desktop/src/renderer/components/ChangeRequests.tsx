import { diffWordsWithSpace } from 'diff';
import { useEffect, useState } from 'react';
import type { ChangeRequestDiff, ChangeRequestSummary, DiffLine } from '../../common/ipc';
import { bridge, call } from '../bridge';
import { Icon } from './Icons';
import { askText, confirmAction } from './Prompt';
import { notify } from './Toasts';
import { timeAgo } from './hooks';

export function useChangeRequests(spaceId: string | null): ChangeRequestSummary[] {
  const [list, setList] = useState<ChangeRequestSummary[]>([]);
  useEffect(() => {
    if (!spaceId) {
      setList([]);
      return;
    }
    let alive = true;
    const load = () =>
      void call('changeRequests.list', { spaceId })
        .then((l) => alive && setList(l))
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

/** Long runs of unchanged lines are folded, keeping a little context around changes. */
function foldLines<L extends DiffLine>(lines: L[], context = 2): (L | { kind: 'fold'; count: number })[] {
  const out: (L | { kind: 'fold'; count: number })[] = [];
  const changed = lines.map((l) => l.kind !== 'same');
  const near = (i: number) => changed.slice(Math.max(0, i - context), i + context + 1).some(Boolean);
  let folded = 0;
  lines.forEach((line, i) => {
    if (line.kind === 'same' && !near(i)) {
      folded++;
      return;
    }
    if (folded) out.push({ kind: 'fold', count: folded });
    folded = 0;
    out.push(line);
  });
  if (folded) out.push({ kind: 'fold', count: folded });
  return out;
}

type Segment = { text: string; changed: boolean };
type ShownLine = DiffLine & { segments?: Segment[] };

/**
 * A removed line followed by the line that replaced it (runs of equal length) shows which
 * words changed, so a one-word edit in a long paragraph reads at a glance.
 */
function withWordChanges(lines: DiffLine[]): ShownLine[] {
  const out: ShownLine[] = lines.map((l) => ({ ...l }));
  let i = 0;
  while (i < out.length) {
    if (out[i]?.kind !== 'removed') {
      i++;
      continue;
    }
    let r = i;
    while (out[r]?.kind === 'removed') r++;
    let a = r;
    while (out[a]?.kind === 'added') a++;
    if (a - r === r - i) {
      for (let k = 0; k < r - i; k++) {
        const before = out[i + k] as ShownLine;
        const after = out[r + k] as ShownLine;
        const parts = diffWordsWithSpace(before.text, after.text);
        before.segments = parts.filter((p) => !p.added).map((p) => ({ text: p.value, changed: !!p.removed }));
        after.segments = parts.filter((p) => !p.removed).map((p) => ({ text: p.value, changed: !!p.added }));
      }
    }
    i = a;
  }
  return out;
}

function LineText({ line }: { line: ShownLine }) {
  if (!line.segments) return <span className="diff-text">{line.text || ' '}</span>;
  const Mark = line.kind === 'removed' ? 'del' : 'ins';
  return (
    <span className="diff-text has-words">
      {line.segments.map((seg, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: segments have no identity beyond their place
        seg.changed ? (
          <Mark key={i} className="diff-word">
            {seg.text}
          </Mark>
        ) : (
          <span key={i}>{seg.text}</span>
        ),
      )}
    </span>
  );
}

function DiffBlock({ lines }: { lines: DiffLine[] }) {
  return (
    <div className="diff">
      {foldLines(withWordChanges(lines)).map((line, i) =>
        line.kind === 'fold' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity beyond their place
          <div key={i} className="diff-fold">
            ⋯ {line.count} unchanged line{line.count > 1 ? 's' : ''}
          </div>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity beyond their place
          <div key={i} className={`diff-line diff-${line.kind}`}>
            <span className="diff-sign">{line.kind === 'added' ? '+' : line.kind === 'removed' ? '−' : ' '}</span>
            <LineText line={line} />
          </div>
        ),
      )}
    </div>
  );
}

/** What a change request changes, with merge and update-from-main. */
export function ReviewView({
  cr,
  onOpenPage,
  onBackToMain,
}: {
  cr: ChangeRequestSummary;
  onOpenPage: (pageId: string) => void;
  onBackToMain: () => void;
}) {
  const [diff, setDiff] = useState<ChangeRequestDiff | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let alive = true;
    const load = () => void call('changeRequests.diff', { changeRequestId: cr.id }).then((d) => alive && setDiff(d));
    load();
    const timer = setInterval(load, 4000);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [cr.id]);
  const merged = cr.mergeState === 'merged' || cr.status === 'merged';
  const run = async (fn: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await fn();
      notify('info', done);
      setDiff(await call('changeRequests.diff', { changeRequestId: cr.id }));
    } catch (err) {
      notify('error', (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const total = diff ? diff.added.length + diff.removed.length + diff.edited.length : 0;
  return (
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
            <button
              type="button"
              className="btn"
              disabled={busy || cr.mergeState === 'queued'}
              onClick={() => void run(() => call('changeRequests.updateFromMain', { changeRequestId: cr.id }), 'Updated from main.')}
            >
              <Icon name="refresh" size={15} /> Update from main
            </button>
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy || cr.mergeState !== 'none'}
              onClick={async () => {
                if (!(await confirmAction('Merge change request', `Merge “${cr.subject}” into the main content?`, 'Merge'))) return;
                await run(() => call('changeRequests.merge', { changeRequestId: cr.id }), 'Merge requested.');
              }}
            >
              <Icon name="merge" size={15} /> {cr.mergeState === 'queued' ? 'Merge queued' : 'Merge'}
            </button>
          </div>
        )}
        {merged && (
          <button type="button" className="btn" onClick={onBackToMain}>
            <Icon name="arrowLeft" size={15} /> Back to main
          </button>
        )}
      </header>
      {!diff ? (
        <div className="review-loading">
          <span className="skeleton" />
          <span className="skeleton" />
        </div>
      ) : total === 0 ? (
        <div className="panel-empty big">
          <Icon name="diff" size={28} />
          <p>
            {merged
              ? 'Everything in this change request is in main.'
              : 'No changes yet. Edit pages in this change request; they show up here.'}
          </p>
        </div>
      ) : (
        <>
          <p className="review-summary">
            <strong>{total}</strong> page{total > 1 ? 's' : ''} changed:
            {diff.edited.length > 0 && <span className="chip chip-edited">{diff.edited.length} edited</span>}
            {diff.added.length > 0 && <span className="chip chip-added">{diff.added.length} added</span>}
            {diff.removed.length > 0 && <span className="chip chip-removed">{diff.removed.length} removed</span>}
          </p>
          {diff.added.map((p) => (
            <section key={p.pageId} className="diff-card">
              <header>
                <span className="chip chip-added">Added</span>
                <button type="button" className="link-btn" onClick={() => onOpenPage(p.pageId)}>
                  {p.title}
                </button>
              </header>
              <DiffBlock lines={p.lines} />
            </section>
          ))}
          {diff.edited.map((p) => (
            <section key={p.pageId} className="diff-card">
              <header>
                <span className="chip chip-edited">Edited</span>
                <button type="button" className="link-btn" onClick={() => onOpenPage(p.pageId)}>
                  {p.title}
                </button>
                {p.previousTitle && <span className="muted small">renamed from “{p.previousTitle}”</span>}
              </header>
              <DiffBlock lines={p.lines} />
            </section>
          ))}
          {diff.removed.map((p) => (
            <section key={p.pageId} className="diff-card">
              <header>
                <span className="chip chip-removed">Removed</span>
                <span className="strike">{p.title}</span>
              </header>
            </section>
          ))}
        </>
      )}
    </div>
  );
}
