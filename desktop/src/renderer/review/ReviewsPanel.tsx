import { useCallback, useEffect, useState } from 'react';
import type { ChangeRequestSummary, ReviewPanel } from '../../common/ipc';
import { call } from '../bridge';
import { Icon } from '../components/Icons';
import { askText } from '../components/Prompt';
import { notify } from '../components/Toasts';
import { colorFor, initials, timeAgo } from '../components/hooks';

const REFRESH_MS = 5000;

function StatusChip({ status }: { status: 'approved' | 'changes-requested' | null }) {
  if (status === 'approved')
    return (
      <span className="badge badge-approved">
        <Icon name="check" size={12} /> Approved
      </span>
    );
  if (status === 'changes-requested') return <span className="badge badge-warning">Changes requested</span>;
  return <span className="badge badge-muted">Waiting</span>;
}

/**
 * Who reviews the change request and what they said: ask a teammate, approve or request
 * changes (with a note). Reviews live on the server; offline the panel says so.
 */
export function ReviewsPanel({ cr }: { cr: ChangeRequestSummary }) {
  const [panel, setPanel] = useState<ReviewPanel | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(
    () =>
      call('reviews.get', { changeRequestId: cr.id })
        .then((p) => {
          setPanel(p);
          setError(null);
        })
        .catch((err: Error) => setError(err.message)),
    [cr.id],
  );
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);
  const act = async (fn: () => Promise<ReviewPanel>, done: string) => {
    setBusy(true);
    try {
      setPanel(await fn());
      notify('info', done);
    } catch (err) {
      notify('error', (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  if (cr.syncState !== 'remote')
    return <section className="reviews muted small">Reviews start once this change request is on the server.</section>;
  if (!panel)
    return (
      <section className="reviews" aria-label="Reviews">
        <h2>Reviews</h2>
        {error ? <p className="muted small">{error}</p> : <span className="skeleton" />}
      </section>
    );
  // The latest review of each reviewer is the one that counts.
  const latest = new Map<string, ReviewPanel['reviews'][number]>();
  for (const r of [...panel.reviews].sort((a, b) => a.createdAt.localeCompare(b.createdAt))) latest.set(r.reviewer.id, r);
  const requestedIds = new Set(panel.requested.map((r) => r.user.id));
  const people = [
    ...panel.requested.map((r) => ({ user: r.user, review: latest.get(r.user.id) ?? null, requested: true })),
    ...[...latest.values()].filter((r) => !requestedIds.has(r.reviewer.id)).map((r) => ({ user: r.reviewer, review: r, requested: false })),
  ];
  const askable = panel.candidates.filter((u) => u.id !== panel.me && !requestedIds.has(u.id));
  const merged = cr.mergeState === 'merged' || cr.status === 'merged';
  return (
    <section className="reviews" aria-label="Reviews">
      <header className="reviews-head">
        <h2>Reviews</h2>
        {error && <span className="muted small">{error}</span>}
      </header>
      {people.length === 0 && <p className="muted small">Nobody reviewed this change request yet.</p>}
      <ul className="reviewers">
        {people.map(({ user, review, requested }) => (
          <li key={user.id} className="reviewer" data-user-id={user.id}>
            <span className="avatar avatar-sm" style={{ background: colorFor(user.id + user.displayName) }}>
              {initials(user.displayName)}
            </span>
            <span className="reviewer-name">{user.displayName}</span>
            <StatusChip status={review?.status ?? null} />
            {review?.outdated && (
              <span className="muted small" title="Given on an earlier version of the change request">
                earlier version
              </span>
            )}
            {review && <span className="muted small">{timeAgo(review.createdAt)}</span>}
            {requested && !merged && (
              <button
                type="button"
                className="icon-btn"
                aria-label={`Withdraw the review request to ${user.displayName}`}
                disabled={busy}
                onClick={() =>
                  void act(() => call('reviews.withdraw', { changeRequestId: cr.id, userId: user.id }), 'Review request withdrawn.')
                }
              >
                <Icon name="x" size={14} />
              </button>
            )}
            {review?.comment && <p className="reviewer-note">{review.comment}</p>}
          </li>
        ))}
      </ul>
      {!merged && (
        <div className="reviews-actions">
          {askable.length > 0 && (
            <select
              className="tool-select"
              aria-label="Ask for a review"
              value=""
              disabled={busy}
              onChange={(e) => {
                const userId = e.target.value;
                if (userId) void act(() => call('reviews.request', { changeRequestId: cr.id, userId }), 'Review requested.');
              }}
            >
              <option value="">Ask for a review…</option>
              {askable.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.displayName}
                </option>
              ))}
            </select>
          )}
          <span className="topbar-spacer" />
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={async () => {
              const note = await askText({ title: 'Request changes', label: 'What should change?', confirm: 'Request changes' });
              if (note === null) return;
              await act(
                () => call('reviews.submit', { changeRequestId: cr.id, status: 'changes-requested', comment: note.trim() || undefined }),
                'Changes requested.',
              );
            }}
          >
            Request changes
          </button>
          <button
            type="button"
            className="btn btn-approve"
            disabled={busy}
            onClick={() => void act(() => call('reviews.submit', { changeRequestId: cr.id, status: 'approved' }), 'Approved.')}
          >
            <Icon name="check" size={15} /> Approve
          </button>
        </div>
      )}
    </section>
  );
}
