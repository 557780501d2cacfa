import { type ReactNode, useEffect, useState } from 'react';
import type { Catalog, OutboxEntryView, SessionState, SpaceSummary } from '../../common/ipc';
import { bridge, call } from '../bridge';
import { useEscape } from './escape';
import { Icon } from './Icons';
import { ThemeSwitch } from './ThemeSwitch';
import { timeAgo } from './hooks';
import { notify } from './Toasts';

export function Modal({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  useEscape(onClose);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className={`modal${wide ? ' modal-wide' : ''}`} role="dialog" aria-label={title}>
        <div className="modal-head">
          <h2>{title}</h2>
          <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
            <Icon name="x" size={16} />
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

const EMOJIS = ['📘', '🚀', '🧭', '🛠️', '📐', '🧪', '💡', '📦'];

/** A new space: in an organization on the server, or on this device only. */
export function NewSpaceDialog({
  catalog,
  session,
  onClose,
  onCreated,
}: {
  catalog: Catalog;
  session: SessionState;
  onClose: () => void;
  onCreated: (s: SpaceSummary) => void;
}) {
  const [title, setTitle] = useState('');
  const [emoji, setEmoji] = useState('📘');
  const [where, setWhere] = useState<string>(session.mode === 'server' ? (catalog.organizations[0]?.id ?? 'local') : 'local');
  const [busy, setBusy] = useState(false);
  return (
    <Modal title="New space" onClose={onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          try {
            const space = await call('spaces.create', {
              title: title.trim(),
              emoji,
              organizationId: where === 'local' ? undefined : where,
            });
            onCreated(space);
          } catch (err) {
            notify('error', (err as Error).message);
          } finally {
            setBusy(false);
          }
        }}
      >
        <label className="field">
          <span>Title</span>
          <div className="title-with-emoji">
            <select aria-label="Icon" value={emoji} onChange={(e) => setEmoji(e.target.value)}>
              {EMOJIS.map((x) => (
                <option key={x}>{x}</option>
              ))}
            </select>
            <input
              name="title"
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              placeholder="Product handbook"
              autoFocus
              required
            />
          </div>
        </label>
        <label className="field">
          <span>Where</span>
          <select name="where" value={where} onChange={(e) => setWhere(e.target.value)}>
            {catalog.organizations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.title} (server)
              </option>
            ))}
            <option value="local">This device only</option>
          </select>
        </label>
        <p className="hint-text">
          <Icon name="info" size={14} />
          {where === 'local'
            ? ' Stays on this device. You can publish it to a server later.'
            : ' Created here at once; the server gets it as soon as it is reachable.'}
        </p>
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || !title.trim()}>
            Create space
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function PublishDialog({ catalog, space, onClose }: { catalog: Catalog; space: SpaceSummary; onClose: () => void }) {
  const [org, setOrg] = useState(catalog.organizations[0]?.id ?? '');
  return (
    <Modal title={`Publish “${space.title}”`} onClose={onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            await call('spaces.publish', { spaceId: space.id, organizationId: org });
            notify('info', 'Publishing: the space syncs to the server in the background.');
            onClose();
          } catch (err) {
            notify('error', (err as Error).message);
          }
        }}
      >
        <p className="modal-text">
          The space, its pages, comments and change requests are sent to the server. Everything stays available offline.
        </p>
        <label className="field">
          <span>Organization</span>
          <select value={org} onChange={(e) => setOrg(e.target.value)}>
            {catalog.organizations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.title}
              </option>
            ))}
          </select>
        </label>
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={!org}>
            <Icon name="upload" size={15} /> Publish
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** Changes waiting for the server, and the ones it refused (kept until retried or discarded). */
export function OutboxDialog({ onClose }: { onClose: () => void }) {
  const [entries, setEntries] = useState<OutboxEntryView[]>([]);
  useEffect(() => {
    const load = () => void call('outbox.list', {}).then(setEntries);
    load();
    return bridge.on('outbox.changed', load);
  }, []);
  const act = async (fn: () => Promise<OutboxEntryView[]>) => {
    try {
      setEntries(await fn());
    } catch (err) {
      notify('error', (err as Error).message);
    }
  };
  return (
    <Modal title="Changes waiting for the server" onClose={onClose} wide>
      {entries.length === 0 ? (
        <p className="modal-text">
          <Icon name="check" size={15} /> Nothing waits: every change reached the server.
        </p>
      ) : (
        <ul className="outbox">
          {entries.map((e) => (
            <li key={e.seq} className={`outbox-entry is-${e.state}`}>
              <Icon name={e.state === 'failed' ? 'warning' : 'cloud'} size={16} />
              <div className="outbox-text">
                <strong>{e.label || e.kind}</strong>
                <span>
                  {e.state === 'failed'
                    ? `Failed: ${e.error}`
                    : e.waitingFor
                      ? `Waits for “${entries.find((x) => x.seq === e.waitingFor)?.label ?? 'an earlier change'}”, which failed: retry or discard that first`
                      : e.attempts > 0
                        ? `Waiting (last try: ${e.error ?? 'no answer'})`
                        : 'Waiting'}{' '}
                  · {timeAgo(e.createdAt)}
                </span>
              </div>
              {e.state === 'failed' && (
                <span className="outbox-actions">
                  <button type="button" className="btn btn-small" onClick={() => void act(() => call('outbox.retry', { seq: e.seq }))}>
                    Retry
                  </button>
                  <button
                    type="button"
                    className="btn btn-small btn-ghost-danger"
                    onClick={() => void act(() => call('outbox.discard', { seq: e.seq }))}
                  >
                    Discard
                  </button>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}

export function AccountDialog({
  session,
  onClose,
  onConnect,
  onSession,
}: {
  session: SessionState;
  onClose: () => void;
  onConnect: () => void;
  onSession: (s: SessionState) => void;
}) {
  return (
    <Modal title="Account" onClose={onClose}>
      {session.server ? (
        <>
          <dl className="facts">
            <dt>Server</dt>
            <dd>{session.server.url}</dd>
            <dt>Signed in as</dt>
            <dd>
              {session.server.user.displayName}
              {session.server.user.email ? ` (${session.server.user.email})` : ''}
            </dd>
            <dt>Token</dt>
            <dd>{session.credentialsEncrypted ? 'Kept in the system keychain' : 'Kept in a private file on this device'}</dd>
          </dl>
          <div className="modal-actions">
            <button
              type="button"
              className="btn btn-ghost-danger"
              onClick={async () => {
                onSession(await call('session.signOut', {}));
                onClose();
              }}
            >
              <Icon name="signOut" size={15} /> Sign out
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="modal-text">You are working on this device only. Connect to a server to sync and to publish your spaces.</p>
          <div className="modal-actions">
            <button type="button" className="btn btn-primary" onClick={onConnect}>
              <Icon name="server" size={15} /> Connect to a server
            </button>
          </div>
        </>
      )}
      <ThemeSwitch />
    </Modal>
  );
}
