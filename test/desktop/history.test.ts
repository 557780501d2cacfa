import { getPageMarkdown, setPageMarkdown } from '@quire/shared/content/body';
import { listPages } from '@quire/shared/content/pages';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Machine, ensureRendererBuilt, launchChromium, openWindow, screenshot, startMachine } from './helpers/browser';
import { type QuireTestServer, eventually, startQuireServer } from './helpers/server';

/**
 * A page's history in the browser mode against a real server: the revisions the server
 * cut, what changed since one of them (the review's block diff), restoring it as a new
 * edit that reaches the server, and what the panel still shows offline.
 */

const FIRST = '# Deploy\n\nRun the deploy script.\n\nCheck the dashboard.\n';
const SECOND = '# Deploy\n\nRun the deploy script with the dry-run flag first.\n\n- Ask in the channel.\n';

let s: QuireTestServer;
let a: Machine;
let browser: Browser;
let localSpaceId: string;
let remoteSpaceId: string;
let pageId: string;
/** The server's revision holding FIRST, and the one holding SECOND. */
let firstRevision: string;
let secondRevision: string;
const errors: string[] = [];

/**
 * A version in the panel: an entry's own button for the newest of its session, else its line
 * among the session's versions (opened first, as a writer unfolds them).
 */
function version(panel: Locator, id: string | undefined): Locator {
  return panel.locator(`[data-revision="${id}"], [data-version="${id}"]`).first();
}

async function openVersions(panel: Locator) {
  await panel.locator('details.history-versions').evaluateAll((ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
}

async function window(): Promise<Page> {
  const w = await openWindow(browser, a);
  w.page.on('pageerror', (e) => errors.push(e.message));
  return w.page;
}

async function serverMarkdown(revision?: string): Promise<string> {
  const path = revision
    ? `/v1/spaces/${remoteSpaceId}/revisions/${revision}/page/${pageId}?format=markdown`
    : `/v1/spaces/${remoteSpaceId}/content/page/${pageId}?format=markdown`;
  const res = await s.live.t.get(path, s.token);
  return res.status === 200 ? ((revision ? res.body.page.markdown : res.body.markdown) as string) : '';
}

/** Writes `markdown` on the machine and waits for the revision the server cuts holding it. */
async function writeAndWaitForRevision(markdown: string, marker: string): Promise<string> {
  await a.node.branches.with({ spaceId: localSpaceId }, async (branch) => {
    setPageMarkdown(branch.doc, pageId, markdown);
    await branch.saved();
  });
  // Written with no window open: sent the way edits of a closed branch are.
  await a.node.branches.pushWaiting();
  let found = '';
  await eventually(
    async () => {
      const res = await s.live.t.get(`/v1/spaces/${remoteSpaceId}/content/page/${pageId}/revisions`, s.token);
      const newest = res.status === 200 ? (res.body.items[0]?.revision as string | undefined) : undefined;
      if (newest && (await serverMarkdown(newest)).includes(marker)) found = newest;
      return !!found;
    },
    `a revision holding “${marker}”`,
    30_000,
  );
  return found;
}

beforeAll(async () => {
  await ensureRendererBuilt();
  s = await startQuireServer();
  a = await startMachine();
  await a.node.session.connect(s.url, s.token);
  const space = await a.node.catalog.createSpace({ title: 'Runbook', organizationId: s.orgId });
  localSpaceId = space.id;
  pageId = await a.node.branches.with({ spaceId: localSpaceId }, (branch) => listPages(branch.doc)[0]!.id);
  await eventually(async () => (await a.node.session.status()).pending === 0, 'the space on the server', 30_000);
  remoteSpaceId = (await a.node.db.query<{ remote_id: string }>('SELECT remote_id FROM spaces WHERE id = $1', [localSpaceId]))[0]!
    .remote_id;
  firstRevision = await writeAndWaitForRevision(FIRST, 'Check the dashboard.');
  secondRevision = await writeAndWaitForRevision(SECOND, 'dry-run flag');
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await a?.close();
  await s?.close();
});

describe('page history in the desktop app', { timeout: 90_000 }, () => {
  it('lists the page’s revisions and shows what changed since one, block by block', async () => {
    const page = await window();
    await page.locator('.space-row', { hasText: 'Runbook' }).click();
    await page.locator('.ProseMirror', { hasText: 'dry-run flag' }).waitFor();
    await page.getByRole('button', { name: 'Page history' }).click();
    const panel = page.getByRole('complementary', { name: 'Page history' });
    await panel.locator(`[data-revision="${secondRevision}"]`).waitFor({ timeout: 20_000 });
    const listed = await panel
      .locator('.history-item, .history-version')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-revision') ?? e.getAttribute('data-version')));
    // Newest first: the revision holding the page as it is now comes before the older one.
    expect(listed.indexOf(secondRevision)).toBeLessThan(listed.indexOf(firstRevision));

    await openVersions(panel);
    await version(panel, firstRevision).click();
    const compare = panel.getByRole('region', { name: 'Changes since this version' });
    await compare.locator('.block-diff').waitFor({ timeout: 20_000 });
    await expect.poll(() => compare.locator('.diff-changed ins').allTextContents()).toEqual([expect.stringContaining('dry-run flag')]);
    expect(await compare.locator('.diff-removed').textContent()).toContain('Check the dashboard.');
    expect(await compare.locator('.diff-added').textContent()).toContain('Ask in the channel.');
    // The newest revision reads as the page does now.
    await version(panel, secondRevision).click();
    await compare.getByText('The page reads the same as in this version.').waitFor();
    await screenshot(page, 'history-01-diff');
    // Escape closes the comparison, then the panel, and the caret is back in the page.
    await page.keyboard.press('Escape');
    await expect.poll(() => compare.count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('.ProseMirror'))).toBe(true);
    await page.close();
  });

  it('restores a version as one edit that one Ctrl+Z takes back, recorded as a restore of that version by this writer', async () => {
    const me = (await s.live.t.get('/v1/user', s.token)).body as { id: string; displayName: string };
    const page = await window();
    await page.locator('.space-row', { hasText: 'Runbook' }).click();
    const editor = page.locator('.ProseMirror');
    await page.locator('.ProseMirror', { hasText: 'dry-run flag' }).waitFor();
    await page.getByRole('button', { name: 'Page history' }).click();
    const panel = page.getByRole('complementary', { name: 'Page history' });
    await openVersions(panel);
    await version(panel, firstRevision).click();
    await panel.getByRole('button', { name: 'Restore this version' }).click();
    await page.locator('.ProseMirror', { hasText: 'Check the dashboard.' }).waitFor();
    expect(await editor.textContent()).not.toContain('dry-run flag');
    // Nothing lost: the replaced text is still a revision, and the restore syncs like any edit,
    // into a revision the server records as a restore of that version, by this writer.
    await eventually(async () => (await serverMarkdown()).includes('Check the dashboard.'), 'the restored page on the server', 30_000);
    expect(await serverMarkdown()).not.toContain('dry-run flag');
    expect(await serverMarkdown(secondRevision)).toContain('dry-run flag');
    let restore: { revision: string; type: string; createdBy?: string; restoredFrom?: string } | undefined;
    await eventually(
      async () => {
        const res = await s.live.t.get(`/v1/spaces/${remoteSpaceId}/content/page/${pageId}/revisions`, s.token);
        restore = res.body.items[0];
        return restore?.revision !== secondRevision;
      },
      'a revision of the restore',
      30_000,
    );
    expect(restore).toMatchObject({ type: 'restore', createdBy: me.id, restoredFrom: firstRevision });
    // The panel lists it so.
    await page.getByRole('button', { name: 'Page history' }).click();
    await page.getByRole('button', { name: 'Page history' }).click();
    await expect
      .poll(() => panel.locator(`[data-revision="${restore?.revision}"] .history-what`).textContent(), { timeout: 20_000 })
      .toMatch(new RegExp(`^Restored the version of .+ · by ${me.displayName}$`));
    await screenshot(page, 'history-02-restored');

    // One Ctrl+Z in the page brings back the text from before the restore; redo restores again.
    await editor.click();
    await page.keyboard.press('Control+z');
    await page.locator('.ProseMirror', { hasText: 'dry-run flag' }).waitFor();
    expect(await editor.textContent()).not.toContain('Check the dashboard.');
    await page.keyboard.press('Control+Shift+z');
    await page.locator('.ProseMirror', { hasText: 'Check the dashboard.' }).waitFor();
    expect(await editor.textContent()).not.toContain('dry-run flag');
    await eventually(
      async () => {
        const now = await serverMarkdown();
        return now.includes('Check the dashboard.') && !now.includes('dry-run flag');
      },
      'the page restored again on the server',
      30_000,
    );
    await page.close();
  });

  it('offline: shows the history kept on this machine and says the rest needs a connection', async () => {
    await a.node.session.setWorkOffline(true);
    const page = await window();
    await page.locator('.space-row', { hasText: 'Runbook' }).click();
    await page.locator('.ProseMirror', { hasText: 'Check the dashboard.' }).waitFor();
    await page.getByRole('button', { name: 'Page history' }).click();
    const panel = page.getByRole('complementary', { name: 'Page history' });
    await expect.poll(() => panel.getByRole('status').textContent()).toMatch(/Offline.*needs a connection/);
    // Revisions compared before still open; any other says it needs the server.
    const first = version(panel, firstRevision);
    await first.waitFor({ state: 'attached' });
    await openVersions(panel);
    expect(await first.isDisabled()).toBe(false);
    expect(await version(panel, secondRevision).isDisabled()).toBe(false);
    for (const item of await panel.locator('.history-item:disabled, .history-version:disabled').all())
      expect(await item.textContent()).toContain('Needs a connection');
    await first.click();
    await panel
      .getByRole('region', { name: 'Changes since this version' })
      .getByText('The page reads the same as in this version.')
      .waitFor();
    await screenshot(page, 'history-03-offline');
    await page.close();
    await a.node.session.setWorkOffline(false);
  });

  it('on a change request: the main branch’s versions up to its opening, said so, compared with the request and restored into it', async () => {
    const cr = await a.node.changeRequests.create(localSpaceId, 'Rework the runbook');
    const ref = { spaceId: localSpaceId, changeRequestId: cr.id };
    await a.node.branches.with(ref, async (branch) => {
      setPageMarkdown(branch.doc, pageId, `${FIRST}\nOnly in the request.\n`);
      await branch.saved();
    });
    await eventually(async () => (await a.node.session.status()).pending === 0, 'the change request on the server', 30_000);
    // Main moves on after the request was opened: not part of the request's history.
    const later = await writeAndWaitForRevision(`${FIRST}\nAfter the fork.\n`, 'After the fork.');

    const page = await window();
    await page.evaluate(
      ({ spaceId, changeRequestId }) =>
        localStorage.setItem('quire.nav', JSON.stringify({ spaceId, changeRequestId, pageId: null, view: 'page' })),
      { spaceId: localSpaceId, changeRequestId: cr.id },
    );
    await page.reload();
    await page.locator('.ProseMirror', { hasText: 'Only in the request.' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Page history' }).click();
    const panel = page.getByRole('complementary', { name: 'Page history' });
    await expect.poll(() => panel.getByRole('status').textContent()).toMatch(/main branch.*up to when this change request was opened/);
    await version(panel, firstRevision).waitFor({ state: 'attached', timeout: 20_000 });
    expect(await panel.locator(`[data-revision="${secondRevision}"]`).count()).toBe(1);
    expect(await panel.locator(`[data-revision="${later}"], [data-version="${later}"]`).count()).toBe(0);

    await version(panel, secondRevision).click();
    const compare = panel.getByRole('region', { name: 'Changes since this version' });
    await compare.locator('.block-diff').waitFor({ timeout: 20_000 });
    await expect
      .poll(() => compare.locator('.diff-added').allTextContents())
      .toEqual(expect.arrayContaining([expect.stringContaining('Only in the request.')]));
    await panel.getByRole('button', { name: 'Restore this version' }).click();
    await page.locator('.ProseMirror', { hasText: 'dry-run flag' }).waitFor();
    // Restored into the request only: main keeps what it has.
    expect(await a.node.branches.with(ref, (b) => getPageMarkdown(b.doc, pageId))).toContain('dry-run flag');
    expect(await a.node.branches.with({ spaceId: localSpaceId }, (b) => getPageMarkdown(b.doc, pageId))).toContain('After the fork.');
    await screenshot(page, 'history-04-change-request');
    await page.close();
  });

  it('no page error in any window', () => {
    expect(errors).toEqual([]);
  });
});
