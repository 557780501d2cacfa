import { createHash, randomBytes } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';

/**
 * Signing in through the system browser, as RFC 8252 asks of native apps: a loopback
 * listener on an ephemeral port receives the server's redirect with a one-time code, which
 * is exchanged with the PKCE verifier (RFC 7636, S256) that never left this process.
 */
export interface BrowserSignIn {
  /** The server's sign-in page, for the system browser. */
  readonly authorizeUrl: string;
  /** Settles once the browser came back: after `onToken` took the new token, or with why not. */
  readonly done: Promise<void>;
  cancel(): void;
}

export interface BrowserSignInOptions {
  /** Stores the token (and checks it); the browser's page waits for it to say how it went. */
  onToken: (token: string) => Promise<void>;
  timeoutMs?: number;
  /** The token's name in the user's token list. */
  deviceName?: string;
}

const TEN_MINUTES = 10 * 60_000;

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);

/** The page the browser shows at the loopback redirect: no script, nothing loaded from elsewhere. */
function answerPage(res: ServerResponse, status: number, title: string, message: string) {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · Quire</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>
:root{color-scheme:light dark;--bg:#f7f7f8;--card:#fff;--fg:#1b1c1f;--soft:#4b4f58;--border:#e6e7ea;--accent:#346ddb}
@media (prefers-color-scheme:dark){:root{--bg:#0f1115;--card:#15181e;--fg:#e8eaed;--soft:#b5bac3;--border:#262a33;--accent:#6d9cf5}}
body{margin:0;min-height:100vh;display:grid;place-items:center;padding:24px;background:var(--bg);color:var(--fg);font:16px/1.6 "Inter",ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:400px;background:var(--card);border:1px solid var(--border);border-radius:14px;padding:32px;box-shadow:0 8px 24px rgba(16,24,40,.08)}
.mark{display:inline-grid;place-items:center;width:30px;height:30px;border-radius:8px;background:var(--accent);color:#fff;font-weight:700;margin-bottom:16px}
h1{font-size:22px;margin:0 0 8px}p{margin:0;color:var(--soft)}
</style></head><body><main><div class="mark" aria-hidden="true">Q</div><h1>${esc(title)}</h1><p>${esc(message)}</p></main></body></html>`);
}

function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function exchange(serverUrl: string, body: Record<string, string>): Promise<string> {
  const res = await fetch(`${serverUrl}/v1/auth/desktop/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const answer = (await res.json().catch(() => ({}))) as { token?: string; error?: { message?: string } };
  if (!res.ok || !answer.token) throw new Error(answer.error?.message ?? `The server refused the sign-in (HTTP ${res.status}).`);
  return answer.token;
}

/** Starts listening and answers the sign-in page's address; the rest happens when the browser comes back. */
export async function startBrowserSignIn(serverUrl: string, options: BrowserSignInOptions): Promise<BrowserSignIn> {
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(16).toString('base64url');
  let settle!: (err?: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    settle = (err) => (err ? reject(err) : resolve());
  });
  let finished = false;
  let redirectUri = '';

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const code = url.searchParams.get('code');
    // Anything may knock on a loopback port: only the redirect carrying our state is ours.
    if (finished || url.searchParams.get('state') !== state || !code) {
      answerPage(res, 400, 'Not this sign-in', 'This page does not answer the sign-in Quire is waiting for. Start it again from the app.');
      return;
    }
    finished = true;
    exchange(serverUrl, { code, code_verifier: verifier, redirect_uri: redirectUri, device_name: options.deviceName ?? deviceName() })
      .then(options.onToken)
      .then(
        () => {
          answerPage(res, 200, 'You are signed in', 'Return to the Quire app; you can close this tab.');
          end();
        },
        (err: Error) => {
          answerPage(res, 400, 'Sign-in failed', `${err.message} Return to the Quire app to try again.`);
          end(err);
        },
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;

  const timer = setTimeout(
    () => end(new Error('The sign-in was not finished in the browser within 10 minutes.')),
    options.timeoutMs ?? TEN_MINUTES,
  );
  timer.unref?.();
  function end(err?: Error) {
    finished = true;
    clearTimeout(timer);
    // Let the answer page reach the browser before the listener goes.
    server.close();
    setTimeout(() => server.closeAllConnections(), 1000).unref?.();
    settle(err);
  }

  const query = new URLSearchParams({ redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', state });
  return {
    authorizeUrl: `${serverUrl}/v1/auth/desktop/authorize?${query}`,
    done,
    cancel: () => {
      if (!finished) end(new Error('The sign-in was cancelled.'));
    },
  };
}

function deviceName(): string {
  try {
    return `Quire desktop on ${hostname()}`.slice(0, 100);
  } catch {
    return 'Quire desktop';
  }
}
