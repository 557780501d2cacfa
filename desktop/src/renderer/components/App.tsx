import { getPage } from '@quire/shared/content/pages';
import { type PageTreeNode, flattenPageTree } from '@quire/shared/content/tree';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { BranchRef, SessionState } from '../../common/ipc';
import { bridge, call } from '../bridge';
import { ComputedPage, isComputedPage } from '../editor/ComputedPage';
import { PageEditor } from '../editor/Editor';
import type { PlacedCaret } from '../editor/placedCaret';
import { SavedPage } from '../editor/SavedPage';
import { BranchReplica, type SaveState } from '../sync/BranchReplica';
import { Breadcrumbs } from './Breadcrumbs';
import { BranchSwitcher, ReviewView, StatusBadge, useChangeRequests } from './ChangeRequests';
import { CommentsPanel } from './CommentsPanel';
import { HistoryPanel } from './HistoryPanel';
import { InsightsView } from '../insights/InsightsView';
import { GitStatus } from './GitStatus';
import { ConnectScreen } from './ConnectScreen';
import { AccountDialog, NewSpaceDialog, OutboxDialog, PublishDialog } from './Dialogs';
import { Icon } from './Icons';
import { PageSwitcher } from './PageSwitcher';
import { PageTitle } from './PageTitle';
import { COMMENT_ON_SELECTION } from '../review/commentAnchor';
import { OPEN_COMMENT } from '../editor/commentHighlights';
import { PromptHost } from './Prompt';
import { Sidebar } from './Sidebar';
import { BackendBanner } from './BackendBanner';
import { ToastHost, notify } from './Toasts';
import { colorFor, initials, useCatalog, usePageTree, usePresence, useReplica } from './hooks';

interface Nav {
  spaceId: string | null;
  changeRequestId: string | null;
  pageId: string | null;
  view: 'page' | 'review' | 'insights';
}

const NAV_KEY = 'quire.nav';

function loadNav(): Nav {
  try {
    const saved = JSON.parse(localStorage.getItem(NAV_KEY) ?? '{}') as Partial<Nav>;
    return {
      spaceId: saved.spaceId ?? null,
      changeRequestId: saved.changeRequestId ?? null,
      pageId: saved.pageId ?? null,
      view: saved.view ?? 'page',
    };
  } catch {
    return { spaceId: null, changeRequestId: null, pageId: null, view: 'page' };
  }
}

const SAVE_LABELS: Record<SaveState, string> = { saved: 'Saved', saving: 'Saving…', error: 'Not saved' };

/**
 * "Saving…" then "Saved" at every keystroke: drawn straight into its element rather than
 * through React state, as two commits of the window per key cost a long page more than
 * the keystroke's own work.
 */
function SaveIndicator({ replica }: { replica: BranchReplica | null }) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!replica || !el) return;
    const draw = () => {
      const state = replica.saveState;
      el.className = `save-state is-${state}`;
      el.textContent = SAVE_LABELS[state];
      if (state === 'error') el.title = replica.saveError ?? '';
      else el.removeAttribute('title');
    };
    draw();
    return replica.onSaveState(draw);
  }, [replica]);
  if (!replica) return null;
  return <span ref={ref} className="save-state is-saved" data-testid="save-state" />;
}

export function App() {
  const [session, setSession] = useState<SessionState | null>(null);
  const [connecting, setConnecting] = useState(false);
  useEffect(() => {
    void call('session.get', {}).then(setSession);
  }, []);
  useEffect(
    () =>
      bridge.on('notice', (n) => {
        notify(n.level, n.message);
      }),
    [],
  );
  if (!session) {
    return (
      <div className="splash">
        <span className="brand-mark">
          <Icon name="logo" size={28} />
        </span>
        <BackendBanner />
      </div>
    );
  }
  if (session.mode === 'none' || connecting) {
    return (
      <>
        {connecting && (
          <button type="button" className="btn back-btn" onClick={() => setConnecting(false)}>
            <Icon name="arrowLeft" size={15} /> Back
          </button>
        )}
        <ConnectScreen
          session={session}
          onSession={(s) => {
            setSession(s);
            setConnecting(false);
          }}
        />
        <PromptHost />
        <ToastHost />
        <BackendBanner />
      </>
    );
  }
  return (
    <>
      <Workspace
        key={session.mode + (session.server?.url ?? '')}
        session={session}
        onSession={setSession}
        onConnect={() => setConnecting(true)}
      />
      <PromptHost />
      <ToastHost />
      <BackendBanner />
    </>
  );
}

function Workspace({
  session,
  onSession,
  onConnect,
}: {
  session: SessionState;
  onSession: (s: SessionState) => void;
  onConnect: () => void;
}) {
  const catalog = useCatalog(session.mode === 'server');
  const [nav, setNavState] = useState<Nav>(loadNav);
  const [panel, setPanel] = useState<'comments' | 'history' | null>(null);
  const [dialog, setDialog] = useState<'newSpace' | 'publish' | 'outbox' | 'account' | null>(null);
  const [switcher, setSwitcher] = useState(false);
  const setNav = useCallback((patch: Partial<Nav>) => {
    setNavState((n) => {
      const next = { ...n, ...patch };
      localStorage.setItem(NAV_KEY, JSON.stringify(next));
      return next;
    });
  }, []);

  const allSpaces = useMemo(() => (catalog ? [...catalog.organizations.flatMap((o) => o.spaces), ...catalog.localSpaces] : []), [catalog]);
  const space = allSpaces.find((s) => s.id === nav.spaceId) ?? null;
  const changeRequests = useChangeRequests(space?.id ?? null);
  const cr = nav.changeRequestId ? (changeRequests.find((c) => c.id === nav.changeRequestId) ?? null) : null;
  const branch: BranchRef | null = useMemo(
    () => (space ? (nav.changeRequestId ? { spaceId: space.id, changeRequestId: nav.changeRequestId } : { spaceId: space.id }) : null),
    [space?.id, nav.changeRequestId],
  );
  const { replica, view } = useReplica(branch);
  // A click on the saved page, before it could be edited: the live editor takes it over once.
  const [placedCaret, setPlacedCaret] = useState<{ pageId: string; caret: PlacedCaret } | null>(null);
  const tree = usePageTree(replica, view);
  const presence = usePresence(replica);
  const flat = useMemo(() => flattenPageTree(tree), [tree]);
  const byId = useMemo(() => new Map<string, PageTreeNode>(flat.map((p) => [p.id, p])), [flat]);
  const page = (nav.pageId && byId.get(nav.pageId)) || null;
  const merged = !!cr && (cr.mergeState === 'merged' || cr.status === 'merged');
  const editable = !merged;

  // A page that was deleted (here or by someone else): open the first one instead.
  // While the branch is drawn from its saved view, a page not in it is left for the doc to find.
  useEffect(() => {
    if ((!replica && !view) || flat.length === 0 || page || nav.view !== 'page') return;
    // A page just added here is in the doc already; the tree shows it on the next frame.
    if (nav.pageId && (replica ? getPage(replica.doc, nav.pageId) : true)) return;
    setNav({ pageId: flat[0]?.id ?? null });
  }, [replica, view, flat, page, nav.view, setNav]);

  const user = useMemo(
    () => ({ name: session.user.displayName, color: colorFor(session.user.id + session.user.displayName) }),
    [session.user],
  );

  // Stable callbacks: the memoized sidebar re-renders only when what it shows changes.
  const openSpace = useCallback(
    (spaceId: string) => {
      // Asked for before this click renders: the LocalNode reads the space meanwhile.
      BranchReplica.prefetch({ spaceId });
      setNav({ spaceId, changeRequestId: null, pageId: null, view: 'page' });
    },
    [setNav],
  );
  const openPage = useCallback((pageId: string) => setNav({ pageId, view: 'page' }), [setNav]);
  /** A heading to scroll to in the page a followed link opened. */
  const [anchorTo, setAnchorTo] = useState<{ pageId: string; anchor: string } | null>(null);
  const followToPage = useCallback(
    (pageId: string, anchor: string | null) => {
      setAnchorTo(anchor ? { pageId, anchor } : null);
      openPage(pageId);
    },
    [openPage],
  );
  const onNewSpace = useCallback(() => setDialog('newSpace'), []);
  const onPublish = useCallback(() => setDialog('publish'), []);
  const onOpenOutbox = useCallback(() => setDialog('outbox'), []);
  const onAccount = useCallback(() => setDialog('account'), []);

  // "Comment" on a selection (the editor's toolbar) opens the panel on that passage; a click
  // on a marked passage opens the panel on its thread.
  const [focusComment, setFocusComment] = useState<{ commentId: string; n: number } | null>(null);
  useEffect(() => {
    const open = () => setPanel('comments');
    const openThread = (e: Event) => {
      const commentId = (e as CustomEvent<{ commentId: string }>).detail.commentId;
      setPanel('comments');
      setFocusComment((f) => ({ commentId, n: (f?.n ?? 0) + 1 }));
    };
    window.addEventListener(COMMENT_ON_SELECTION, open);
    window.addEventListener(OPEN_COMMENT, openThread);
    return () => {
      window.removeEventListener(COMMENT_ON_SELECTION, open);
      window.removeEventListener(OPEN_COMMENT, openThread);
    };
  }, []);

  // Ctrl/Cmd+K: the page switcher, from anywhere in the window (the editor included).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setSwitcher((open) => !open);
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  if (!catalog) return <div className="splash" />;

  return (
    <div className={`app${panel ? ' has-panel' : ''}`}>
      <Sidebar
        session={session}
        catalog={catalog}
        space={space}
        branch={branch}
        replica={replica}
        tree={tree}
        pageId={nav.view === 'page' ? nav.pageId : null}
        editable={editable}
        presence={presence}
        onOpenSpace={openSpace}
        onOpenPage={openPage}
        onNewSpace={onNewSpace}
        onPublish={onPublish}
        onOpenOutbox={onOpenOutbox}
        onAccount={onAccount}
      />
      <main className="main">
        {space ? (
          <>
            <header className="topbar">
              <Breadcrumbs space={space} page={nav.view === 'page' ? page : null} byId={byId} onOpenPage={openPage} />
              <BranchSwitcher
                spaceId={space.id}
                list={changeRequests}
                current={cr}
                onSwitch={(id) => setNav({ changeRequestId: id, view: 'page' })}
              />
              {cr && (
                <div className="seg" role="tablist" aria-label="Change request view">
                  <button
                    type="button"
                    role="tab"
                    aria-selected={nav.view === 'page'}
                    className={nav.view === 'page' ? 'is-active' : ''}
                    onClick={() => setNav({ view: 'page' })}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    role="tab"
                    aria-selected={nav.view === 'review'}
                    className={nav.view === 'review' ? 'is-active' : ''}
                    onClick={() => setNav({ view: 'review' })}
                  >
                    Changes
                  </button>
                </div>
              )}
              <GitStatus spaceId={space.id} />
              <span className="topbar-spacer" />
              <div className="presence" aria-label="People here">
                {presence.slice(0, 5).map((p) => (
                  <span key={p.clientId} className="avatar avatar-sm" style={{ background: p.color }} title={p.name}>
                    {initials(p.name)}
                  </span>
                ))}
              </div>
              <SaveIndicator replica={replica} />
              {branch && <PdfButton branch={branch} />}
              <button
                type="button"
                className={`icon-btn topbar-btn${nav.view === 'insights' ? ' is-on' : ''}`}
                aria-label="Insights"
                title="Insights: what readers of the published site read, rate and miss"
                onClick={() => setNav({ view: nav.view === 'insights' ? 'page' : 'insights' })}
              >
                <Icon name="chart" size={18} />
              </button>
              {nav.view === 'page' && page && space.syncState !== 'local' && (
                <button
                  type="button"
                  className={`icon-btn topbar-btn${panel === 'history' ? ' is-on' : ''}`}
                  aria-label="Page history"
                  title="Page history"
                  onClick={() => setPanel((p) => (p === 'history' ? null : 'history'))}
                >
                  <Icon name="history" size={18} />
                </button>
              )}
              {nav.view === 'page' && page && (
                <button
                  type="button"
                  className={`icon-btn topbar-btn${panel === 'comments' ? ' is-on' : ''}`}
                  aria-label="Comments"
                  title="Comments"
                  onClick={() => setPanel((p) => (p === 'comments' ? null : 'comments'))}
                >
                  <Icon name="comment" size={18} />
                </button>
              )}
            </header>
            {cr && merged && nav.view === 'page' && (
              <div className="banner">
                <StatusBadge cr={cr} /> This change request is merged; its content is read-only.
              </div>
            )}
            {nav.view === 'insights' ? (
              <InsightsView key={space.id} spaceId={space.id} />
            ) : nav.view === 'review' && cr ? (
              <ReviewView
                cr={cr}
                replica={replica}
                onOpenPage={openPage}
                onBackToMain={() => setNav({ changeRequestId: null, view: 'page' })}
              />
            ) : replica && page ? (
              <div className="page-scroll">
                <article className="page">
                  <PageTitle
                    key={`title:${replica.key}:${page.id}`}
                    doc={replica.doc}
                    pageId={page.id}
                    editable={editable}
                    unpublished={space.syncState !== 'remote'}
                  />
                  {branch && isComputedPage(page) ? (
                    <ComputedPage branch={branch} pageId={page.id} />
                  ) : (
                    <PageEditor
                      key={`${replica.key}:${page.id}`}
                      replica={replica}
                      pageId={page.id}
                      user={user}
                      editable={editable}
                      pages={flat}
                      placedCaret={placedCaret?.pageId === page.id ? placedCaret.caret : null}
                      onCaretPlaced={() => setPlacedCaret(null)}
                      anchor={anchorTo?.pageId === page.id ? anchorTo.anchor : null}
                      onOpenPage={followToPage}
                    />
                  )}
                </article>
              </div>
            ) : !replica && branch && page && view?.first?.id === page.id ? (
              <div className="page-scroll">
                <article className="page">
                  <SavedPage
                    key={`saved:${page.id}`}
                    branch={branch}
                    title={page.title}
                    body={view.first.body}
                    onPlaceCaret={(caret) => setPlacedCaret({ pageId: page.id, caret })}
                  />
                </article>
              </div>
            ) : replica && flat.length === 0 ? (
              <div className="empty-state">
                <Icon name="page" size={30} />
                <p>This space has no pages yet.</p>
              </div>
            ) : (
              <div className="page-scroll">
                <div className="page loading">
                  <span className="skeleton title" />
                  <span className="skeleton" />
                  <span className="skeleton" />
                  <span className="skeleton short" />
                </div>
              </div>
            )}
          </>
        ) : (
          <div className="welcome">
            <span className="brand-mark">
              <Icon name="logo" size={30} />
            </span>
            <h1>Pick a space</h1>
            <p className="muted">Choose a space on the left, or start a new one. Everything you write is saved on this device first.</p>
            <button type="button" className="btn btn-primary" onClick={() => setDialog('newSpace')}>
              <Icon name="plus" size={15} /> New space
            </button>
          </div>
        )}
      </main>
      {panel === 'comments' && branch && page && nav.view === 'page' && (
        <CommentsPanel
          branch={branch}
          pageId={page.id}
          pageTitle={page.title || 'Untitled'}
          focus={focusComment}
          onClose={() => {
            setPanel(null);
            setFocusComment(null);
          }}
        />
      )}
      {panel === 'history' && branch && replica && page && nav.view === 'page' && (
        <HistoryPanel
          branch={branch}
          replica={replica}
          pageId={page.id}
          pageTitle={page.title || 'Untitled'}
          editable={editable}
          me={session.user.id}
          meName={session.user.displayName}
          onClose={() => setPanel(null)}
        />
      )}
      {switcher && replica && <PageSwitcher pages={flat} onOpen={openPage} onClose={() => setSwitcher(false)} />}
      {dialog === 'newSpace' && (
        <NewSpaceDialog
          catalog={catalog}
          session={session}
          onClose={() => setDialog(null)}
          onCreated={(s) => {
            setDialog(null);
            openSpace(s.id);
          }}
        />
      )}
      {dialog === 'publish' && space && <PublishDialog catalog={catalog} space={space} onClose={() => setDialog(null)} />}
      {dialog === 'outbox' && <OutboxDialog onClose={() => setDialog(null)} />}
      {dialog === 'account' && (
        <AccountDialog
          session={session}
          onClose={() => setDialog(null)}
          onSession={onSession}
          onConnect={() => {
            setDialog(null);
            onConnect();
          }}
        />
      )}
    </div>
  );
}

/** Opens the branch's PDF, made by the server, in the system's viewer (or says why it cannot). */
function PdfButton({ branch }: { branch: BranchRef }) {
  return (
    <button
      type="button"
      className="icon-btn topbar-btn"
      aria-label="Download PDF"
      title="Download PDF"
      onClick={() =>
        call('pages.pdf', { branch })
          .then((r) => (r.url ? window.open(r.url, '_blank') : notify('info', r.reason ?? 'No PDF for this space.')))
          .catch((err: Error) => notify('error', err.message))
      }
    >
      <Icon name="file" size={18} />
    </button>
  );
}
