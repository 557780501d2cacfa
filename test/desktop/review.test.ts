import { setPageMarkdown } from '@quire/shared/content/body';
import { createPage, listPages, updatePage } from '@quire/shared/content/pages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Machine, ensureRendererBuilt, launchChromium, openWindow, screenshot, startMachine } from './helpers/browser';
import { type QuireTestServer, eventually, startQuireServer } from './helpers/server';

/**
 * Reviewing in the browser mode against a real server: the rendered block diff of a change
 * request (on the machine that wrote it, and on one that opens it from the server), and
 * comments that arrive live.
 */

const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let s: QuireTestServer;
let a: Machine;
let b: Machine;
let browser: Browser;
let localSpaceId: string;
let remoteSpaceId: string;
let crId: string;
let handbook: { spaceId: string; crId: string; install: string; steps: string };
const errors: string[] = [];

async function window(machine: Machine): Promise<Page> {
  const w = await openWindow(browser, machine);
  w.page.on('pageerror', (e) => errors.push(e.message));
  return w.page;
}

/** The change request's id on the server. */
async function remoteCr(): Promise<string> {
  return (await a.node.db.query<{ remote_id: string }>('SELECT remote_id FROM change_requests WHERE id = $1', [crId]))[0]!.remote_id;
}

beforeAll(async () => {
  await ensureRendererBuilt();
  s = await startQuireServer();
  [a, b] = await Promise.all([startMachine(), startMachine()]);
  await a.node.session.connect(s.url, s.token);
  await b.node.session.connect(s.url, s.otherToken);
  const space = await a.node.catalog.createSpace({ title: 'Runbook', organizationId: s.orgId });
  localSpaceId = space.id;
  await a.node.branches.with({ spaceId: localSpaceId }, async (branch) => {
    const first = listPages(branch.doc)[0]!.id;
    setPageMarkdown(branch.doc, first, '# Deploy\n\nRun the deploy script.\n\nCheck the dashboard.\n\nAsk in the channel.\n');
    await branch.saved();
  });
  await eventually(async () => (await a.node.session.status()).pending === 0, 'the space on the server', 30_000);
  remoteSpaceId = (await a.node.db.query<{ remote_id: string }>('SELECT remote_id FROM spaces WHERE id = $1', [localSpaceId]))[0]!
    .remote_id;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await a?.close();
  await b?.close();
  await s?.close();
});

describe('reviewing in the desktop app', { timeout: 90_000 }, () => {
  it('shows a change request as rendered blocks: edited words, added and removed blocks, images as thumbnails', async () => {
    const cr = await a.node.changeRequests.create(localSpaceId, 'Safer deploys');
    crId = cr.id;
    const pixel = await a.node.files.put(
      { spaceId: localSpaceId, changeRequestId: crId },
      { name: 'dashboard.png', contentType: 'image/png', bytes: new Uint8Array(Buffer.from(PIXEL.split(',')[1] as string, 'base64')) },
    );
    await a.node.branches.with({ spaceId: localSpaceId, changeRequestId: crId }, async (branch) => {
      const first = listPages(branch.doc)[0]!.id;
      setPageMarkdown(
        branch.doc,
        first,
        `# Deploy\n\nRun the deploy script with the dry-run flag first.\n\nAsk in the channel.\n\n![Dashboard](${pixel.src})\n`,
      );
      await branch.saved();
    });
    const page = await window(a);
    await page.locator('.space-row', { hasText: 'Runbook' }).click();
    await page.locator('.ProseMirror').waitFor();
    await page.locator('.branch-btn').click();
    await page.getByRole('menuitem', { name: /Safer deploys/ }).click();
    await page.getByRole('tab', { name: 'Changes' }).click();
    await page.locator('.review').waitFor();
    const card = page.locator('.diff-card').first();
    await card.locator('.block-diff').waitFor();
    // The edited paragraph, once, with only the new words marked.
    await expect.poll(() => card.locator('.diff-changed ins').allTextContents()).toEqual([expect.stringContaining('dry-run flag')]);
    expect(await card.locator('.diff-changed').textContent()).toContain('Run the deploy script');
    // The removed paragraph and the added image, rendered.
    expect(await card.locator('.diff-removed').textContent()).toContain('Check the dashboard.');
    const thumb = card.locator('.diff-added img');
    expect(await thumb.getAttribute('alt')).toBe('Dashboard');
    expect((await thumb.boundingBox())!.height).toBeLessThanOrEqual(140);
    // The image is the space file, shown from its bytes: no inline data in the diff.
    await expect.poll(() => thumb.getAttribute('src')).toMatch(/^blob:/);
    expect(await card.innerHTML()).not.toMatch(/base64|data:image/);
    // Unchanged blocks next to a change give context; no markdown source anywhere.
    expect(await card.locator('.diff-same h1').textContent()).toBe('Deploy');
    expect(await card.textContent()).not.toContain('![');
    await screenshot(page, 'review-01-block-diff');
    await page.close();
  });

  it('a change request opened from the server never shows its pages as removed while it loads', async () => {
    await eventually(
      async () => (await a.node.changeRequests.refresh(localSpaceId)).find((c) => c.id === crId)?.syncState === 'remote',
      'the change request on the server',
      30_000,
    );
    await eventually(async () => (await a.node.session.status()).pending === 0, 'the change request content on the server', 30_000);
    await b.node.catalog.refresh();
    await b.node.changeRequests.refresh(remoteSpaceId);
    const page = await window(b);
    await page.locator('.space-row', { hasText: 'Runbook' }).click();
    await page.locator('.ProseMirror').waitFor();
    // Watch everything the review ever shows, from the click on.
    await page.evaluate(() => {
      const w = window as unknown as { __seen: string[] };
      w.__seen = [];
      new MutationObserver(() => {
        const review = document.querySelector('.review');
        if (review) w.__seen.push(review.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.locator('.branch-btn').click();
    await page.getByRole('menuitem', { name: /Safer deploys/ }).click();
    await page.getByRole('tab', { name: 'Changes' }).click();
    await expect
      .poll(() => page.locator('.diff-changed ins').allTextContents(), { timeout: 30_000 })
      .toEqual([expect.stringContaining('dry-run flag')]);
    const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((t) => /removed/i.test(t) && !/Check the dashboard/.test(t))).toEqual([]);
    expect(seen.filter((t) => /No changes yet/.test(t))).toEqual([]);
    await page.close();
  });

  it('reviewers and approvals: ask a teammate, who approves from their window', async () => {
    const pa = await window(a);
    await pa.locator('.space-row', { hasText: 'Runbook' }).click();
    await pa.locator('.ProseMirror').waitFor();
    await pa.locator('.branch-btn').click();
    await pa.getByRole('menuitem', { name: /Safer deploys/ }).click();
    await pa.getByRole('tab', { name: 'Changes' }).click();
    const reviews = pa.getByRole('region', { name: 'Reviews' });
    await reviews.getByLabel('Ask for a review').waitFor({ timeout: 20_000 });
    const options = await reviews.getByLabel('Ask for a review').locator('option').allTextContents();
    expect(options).toContain('edit');
    await reviews.getByLabel('Ask for a review').selectOption({ label: 'edit' });
    await expect.poll(() => reviews.locator('.reviewer', { hasText: 'edit' }).locator('.badge').textContent()).toBe('Waiting');

    const pb = await window(b);
    await pb.locator('.space-row', { hasText: 'Runbook' }).click();
    await pb.locator('.ProseMirror').waitFor();
    await pb.locator('.branch-btn').click();
    await pb.getByRole('menuitem', { name: /Safer deploys/ }).click();
    await pb.getByRole('tab', { name: 'Changes' }).click();
    const theirs = pb.getByRole('region', { name: 'Reviews' });
    await theirs.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => theirs.locator('.reviewer', { hasText: 'edit' }).locator('.badge').textContent()).toContain('Approved');
    // The author's window shows it without a reload.
    await expect
      .poll(() => reviews.locator('.reviewer', { hasText: 'edit' }).locator('.badge').textContent(), { timeout: 20_000 })
      .toContain('Approved');
    const onServer = await s.live.t.get(`/v1/spaces/${remoteSpaceId}/change-requests/${await remoteCr()}/reviews`, s.token);
    expect(onServer.body.items.map((r: { status: string }) => r.status)).toEqual(['approved']);
    await screenshot(pa, 'review-03-approved');
    await pa.close();
    await pb.close();
  });

  it('comments: Enter sends, Shift+Enter starts a new line, and others’ comments arrive while the panel is open', async () => {
    const page = await window(a);
    await page.locator('.space-row', { hasText: 'Runbook' }).click();
    await page.locator('.ProseMirror').waitFor();
    await page.getByRole('button', { name: 'Comments' }).click();
    const box = page.getByPlaceholder('Add a comment on this page…');
    await expect.poll(() => page.locator('.composer').first().textContent()).toContain('to send');
    await box.click();
    await page.keyboard.type('First line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    expect(await box.inputValue()).toBe('First line\nsecond line');
    await page.keyboard.press('Enter');
    await page.locator('.thread', { hasText: 'First line' }).waitFor();
    expect(await box.inputValue()).toBe('');
    expect(await page.locator('.thread', { hasText: 'First line' }).locator('br').count()).toBe(1);

    // Someone else comments on the server; the open panel shows it without any click.
    await eventually(async () => (await a.node.session.status()).pendingMutations === 0, 'the comment on the server', 30_000);
    const pageId = await a.node.branches.with({ spaceId: localSpaceId }, (branch) => listPages(branch.doc)[0]!.id);
    const posted = await s.live.t.post(`/v1/spaces/${remoteSpaceId}/comments`, s.otherToken, {
      body: { markdown: 'Written by a teammate on the server.' },
      page: pageId,
    });
    expect(posted.status).toBe(200);
    await page.locator('.thread', { hasText: 'Written by a teammate on the server.' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'review-02-comments');
    await page.close();
  });

  it('typing online changes nothing outside the editor: no tree row, no status flicker', async () => {
    const page = await window(a);
    await page.locator('.space-row', { hasText: 'Runbook' }).click();
    await page.locator('.ProseMirror').waitFor();
    await expect.poll(() => page.getByTestId('sync-status').textContent(), { timeout: 15_000 }).toBe('Online');
    // The LocalNode loads the branch a moment after the window opens it and connects it then;
    // on a busy machine that lands after the first "Online": observe from a settled status.
    await page.waitForTimeout(2_000);
    await expect.poll(() => page.getByTestId('sync-status').textContent(), { timeout: 15_000 }).toBe('Online');
    await page.evaluate(() => {
      const w = globalThis as unknown as { __sidebarMutations: number; __what: string[] };
      w.__sidebarMutations = 0;
      w.__what = [];
      new MutationObserver((records) => {
        w.__sidebarMutations += records.length;
        for (const r of records)
          w.__what.push(
            `${r.type} ${(r.target as Element).className ?? ''} ${r.attributeName ?? ''} ${r.target.textContent?.slice(0, 40)}`,
          );
      }).observe(document.querySelector('.sidebar') as Node, {
        subtree: true,
        childList: true,
        characterData: true,
        // What a re-render would change; the browser itself touches some form attributes.
        attributeFilter: ['class', 'style', 'aria-selected', 'aria-expanded', 'data-connection'],
      });
    });
    await page.locator('.ProseMirror').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Typed while online.', { delay: 15 });
    await expect.poll(() => page.getByTestId('save-state').textContent()).toBe('Saved');
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (globalThis as unknown as { __what: string[] }).__what)).toEqual([]);
    expect(await page.getByTestId('sync-status').textContent()).toBe('Online');
    await page.close();
  });

  it('draws a change request against where it started: main’s later edits are neither shown as its changes nor as removed', async () => {
    // A space whose main content is on the server, and a change request opened from it.
    const space = await a.node.catalog.createSpace({ title: 'Handbook', organizationId: s.orgId });
    const { install, steps } = await a.node.branches.with({ spaceId: space.id }, async (branch) => {
      const first = listPages(branch.doc)[0]!.id;
      updatePage(branch.doc, first, { title: 'Install' });
      setPageMarkdown(branch.doc, first, '# Install\n\nInstall the CLI\n\n```sh\nquire login\n```\n\nThen run the setup.\n');
      const list = createPage(branch.doc, {
        title: 'Steps',
        markdown: 'Steps:\n\n- Install the CLI\n- Run the setup wizard\n- Open the dashboard\n',
      });
      await branch.saved();
      return { install: first, steps: list };
    });
    await eventually(async () => (await a.node.session.status()).pending === 0, 'the space on the server', 30_000);
    const cr = await a.node.changeRequests.create(space.id, 'Explain setup');
    handbook = { spaceId: space.id, crId: cr.id, install, steps };
    await eventually(
      async () => (await a.node.changeRequests.refresh(space.id)).find((c) => c.id === cr.id)?.syncState === 'remote',
      'the change request on the server',
      30_000,
    );
    await eventually(async () => (await a.node.session.status()).pending === 0, 'the change request content on the server', 30_000);
    // The request's own edits: one paragraph, one list item.
    await a.node.branches.with({ spaceId: space.id, changeRequestId: cr.id }, async (branch) => {
      setPageMarkdown(branch.doc, install, '# Install\n\nInstall the CLI\n\n```sh\nquire login\n```\n\nThen run the setup wizard.\n');
      setPageMarkdown(branch.doc, steps, 'Steps:\n\n- Install the CLI\n- Run the new setup script\n- Open the dashboard\n');
      await branch.saved();
    });
    // Then main moves on: "and log in" appended, and a new page.
    await a.node.branches.with({ spaceId: space.id }, async (branch) => {
      setPageMarkdown(branch.doc, install, '# Install\n\nInstall the CLI and log in\n\n```sh\nquire login\n```\n\nThen run the setup.\n');
      createPage(branch.doc, { title: 'Quickstart', markdown: 'Added on main.\n' });
      await branch.saved();
    });
    // Edited while no window had them open: sent now, as on any reconnect.
    await a.node.branches.pushWaiting();
    await eventually(async () => (await a.node.session.status()).pending === 0, 'both branches on the server', 30_000);

    const page = await window(a);
    await page.locator('.space-row', { hasText: 'Handbook' }).click();
    await page.locator('.ProseMirror').waitFor();
    await page.locator('.branch-btn').click();
    await page.getByRole('menuitem', { name: /Explain setup/ }).click();
    // Opening it opens the page being edited, in the change request; its changes are one click away.
    await expect.poll(() => page.locator('.branch-name').textContent()).toContain('Explain setup');
    await page.locator('.ProseMirror').waitFor();
    expect(await page.locator('.review').count()).toBe(0);
    expect(await page.getByRole('tab', { name: 'Edit' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('tab', { name: 'Changes' }).click();

    const review = page.locator('.review');
    await review.locator('.diff-card').first().waitFor({ timeout: 20_000 });
    await expect.poll(() => review.getByRole('region', { name: 'Main has changed' }).count(), { timeout: 20_000 }).toBe(1);
    expect(await review.getByRole('region', { name: 'Main has changed' }).textContent()).toContain(
      'Main has changed since this request started',
    );
    // Only the request's own edits: two pages edited, nothing removed, nothing of main's.
    const own = review.locator(':scope > .diff-card');
    await expect.poll(() => own.count()).toBe(2);
    expect(await review.locator(':scope > .review-summary').textContent()).toMatch(/2 pages changed\s*2 edited$/);
    const ownText = (await own.allTextContents()).join('\n');
    expect(ownText).not.toContain('log in');
    expect(ownText).not.toContain('Quickstart');
    expect(await own.locator('del').allTextContents()).toEqual(['wizard']);
    expect(await own.locator('ins').allTextContents()).toEqual([' wizard', 'new ', 'script']);
    expect(await own.locator('.diff-removed, [data-change="removed"]').count()).toBe(0);

    // The list: one item changed, its words marked inside it; the list is not removed and added again.
    const stepsCard = review.locator(`:scope > .diff-card[data-page-id="${handbook.steps}"]`);
    const items = stepsCard.locator('.diff-changed li');
    expect(await items.count()).toBe(3);
    expect(await items.nth(0).locator('ins, del').count()).toBe(0);
    expect(await items.nth(2).locator('ins, del').count()).toBe(0);
    expect(await items.nth(1).locator('del').allTextContents()).toEqual(['wizard']);
    expect(await items.nth(1).textContent()).toBe('Run the new setup wizardscript');
    expect(await stepsCard.locator('.diff-added, .diff-removed').count()).toBe(0);

    // An unchanged code block next to the change keeps its dark panel.
    const code = review.locator(`:scope > .diff-card[data-page-id="${handbook.install}"] .diff-same pre`);
    expect(await code.textContent()).toContain('quire login');
    expect(await code.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(22, 23, 29)');

    // What updating from main would bring, apart from the request's own changes.
    await review.getByRole('button', { name: /What updating would bring/ }).click();
    const onMain = review.getByRole('region', { name: 'Changes on main' });
    expect(await onMain.locator('.diff-card').count()).toBe(2);
    expect(await onMain.locator('ins').allTextContents()).toContain(' and log in');
    expect(await onMain.textContent()).toContain('Quickstart');
    await screenshot(page, 'review-04-main-moved');
    await stepsCard.scrollIntoViewIfNeeded();
    await screenshot(page, 'review-05-own-changes');

    // Updating from main takes main's edits in: the notice goes, the request's own changes stay.
    await review.getByRole('button', { name: 'Update from main' }).click();
    await expect.poll(() => review.getByRole('region', { name: 'Main has changed' }).count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(async () => (await own.allTextContents()).join('\n')).not.toContain('log in');
    expect(await own.locator('del').allTextContents()).toEqual(['wizard']);
    expect(await own.count()).toBe(2);
    await page.close();
  });

  it('a teammate opening the request from the server sees the same changes, drawn against the same start', async () => {
    await eventually(async () => (await a.node.session.status()).pending === 0, 'the update on the server', 30_000);
    await b.node.catalog.refresh();
    const remote = (await a.node.db.query<{ remote_id: string }>('SELECT remote_id FROM spaces WHERE id = $1', [handbook.spaceId]))[0]!
      .remote_id;
    await b.node.changeRequests.refresh(remote);
    const page = await window(b);
    await page.locator('.space-row', { hasText: 'Handbook' }).click();
    await page.locator('.ProseMirror').waitFor();
    await page.locator('.branch-btn').click();
    await page.getByRole('menuitem', { name: /Explain setup/ }).click();
    await page.getByRole('tab', { name: 'Changes' }).click();
    const own = page.locator('.review > .diff-card');
    await expect.poll(() => own.locator('del').allTextContents(), { timeout: 30_000 }).toEqual(['wizard']);
    expect(await own.count()).toBe(2);
    expect((await own.allTextContents()).join('\n')).not.toContain('log in');
    await page.close();
  });

  it('after a merge the request still shows what it merged, and the toast and the badge both say Merged', async () => {
    const page = await window(a);
    await page.locator('.space-row', { hasText: 'Handbook' }).click();
    await page.locator('.ProseMirror').waitFor();
    await page.locator('.branch-btn').click();
    await page.getByRole('menuitem', { name: /Explain setup/ }).click();
    await page.getByRole('tab', { name: 'Changes' }).click();
    const review = page.locator('.review');
    await review.locator('.diff-card').first().waitFor({ timeout: 20_000 });
    await review.getByRole('button', { name: 'Merge', exact: true }).click();
    await page.locator('.modal').getByRole('button', { name: 'Merge' }).click();
    await expect.poll(() => page.locator('.toast').allTextContents(), { timeout: 30_000 }).toContain('Merged into main.');
    await expect.poll(() => review.locator('.review-badges .badge').first().textContent(), { timeout: 20_000 }).toContain('Merged');
    expect((await page.locator('.toast').allTextContents()).join(' ')).not.toMatch(/requested|queued/i);
    // Still what it merged, not an empty diff.
    await expect.poll(() => review.locator(':scope > .diff-card').count()).toBe(2);
    expect(await review.locator(':scope > .diff-card del').allTextContents()).toEqual(['wizard']);
    expect(await review.locator(':scope > .review-summary').textContent()).toContain('Merged into main');
    expect(await review.getByRole('region', { name: 'Main has changed' }).count()).toBe(0);
    await screenshot(page, 'review-06-merged');
    await page.close();
  });

  it('no page error in any window', () => {
    expect(errors).toEqual([]);
  });
});
