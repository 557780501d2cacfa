import { useState } from 'react';
import type { SessionState } from '../../common/ipc';
import { call } from '../bridge';
import { type Opener, openExternal, reserveTab } from '../bridge/openExternal';
import { Icon } from './Icons';

/**
 * First start (or after signing out): connect to a Quire server, or work on this device
 * only. Local spaces can be published to a server later.
 */
export function ConnectScreen({
  onSession,
  session,
  opener = openExternal,
}: {
  onSession: (s: SessionState) => void;
  session?: SessionState;
  opener?: Opener;
}) {
  const [url, setUrl] = useState('http://localhost:8080');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  /** RFC 8252: the server's sign-in page in the system browser, which hands a code back to the LocalNode. */
  const signInWithBrowser = async () => {
    const tab = reserveTab();
    setWaiting(true);
    setError(null);
    try {
      const { authorizeUrl } = await call('session.browserSignIn', { url });
      opener(authorizeUrl, tab);
      onSession(await call('session.browserSignInDone', {}));
    } catch (err) {
      tab?.close();
      setError((err as Error).message);
    } finally {
      setWaiting(false);
    }
  };

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
          {waiting ? (
            <div className="browser-wait" role="status">
              <p>
                <Icon name="info" size={15} /> Finish signing in in your browser; Quire continues here once you are done.
              </p>
              <button type="button" className="btn btn-block btn-outline" onClick={() => void call('session.browserSignInCancel', {})}>
                Cancel
              </button>
            </div>
          ) : (
            <button
              type="button"
              className="btn btn-primary btn-block"
              disabled={busy || !url.trim()}
              onClick={() => void signInWithBrowser()}
            >
              Sign in with your browser
            </button>
          )}
          <div className="connect-or">
            <span>or paste an API token</span>
          </div>
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
          <button type="submit" className="btn btn-outline btn-block" disabled={busy || waiting || !token.trim()}>
            {busy ? 'Connecting…' : 'Connect'}
          </button>
          <p className="hint-text">
            <Icon name="info" size={14} /> Either way the token is kept in your system keychain where available; pasting one suits scripts
            and automation.
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
