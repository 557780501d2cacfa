import { setPageMarkdown } from '@quire/shared/content/body';
import { listPages } from '@quire/shared/content/pages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Machine, ensureRendererBuilt, launchChromium, openWindow, startMachine } from './helpers/browser';
import { type QuireTestServer, startQuireServer } from './helpers/server';

/**
 * The Offline switch and the status line beside it never say different things: not while
 * the switch waits for the LocalNode to confirm it, not while edits wait to be sent when it
 * is turned off, not when it is flipped back and forth quickly.
 */

let s: QuireTestServer;
let m: Machine;
let browser: Browser;

beforeAll(async () => {
  await ensureRendererBuilt();
  s = await startQuireServer();
  m = await startMachine();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await m?.close();
  await s?.close();
});

/** Records, on every change of the status bar and every frame, what the switch and the line say. */
function watchStatus() {
  const samples: { offline: boolean; title: string }[] = [];
  (window as unknown as { samples: typeof samples }).samples = samples;
  const sample = () => {
    const box = document.querySelector<HTMLInputElement>('input[aria-label="Work offline"]');
    const title = document.querySelector('[data-testid="sync-status"]')?.textContent ?? '';
    if (box) samples.push({ offline: box.checked, title });
  };
  new MutationObserver(sample).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  document.addEventListener('change', sample, true);
  const frame = () => {
    sample();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** A switch that says offline beside a line that says online, or the other way round. */
const contradictions = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { samples: { offline: boolean; title: string }[] }).samples.filter((x) =>
      x.offline ? ['Online', 'Syncing', 'Connecting…'].includes(x.title) : x.title === 'Working offline',
    ),
  );

describe('the Offline switch and the status line', { timeout: 90_000 }, () => {
  it('agree at every moment, also when flipped quickly while edits wait to be sent', async () => {
    await m.node.session.connect(s.url, s.token);
    const space = await m.node.catalog.createSpace({ title: 'Travels', organizationId: s.orgId });
    await m.node.branches.with({ spaceId: space.id }, async (branch) => {
      setPageMarkdown(branch.doc, listPages(branch.doc)[0]!.id, 'Notes from the road.');
      await branch.saved();
    });
    const { page, errors } = await openWindow(browser, m);
    await page.locator('.space-row', { hasText: 'Travels' }).click();
    await page.locator('.ProseMirror[contenteditable="true"]').waitFor();
    const title = page.getByTestId('sync-status');
    await expect.poll(() => title.textContent(), { timeout: 15_000 }).toBe('Online');
    await page.evaluate(watchStatus);
    const offline = page.getByLabel('Work offline');

    await offline.check({ force: true });
    await expect.poll(() => title.textContent()).toBe('Working offline');
    await page.locator('.ProseMirror p').first().click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Written on a train.');
    await expect.poll(() => page.getByTestId('sync-detail').textContent(), { timeout: 10_000 }).toBe('1 page waiting to be sent');

    // Back online with the page waiting, then quickly off, on, off, on.
    await offline.uncheck({ force: true });
    await page.waitForTimeout(120);
    await offline.check({ force: true });
    await page.waitForTimeout(60);
    await offline.uncheck({ force: true });
    await page.waitForTimeout(200);
    await offline.check({ force: true });
    await page.waitForTimeout(400);
    await offline.uncheck({ force: true });
    await expect.poll(() => title.textContent(), { timeout: 15_000 }).toBe('Online');
    await expect.poll(() => page.getByTestId('sync-detail').textContent(), { timeout: 15_000 }).toBe('All changes synced');
    expect(await offline.isChecked()).toBe(false);
    expect((await m.node.session.status()).workOffline).toBe(false);

    expect(await contradictions(page)).toEqual([]);
    const seen = await page.evaluate(() => (window as unknown as { samples: unknown[] }).samples.length);
    expect(seen).toBeGreaterThan(20);
    expect(errors).toEqual([]);
    await page.close();
  });
});
