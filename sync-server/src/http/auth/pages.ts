import type { DesktopAuthorizeQuery } from '@quire/shared/schemas/desktopAuth';

/**
 * The desktop sign-in pages: server-rendered HTML in the look of published sites (their
 * palette, type and radius, light or dark as the system is), with no script at all.
 */

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);

const CSS = `
*,*::before,*::after{box-sizing:border-box}
:root{color-scheme:light dark;--primary:#346ddb;--radius:10px;--font:"Inter",ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
--bg:#f7f7f8;--card:#ffffff;--fg:#1b1c1f;--fg-soft:#4b4f58;--fg-muted:#747a85;--border:#e6e7ea;--accent:var(--primary);--on-accent:#fff;--danger:#dc2626;
--shadow:0 1px 2px rgba(16,24,40,.05),0 8px 24px rgba(16,24,40,.08)}
@media (prefers-color-scheme:dark){:root{--primary:#6d9cf5;--bg:#0f1115;--card:#15181e;--fg:#e8eaed;--fg-soft:#b5bac3;--fg-muted:#8a909b;--border:#262a33;--on-accent:#0f1115;--danger:#f87171;
--shadow:0 1px 2px rgba(0,0,0,.3),0 12px 32px rgba(0,0,0,.45)}}
body{margin:0;min-height:100vh;display:grid;place-items:center;padding:24px;background:var(--bg);color:var(--fg);font:16px/1.6 var(--font);-webkit-font-smoothing:antialiased}
main{width:100%;max-width:400px;background:var(--card);border:1px solid var(--border);border-radius:calc(var(--radius) + 4px);box-shadow:var(--shadow);padding:32px}
.brand{display:flex;align-items:center;gap:10px;font-weight:650;font-size:17px;margin-bottom:20px}
.mark{display:grid;place-items:center;width:30px;height:30px;border-radius:8px;background:var(--accent);color:var(--on-accent);font-weight:700}
h1{font-size:22px;line-height:1.3;letter-spacing:-.01em;margin:0 0 6px}
p{margin:0 0 18px;color:var(--fg-soft);font-size:15px}
label{display:block;font-size:14px;font-weight:550;margin:0 0 6px}
input{display:block;width:100%;font:inherit;color:var(--fg);background:var(--card);border:1px solid var(--border);border-radius:var(--radius);padding:9px 12px;margin:0 0 16px}
input:focus{outline:2px solid color-mix(in srgb,var(--accent) 45%,transparent);outline-offset:1px;border-color:var(--accent)}
button{display:block;width:100%;font:inherit;font-weight:600;cursor:pointer;border:1px solid var(--accent);border-radius:var(--radius);padding:10px 14px;background:var(--accent);color:var(--on-accent);margin:0 0 10px}
button.secondary{background:transparent;color:var(--fg);border-color:var(--border)}
.error{color:var(--danger);background:color-mix(in srgb,var(--danger) 10%,transparent);border-radius:var(--radius);padding:10px 12px;font-size:14px}
.note{font-size:13px;color:var(--fg-muted);margin:14px 0 0}
.notice{color:var(--fg);background:color-mix(in srgb,var(--accent) 12%,transparent);border-radius:var(--radius);padding:10px 12px;font-size:14px}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · Quire</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<style>${CSS}</style></head>
<body><main><div class="brand"><span class="mark" aria-hidden="true">Q</span> Quire</div>
${body}
</main></body></html>`;
}

/** The app's request travels with each step of the form. */
function carried(q: DesktopAuthorizeQuery): string {
  return (['redirect_uri', 'code_challenge', 'code_challenge_method', 'state'] as const)
    .map((k) => `<input type="hidden" name="${k}" value="${esc(q[k])}">`)
    .join('');
}

const ACTION = '/v1/auth/desktop/authorize';
const WHO =
  '<p>The Quire desktop app on this computer asks to sign in to your account. It receives a token of its own, which you can revoke at any time.</p>';
const errorOf = (error?: string) => (error ? `<p class="error" role="alert">${esc(error)}</p>` : '');

/** First step: who signs in, which decides how (an organization's identity provider, or a password). */
export function emailPage(q: DesktopAuthorizeQuery, error?: string, email = ''): string {
  return page(
    'Sign in',
    `<h1>Sign in to the desktop app</h1>${WHO}${errorOf(error)}
<form method="post" action="${ACTION}">${carried(q)}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required autofocus value="${esc(email)}">
<button type="submit">Continue</button></form>`,
  );
}

export function passwordPage(q: DesktopAuthorizeQuery, email: string, error?: string, notice?: string): string {
  return page(
    'Sign in',
    `<h1>Sign in to the desktop app</h1>${WHO}${errorOf(error)}${notice ? `<p class="notice" role="status">${esc(notice)}</p>` : ''}
<form method="post" action="${ACTION}">${carried(q)}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(email)}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Sign in</button></form>
<form method="post" action="${ACTION}">${carried(q)}<input type="hidden" name="email" value="${esc(email)}"><input type="hidden" name="change" value="1">
<button type="submit" class="secondary">Change password</button></form>
<p class="note">No password yet? An administrator of this server sets one for you.</p>`,
  );
}

/** Changing one's password on the way in: the current one, then the new one, twice. */
export function changePasswordPage(q: DesktopAuthorizeQuery, email: string, error?: string): string {
  return page(
    'Change password',
    `<h1>Change your password</h1><p>Enter the password you sign in with now, then the new one: at least 12 characters.</p>${errorOf(error)}
<form method="post" action="${ACTION}">${carried(q)}<input type="hidden" name="change" value="1">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(email)}">
<label for="password">Current password</label><input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<label for="new_password">New password</label><input id="new_password" name="new_password" type="password" autocomplete="new-password" minlength="12" required>
<label for="new_password_again">New password, again</label><input id="new_password_again" name="new_password_again" type="password" autocomplete="new-password" minlength="12" required>
<button type="submit">Change password</button></form>`,
  );
}

/** Organizations that require single sign-on: one button per identity provider. */
export function providersPage(
  q: DesktopAuthorizeQuery,
  email: string,
  providers: { id: string; label: string; org_title: string }[],
): string {
  const buttons = providers
    .map(
      (p) =>
        `<form method="post" action="${ACTION}">${carried(q)}<input type="hidden" name="email" value="${esc(email)}">` +
        `<input type="hidden" name="provider" value="${esc(p.id)}"><button type="submit" class="secondary">Continue with ${esc(p.label)} (${esc(p.org_title)})</button></form>`,
    )
    .join('\n');
  return page(
    'Sign in',
    `<h1>Single sign-on required</h1><p>Your organization signs you in through its identity provider. Pick the one to use:</p>\n${buttons}`,
  );
}
