import type { GitProvider } from '@quire/shared/schemas/git';

/** Basic auth credentials a repository URL carried. */
export interface GitCredentials {
  username: string;
  password: string;
}

/** A repository's address as shown and logged (never with credentials), and the credentials apart. */
export interface RepositoryAddress {
  url: string;
  credentials?: GitCredentials;
}

/** Splits `https://user:token@host/org/repo.git` into the address without credentials and the credentials. */
export function splitCredentials(raw: string): RepositoryAddress {
  const u = new URL(raw);
  const username = safeDecode(u.username);
  const password = safeDecode(u.password);
  u.username = '';
  u.password = '';
  return { url: u.toString(), ...(username || password ? { credentials: { username, password } } : {}) };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The git host, guessed from the address: GitHub and GitLab by their names, any other server is generic. */
export function providerOf(url: string): GitProvider {
  const host = new URL(url).hostname.toLowerCase();
  if (host === 'github.com' || host.endsWith('.github.com') || host.endsWith('.ghe.com')) return 'github';
  if (host === 'gitlab.com' || host.startsWith('gitlab.') || host.endsWith('.gitlab.com')) return 'gitlab';
  return 'generic';
}

/** `owner/name` from the address's path (`/acme/docs.git` → `acme/docs`). */
export function repoNameOf(url: string): string | undefined {
  const path = new URL(url).pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/i, '');
  return path || undefined;
}

/**
 * A message with every form of the credentials blanked out: whatever a library puts in an
 * error, what is stored and shown never carries them.
 */
export function redact(message: string, credentials: GitCredentials | undefined): string {
  if (!credentials) return message;
  let out = message;
  for (const secret of [credentials.password, credentials.username]) {
    if (secret.length < 3) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')])) {
      out = out.split(form).join('***');
    }
  }
  return out;
}
