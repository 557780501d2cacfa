import { useCallback, useEffect, useState } from 'react';
import type { GitSpaceState } from '../../common/ipc';
import { call } from '../bridge';
import { useEscape } from './escape';
import { Icon } from './Icons';

/** How often the state is asked again while shown: often while a sync runs, else now and then. */
const RUNNING_MS = 3_000;
const IDLE_MS = 30_000;

type Op = NonNullable<GitSpaceState['operation']>;

function stateOf(op: Op | null): { tone: 'ok' | 'busy' | 'failed' | 'idle'; label: string } {
  if (!op) return { tone: 'idle', label: 'Not synced yet' };
  if (op.state === 'running') return { tone: 'busy', label: 'Syncing…' };
  if (op.state === 'success') return { tone: 'ok', label: 'Synced' };
  return { tone: 'failed', label: op.state === 'timeout' ? 'Sync timed out' : 'Sync failed' };
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '');

/**
 * A git-connected space's state in the top bar: the branch, the last commit both sides
 * agree on (short), and how the last sync went; the details (repository, times, the error
 * worded for a person) open below it. Asked of the LocalNode, which asks the server or
 * answers what it kept; nothing shows for a space without a connection.
 */
export function GitStatus({ spaceId }: { spaceId: string }) {
  const [git, setGit] = useState<GitSpaceState | null>(null);
  const [open, setOpen] = useState(false);
  useEscape(open && (() => setOpen(false)));
  const load = useCallback(
    () =>
      call('git.state', { spaceId })
        .then(setGit)
        .catch(() => {}),
    [spaceId],
  );
  const running = git?.operation?.state === 'running';
  useEffect(() => {
    setGit(null);
    setOpen(false);
  }, [spaceId]);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), running ? RUNNING_MS : IDLE_MS);
    return () => clearInterval(timer);
  }, [load, running]);

  const c = git?.connection;
  if (!git || !c) return null;
  const op = git.operation;
  const { tone, label } = stateOf(op);
  const sha = c.commit?.slice(0, 7) ?? null;
  return (
    <div className="git-status">
      <button
        type="button"
        className={`git-chip is-${tone}`}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-label={`Git: ${c.ref}${sha ? ` at ${sha}` : ''}, ${label}`}
        title={op?.error ?? `${label}: ${c.url}`}
        onClick={() => setOpen((o) => !o)}
      >
        <Icon name="branch" size={14} />
        <span className="git-ref">{c.ref}</span>
        {sha && <code className="git-sha">{sha}</code>}
        <span className="git-dot" aria-hidden />
        <span className="git-label">{label}</span>
      </button>
      {open && (
        <div className="menu git-panel" role="dialog" aria-label="Git sync">
          <div className="menu-label">Git sync</div>
          <dl>
            <dt>Repository</dt>
            <dd className="git-url">{c.url}</dd>
            <dt>Branch</dt>
            <dd>{c.ref}</dd>
            <dt>Last commit</dt>
            <dd>{c.commit ? <code title={c.commit}>{sha}</code> : 'None yet'}</dd>
            <dt>State</dt>
            <dd className={`git-state is-${tone}`}>
              {label}
              {op && ` · ${op.direction === 'import' ? 'from git' : 'to git'}, ${when(op.endedAt ?? op.startedAt)}`}
            </dd>
          </dl>
          {op?.error && (
            <p className="git-error" role="alert">
              {op.error}
            </p>
          )}
          <div className="git-foot">
            <span>{git.source === 'kept' ? `Offline: as of ${when(git.checkedAt)}` : `Checked ${when(git.checkedAt)}`}</span>
            <button type="button" className="btn btn-small" onClick={() => void load()}>
              <Icon name="refresh" size={13} /> Refresh
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
