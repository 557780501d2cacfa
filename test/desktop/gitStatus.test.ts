import { mkdirSync } from 'node:fs';
import { sign } from '@octokit/webhooks-methods';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitServer } from '../../sync-server/src/testing/gitServer';
import { type Machine, ensureRendererBuilt, launchChromium, openWindow, startMachine } from './helpers/browser';
import { type QuireTestServer, startQuireServer } from './helpers/server';

/**
 * A space kept in step with a git branch shows it in the window's top bar: the branch, the
 * last commit both sides agree on, and whether the last sync worked (with the server's
 * words when it did not). The repository is served by `git http-backend`; the server's own
 * background runner syncs it.
 */

const SHOTS = '/work/notes/shots';
const TOKEN = 'sync-t0ken-secret';
const REPO = {
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n',
  'README.md': '# Welcome\n\nHello.\n',
};

let s: QuireTestServer;
let g: GitServer;
let a: Machine;
let browser: Browser;

async function newSpace(title: string): Promise<string> {
  const created = await s.live.t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

/** Connects a space to the repository `name` and waits for the server's first sync to end. */
async function connect(spaceId: string, name: string, credential: string) {
  const put = await s.live.t.put(`/v1/spaces/${spaceId}/git/sync`, s.token, {
    url: g.url(name, false).replace('//', '//ada@'),
    ref: 'main',
    provider: 'github',
    credential,
    firstSync: 'git',
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  await expect
    .poll(async () => (await s.live.t.get(`/v1/spaces/${spaceId}/git/info`, s.token)).body.operation?.state, { timeout: 120_000 })
    .not.toBe('running');
  return put.body.webhookSecret as string;
}

const commitOf = async (spaceId: string) => (await s.live.t.get(`/v1/spaces/${spaceId}/git/sync`, s.token)).body.commit as string;

async function openSpace(title: string): Promise<{ page: Page; errors: string[] }> {
  const w = await openWindow(browser, a);
  await w.page.locator('.space-row', { hasText: title }).first().click();
  await w.page.locator('.topbar').waitFor();
  return w;
}

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const dark of [false, true]) {
    await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
    await page.waitForTimeout(250);
    await page.screenshot({ path: `${SHOTS}/${name}${dark ? '-dark' : ''}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

beforeAll(async () => {
  await ensureRendererBuilt();
  g = await GitServer.start({ user: 'ada', password: TOKEN });
  s = await startQuireServer({ allowPrivateFetch: true });
  a = await startMachine();
  await a.node.session.connect(s.url, s.token);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await a?.close();
  await s?.close();
  await g?.close();
});

describe('a git-connected space in the desktop', { timeout: 240_000 }, () => {
  it('shows the branch, the last commit and "Synced"; a new sync is shown on refresh; offline, what was last known', async () => {
    g.createRepository('handbook', REPO);
    const spaceId = await newSpace('Handbook');
    const secret = await connect(spaceId, 'handbook', TOKEN);
    const first = await commitOf(spaceId);
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    await a.node.catalog.refresh();

    const { page, errors } = await openSpace('Handbook');
    const chip = page.locator('.git-chip');
    await expect.poll(() => chip.textContent()).toBe(`main${first.slice(0, 7)}Synced`);
    await chip.click();
    const panel = page.getByRole('dialog', { name: 'Git sync' });
    await expect.poll(() => panel.textContent()).toContain(g.url('handbook', false));
    expect(await panel.textContent()).not.toContain(TOKEN);
    await shot(page, 'git-status-synced');

    // A push to the branch, announced by the host's webhook: the server syncs it, the window shows the new commit.
    g.commit('handbook', { 'README.md': '# Welcome\n\nHello again.\n' }, { message: 'Say hello again' });
    const raw = JSON.stringify({ ref: 'refs/heads/main' });
    const hook = await s.live.t.request('POST', `/v1/git/hooks/${spaceId}`, {
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': await sign(secret, raw), 'x-github-event': 'push' },
      raw,
    });
    expect(hook.status).toBe(202);
    // The connection's commit moves before the operation is recorded as over: wait for both.
    await expect.poll(() => commitOf(spaceId), { timeout: 120_000 }).not.toBe(first);
    await expect
      .poll(async () => (await s.live.t.get(`/v1/spaces/${spaceId}/git/info`, s.token)).body.operation?.state, { timeout: 120_000 })
      .toBe('success');
    const second = await commitOf(spaceId);
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => chip.textContent()).toBe(`main${second.slice(0, 7)}Synced`);

    // Offline: the window still shows what the server said last, and says since when.
    await a.node.session.setWorkOffline(true);
    const offline = await openSpace('Handbook');
    await expect.poll(() => offline.page.locator('.git-chip').textContent()).toBe(`main${second.slice(0, 7)}Synced`);
    await offline.page.locator('.git-chip').click();
    await expect.poll(() => offline.page.getByRole('dialog', { name: 'Git sync' }).textContent()).toContain('Offline: as of');
    await a.node.session.setWorkOffline(false);
    expect([...errors, ...offline.errors]).toEqual([]);
    await offline.page.close();
    await page.close();
  });

  it('a failed sync shows as failed, with the reason the server gives; a space without a connection shows nothing', async () => {
    g.createRepository('locked', REPO);
    const spaceId = await newSpace('Locked');
    await connect(spaceId, 'locked', 'not-the-token');
    const info = (await s.live.t.get(`/v1/spaces/${spaceId}/git/info`, s.token)).body.operation;
    expect(info.state).toBe('failure');
    const plainId = await newSpace('Plain');
    await a.node.catalog.refresh();

    const { page, errors } = await openSpace('Locked');
    const chip = page.locator('.git-chip');
    await expect.poll(() => chip.textContent()).toBe('mainSync failed');
    await chip.click();
    const panel = page.getByRole('dialog', { name: 'Git sync' });
    await expect.poll(() => panel.getByRole('alert').textContent()).toBe(info.error);
    expect(await panel.textContent()).toContain('None yet');
    await shot(page, 'git-status-failed');

    const plain = await openSpace('Plain');
    await expect.poll(() => plain.page.locator('.crumbs').textContent()).toContain('Plain');
    expect((await a.node.git.state(plainId)).source).toBe('none');
    expect(await plain.page.locator('.git-chip').count()).toBe(0);
    expect(plain.errors).toEqual([]);
    await plain.page.close();
    expect(errors).toEqual([]);
    await page.close();
  });
});
