import { getPageDocument } from '@quire/shared/content/body';
import type { NodeJSON } from '@quire/shared/content/json';
import { getPage } from '@quire/shared/content/pages';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useEscape } from './escape';
import type { BranchRef, PageHistoryView } from '../../common/ipc';
import { call } from '../bridge';
import { PageDiff } from '../review/BlockDiffView';
import { type PageChange, diffBlocks, foldUnchanged } from '../review/blockDiff';
import type { BranchReplica } from '../sync/BranchReplica';
import { Icon } from './Icons';
import { HistoryEntry, UnsentEntry } from './HistoryEntry';
import { groupHistory } from './historyGroups';
import { notify } from './Toasts';
import { restoreInEditor } from '../editor/restore';

/** What changed between a revision of the page and the page as it is now, block by block. */
function changeSince(old: { title: string; body: NodeJSON }, replica: BranchReplica, pageId: string): PageChange | null {
  const now = getPage(replica.doc, pageId);
  if (!now) return null;
  const body = getPageDocument(replica.doc, pageId);
  const same = JSON.stringify(old.body) === JSON.stringify(body);
  return {
    pageId,
    kind: 'edited',
    title: now.title,
    previousTitle: old.title !== now.title ? old.title : undefined,
    blocks: same ? [] : foldUnchanged(diffBlocks(old.body, body)),
  };
}

/**
 * A page's history: the revisions that changed it, what changed since any of them (the
 * review's block diff), and restoring one as a new edit.
 */
export function HistoryPanel({
  branch,
  replica,
  pageId,
  pageTitle,
  editable,
  me,
  meName,
  onClose,
}: {
  branch: BranchRef;
  replica: BranchReplica;
  pageId: string;
  pageTitle: string;
  editable: boolean;
  /** The signed-in user's id: who a restore is recorded as. */
  me: string;
  /** Their name, for the edits of this machine not on the server yet. */
  meName: string;
  onClose: () => void;
}) {
  const [history, setHistory] = useState<PageHistoryView | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [old, setOld] = useState<{ title: string; body: NodeJSON } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [change, setChange] = useState<PageChange | null>(null);
  const [restoring, setRestoring] = useState(false);
  // Escape closes the comparison first, then the panel.
  useEscape(selected ? () => setSelected(null) : onClose);

  const load = useCallback(() => {
    call('history.list', { branch, pageId })
      .then(setHistory)
      .catch((err: Error) => setHistory({ revisions: [], source: 'cache', notice: err.message, unsentPages: [] }));
  }, [branch, pageId]);

  useEffect(() => {
    setHistory(null);
    setSelected(null);
    load();
  }, [load]);

  useEffect(() => {
    setOld(null);
    setFailed(null);
    if (!selected) return;
    let live = true;
    call('history.page', { branch, pageId, revisionId: selected })
      .then((p) => live && setOld({ title: p.title, body: p.body as NodeJSON }))
      .catch((err: Error) => live && setFailed(err.message));
    return () => {
      live = false;
    };
  }, [branch, pageId, selected]);

  // The comparison follows the page while it is being edited (here or by others).
  useEffect(() => {
    if (!old) {
      setChange(null);
      return;
    }
    let frame = 0;
    const update = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setChange(changeSince(old, replica, pageId)));
    };
    setChange(changeSince(old, replica, pageId));
    replica.doc.on('update', update);
    return () => {
      cancelAnimationFrame(frame);
      replica.doc.off('update', update);
    };
  }, [old, replica, pageId]);

  const restore = async () => {
    if (!selected || !old) return;
    setRestoring(true);
    try {
      // Through the page's editor when it shows the page: one step Ctrl+Z takes back.
      if (!restoreInEditor(replica.doc, pageId, old, { revision: selected, by: me })) {
        await call('history.restore', { branch, pageId, revisionId: selected });
      }
      notify(
        'info',
        'The page reads as it did in that version again (Ctrl+Z in the page takes it back). Its history keeps what it replaced.',
      );
    } catch (err) {
      notify('error', (err as Error).message);
    } finally {
      setRestoring(false);
    }
  };

  const groups = useMemo(() => groupHistory(history?.revisions ?? []), [history]);
  const version = history?.revisions.find((r) => r.revisionId === selected);
  const unchanged = change && change.blocks.length === 0 && change.previousTitle === undefined;
  return (
    <aside className={`panel history-panel${selected ? ' is-comparing' : ''}`} aria-label="Page history">
      <header className="panel-head">
        <div>
          <h2>History</h2>
          <p className="muted small">{pageTitle}</p>
        </div>
        <button type="button" className="icon-btn" aria-label="Close history" onClick={onClose}>
          <Icon name="x" size={16} />
        </button>
      </header>
      <div className="panel-body">
        {history?.notice && (
          <p className="history-notice" role="status">
            <Icon name={history.source === 'cache' ? 'cloudOff' : 'info'} size={14} /> {history.notice}
          </p>
        )}
        {history && history.unsentPages.length > 0 && (
          <UnsentEntry
            me={{ id: me, name: meName }}
            pages={history.unsentPages.map((id) => ({ id, title: getPage(replica.doc, id)?.title ?? '' }))}
          />
        )}
        {!history ? (
          <div className="panel-empty">
            <p>Loading history…</p>
          </div>
        ) : history.revisions.length === 0 ? (
          <div className="panel-empty">
            <Icon name="history" size={22} />
            <p>No earlier versions of this page{history.source === 'cache' ? ' on this machine' : ''}.</p>
          </div>
        ) : (
          <ol className="history-list">
            {groups.map((g) => (
              <HistoryEntry
                key={g.newest.revisionId}
                group={g}
                all={history.revisions}
                selected={selected}
                reachable={(r) => history.source !== 'cache' || r.cached}
                onSelect={(id) => setSelected(selected === id ? null : id)}
              />
            ))}
          </ol>
        )}
      </div>
      {selected && (
        <section className="history-compare" aria-label="Changes since this version">
          <button
            type="button"
            className="icon-btn history-compare-close"
            aria-label="Close the comparison"
            onClick={() => setSelected(null)}
          >
            <Icon name="x" size={16} />
          </button>
          {failed ? (
            <p className="history-notice" role="alert">
              <Icon name="cloudOff" size={14} /> {failed}
            </p>
          ) : !old || !change ? (
            <p className="muted small">Loading this version…</p>
          ) : (
            <>
              <header className="history-compare-head">
                <div>
                  <h3>Changes since this version</h3>
                  {version && (
                    <p className="muted small">
                      {version.type === 'restore' ? 'Restore' : 'Version'} of {new Date(version.createdAt).toLocaleString()}
                      {version.by ? ` by ${version.by}` : ''}
                    </p>
                  )}
                </div>
                {editable && (
                  <button type="button" className="btn btn-primary" disabled={restoring || !!unchanged} onClick={() => void restore()}>
                    <Icon name="undo" size={14} /> Restore this version
                  </button>
                )}
              </header>
              {change.previousTitle !== undefined && (
                <p className="muted small">
                  Title was “{change.previousTitle || 'Untitled'}”, now “{change.title || 'Untitled'}”
                </p>
              )}
              {unchanged ? <p className="muted small">The page reads the same as in this version.</p> : <PageDiff page={change} />}
            </>
          )}
        </section>
      )}
    </aside>
  );
}
