import { useState } from 'react';
import type { SessionState } from '../../common/ipc';
import { call } from '../bridge';
import { Icon } from './Icons';

/**
 * First start (or after signing out): connect to a Quire server, or work on this device
 * only. Local spaces can be published to a server later.
 */
export function ConnectScreen({ onSession, session }: { onSession: (s: SessionState) => void; session?: SessionState }) {
  const [url, setUrl] = useState('http://localhost:8080');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const connect = async () => {
    setBusy(true);
    setError(null);
    try {
      onSession(await call('session.connect', { url, token }));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="connect">
      <div className="connect-card">
        <div className="connect-brand">
          <span className="brand-mark">
            <Icon name="logo" size={26} />
          </span>
          <div>
            <h1>Welcome to Quire</h1>
            <p>Documentation that works offline and syncs when you are back.</p>
          </div>
        </div>
        <form
          className="connect-form"
          onSubmit={(e) => {
            e.preventDefault();
            void connect();
          }}
        >
          <h2>
            <Icon name="server" size={18} /> Connect to a server
          </h2>
          <label className="field">
            <span>Server address</span>
            <input
              name="server"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://docs.example.com"
              autoComplete="url"
              required
            />
          </label>
          <label className="field">
            <span>API token</span>
            <input
              name="token"
              type="password"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              placeholder="Paste your token"
              autoComplete="off"
              required
            />
          </label>
          {error && (
            <p className="form-error" role="alert">
              <Icon name="warning" size={15} /> {error}
            </p>
          )}
          <button type="submit" className="btn btn-primary btn-block" disabled={busy || !token.trim()}>
            {busy ? 'Connecting…' : 'Connect'}
          </button>
          <p className="hint-text">
            <Icon name="info" size={14} /> The token is kept in your system keychain where available.
          </p>
        </form>
        {session?.mode !== 'local' && (
          <>
            <div className="connect-or">
              <span>or</span>
            </div>
            <button
              type="button"
              className="btn btn-block btn-outline"
              onClick={async () => {
                onSession(await call('session.useLocal', {}));
              }}
            >
              <Icon name="laptop" size={17} /> Work on this device only
            </button>
          </>
        )}
      </div>
    </div>
  );
}
