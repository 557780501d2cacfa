import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalNode } from '../../desktop/src/local/LocalNode';
import { startBrowserSignIn } from '../../desktop/src/local/browserSignIn';
import { MemoryCredentialStore } from '../../desktop/src/local/credentials';
import { type WebBridge, startWebBridge } from '../../desktop/src/web/webBridge';
import { setPassword } from '../../sync-server/src/core/platform/admin';
import { type Machine, RENDERER_DIR, ensureRendererBuilt, launchChromium, openWindow, screenshot } from './helpers/browser';
import { type QuireTestServer, startQuireServer } from './helpers/server';

/**
 * Signing in like a desktop app (RFC 8252): the connect screen opens the server's sign-in
 * page in a new tab, the person signs in there, and the LocalNode receives the code on its
 * loopback listener, exchanges it with its PKCE verifier and stores the token.
 */

const PASSWORD = 'correct horse battery staple';

let s: QuireTestServer;
let browser: Browser;
let node: LocalNode;
let bridge: WebBridge;
const credentials = new MemoryCredentialStore();

beforeAll(async () => {
  s = await startQuireServer();
  await ensureRendererBuilt();
  node = await LocalNode.open({ credentials, probeIntervalMs: 250 });
  bridge = await startWebBridge({ node, rendererDir: RENDERER_DIR });
  browser = await launchChromium();
  // Building the renderer takes a while on a busy machine.
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await bridge?.close();
  await node?.close();
  await s?.close();
});

async function memberWithPassword() {
  const member = await s.live.t.member(s.orgId, 'edit');
  await setPassword(s.live.t.db, member.email, PASSWORD, s.live.t.deps.config.passwordCost);
  return member;
}

describe('sign in with the browser', { timeout: 90_000 }, () => {
  it('signs in from the connect screen through the server page in a new tab, and stores the token', async () => {
    const member = await memberWithPassword();
    const { page, errors } = await openWindow(browser, { node, bridge } as Machine);
    await page.fill('input[name=server]', s.url);
    await screenshot(page, 'sign-in-00-connect-screen');
    const opened = page.context().waitForEvent('page');
    await page.getByRole('button', { name: 'Sign in with your browser' }).click();
    const tab = await opened;
    await tab.waitForURL((u) => u.pathname === '/v1/auth/desktop/authorize');
    await page.getByRole('status').getByText('Finish signing in in your browser').waitFor();
    await screenshot(page, 'sign-in-00-connect-waiting');
    await tab.locator('input[name=email]').waitFor();
    await screenshot(tab, 'sign-in-01-server-page');
    await tab.fill('input[name=email]', member.email);
    await tab.click('button[type=submit]');
    await tab.fill('input[name=password]', PASSWORD);
    await tab.click('button[type=submit]');
    await tab.getByRole('heading', { name: 'You are signed in' }).waitFor();
    expect(new URL(tab.url()).origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await screenshot(tab, 'sign-in-02-return-to-app');

    await page.getByRole('heading', { name: 'Pick a space' }).waitFor();
    const stored = await credentials.load();
    expect(stored?.url).toBe(s.url);
    expect(stored?.token).not.toBe(member.token);
    const me = await s.live.t.get('/v1/user', stored?.token);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(member.id);
    expect((await node.session.state()).server?.user.id).toBe(member.id);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('answers only the redirect carrying its own state, and the code once', async () => {
    const member = await memberWithPassword();
    const tokens: string[] = [];
    const attempt = await startBrowserSignIn(s.url, {
      onToken: async (token) => {
        tokens.push(token);
      },
    });
    const authorize = new URL(attempt.authorizeUrl);
    const redirect = authorize.searchParams.get('redirect_uri') as string;
    expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');

    // Another page knocking on the loopback port without the state is turned away; the sign-in still waits.
    const forged = await fetch(`${redirect}?code=${'A'.repeat(43)}&state=guessed`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('does not answer the sign-in Quire is waiting for');

    // The server page, as the browser would post it.
    const fields = new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), email: member.email, password: PASSWORD });
    const signedIn = await fetch(`${s.url}/v1/auth/desktop/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
      redirect: 'manual',
    });
    expect(signedIn.status).toBe(303);
    const back = signedIn.headers.get('location') as string;
    expect(back.startsWith(`${redirect}?`)).toBe(true);
    const landed = await fetch(back);
    expect(landed.status).toBe(200);
    await attempt.done;
    expect(tokens).toHaveLength(1);

    // The same code again, straight to the server: refused, and the token it gave is revoked.
    const code = new URL(back).searchParams.get('code');
    const replay = await fetch(`${s.url}/v1/auth/desktop/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code, code_verifier: 'x'.repeat(43), redirect_uri: redirect }),
    });
    expect(replay.status).toBe(400);
    expect((await s.live.t.get('/v1/user', tokens[0])).status).toBe(401);
  });
});
