import { useEffect, useRef, useState } from 'react';
import type { SyncStatus } from '../../common/ipc';
import { call } from '../bridge';
import { useSyncStatus } from './hooks';
import { Icon } from './Icons';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * What waits to be sent, in the writer's terms: pages (each page once, never a count of
 * stored updates, which would tick with every key), files, and actions such as a comment.
 */
export function describeWaiting(status: SyncStatus): string {
  const parts: string[] = [];
  if (status.pendingPages > 0) parts.push(plural(status.pendingPages, 'page'));
  else if (status.unsentEdits > 0) parts.push('Edits');
  if (status.pendingFiles > 0) parts.push(plural(status.pendingFiles, 'file'));
  const actions = status.pendingMutations - status.pendingFiles;
  if (actions > 0) parts.push(plural(actions, 'action'));
  if (parts.length === 0) return 'Everything is sent';
  return `${parts.join(', ').replace(/, ([^,]*)$/, ' and $1')} waiting to be sent`;
}

/** What the status line says: the truth about the connection and what waits to be sent. */
export function describeStatus(status: SyncStatus): { tone: 'ok' | 'busy' | 'off' | 'bad' | 'local'; title: string; detail: string } {
  const waiting = describeWaiting(status);
  switch (status.connection) {
    case 'local':
      return { tone: 'local', title: 'On this device', detail: 'Saved locally; no server' };
    case 'online':
      return status.pending > 0
        ? { tone: 'busy', title: 'Syncing', detail: waiting }
        : { tone: 'ok', title: 'Online', detail: 'All changes synced' };
    case 'connecting':
      return { tone: 'busy', title: 'Connecting…', detail: status.pending > 0 ? waiting : 'Saved locally' };
    case 'unauthorized':
      return { tone: 'bad', title: 'Sign in again', detail: status.lastError ?? 'The server refused the token' };
    default:
      return {
        tone: 'off',
        title: status.workOffline ? 'Working offline' : 'Offline',
        detail: status.pending > 0 ? waiting : 'Saved locally',
      };
  }
}

/** How long edits may wait, online, before the footer says "Syncing": a keystroke is sent well within it. */
const SETTLE_MS = 1500;

/** Online, nothing but edits in flight: the normal state while typing, not news. */
const onlyEditsInFlight = (s: SyncStatus) => s.connection === 'online' && s.pendingMutations === 0 && s.failed === 0 && s.pending > 0;

/**
 * The status to show. Online, each keystroke is waiting for a moment and then sent; the
 * footer shows "Syncing" only when edits keep waiting, so typing does not make it flicker
 * (nor re-render it) on every key. Every other change shows at once.
 */
function useSettledStatus(status: SyncStatus | null): SyncStatus | null {
  const [shown, setShown] = useState(status);
  const shownRef = useRef(shown);
  shownRef.current = shown;
  useEffect(() => {
    // Only a status that stays online waits: coming online with edits waiting (the Offline
    // switch turned off) must show at once, or the line would still say offline.
    if (!status || !onlyEditsInFlight(status) || shownRef.current?.connection !== 'online') {
      setShown((prev) => (prev && status && JSON.stringify(prev) === JSON.stringify(status) ? prev : status));
      return;
    }
    const timer = setTimeout(() => setShown(status), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [status]);
  return shown;
}

/**
 * The sidebar's footer. It holds the sync status itself: the status changes while the
 * writer types (edits waiting, then sent), and only this footer needs to know.
 */
export function SyncStatusBar({ onOpenOutbox }: { onOpenOutbox: () => void }) {
  const status = useSettledStatus(useSyncStatus());
  // The switch moves at once; the status that confirms it arrives a moment later.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const confirmed = status?.workOffline;
  useEffect(() => {
    if (wanted !== null && wanted === confirmed) setWanted(null);
  }, [wanted, confirmed]);
  if (!status) return <footer className="status-bar" />;
  // Until the LocalNode confirms the switch, the line says what the switch says.
  const switching = wanted !== null && wanted !== status.workOffline;
  const { tone, title, detail } = describeStatus(
    switching ? { ...status, workOffline: wanted, connection: wanted ? 'offline' : 'connecting' } : status,
  );
  return (
    <footer className="status-bar" data-connection={status.connection}>
      <div className="status-main">
        <span className={`status-dot tone-${tone}`} aria-hidden />
        <div className="status-text">
          <strong data-testid="sync-status">{title}</strong>
          <span data-testid="sync-detail">{detail}</span>
        </div>
        {status.mode === 'server' && (
          <label className="switch" title={status.workOffline ? 'Go back online' : 'Stop syncing until you switch back'}>
            <input
              type="checkbox"
              aria-label="Work offline"
              checked={wanted ?? status.workOffline}
              onChange={(e) => {
                const offline = e.target.checked;
                setWanted(offline);
                call('sync.setWorkOffline', { offline }).catch(() => setWanted(null));
              }}
            />
            <span className="switch-track" />
            <span className="switch-label">Offline</span>
          </label>
        )}
      </div>
      {(status.failed > 0 || status.pendingMutations > 0) && (
        <button type="button" className={`status-issues${status.failed > 0 ? ' is-bad' : ''}`} onClick={onOpenOutbox}>
          <Icon name={status.failed > 0 ? 'warning' : 'cloud'} size={14} />
          {status.failed > 0
            ? `${plural(status.failed, 'change')} refused by the server`
            : `${describeWaiting({ ...status, pendingPages: 0, unsentEdits: 0 }).replace(' waiting to be sent', '')} queued`}
        </button>
      )}
    </footer>
  );
}
