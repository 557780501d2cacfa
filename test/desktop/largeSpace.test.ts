import { setPageMarkdown } from '@quire/shared/content/body';
import { createPage, listPages, movePage } from '@quire/shared/content/pages';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type Machine, ensureRendererBuilt, launchChromium, openWindow, screenshot, startMachine } from './helpers/browser';
import { type QuireTestServer, eventually, startQuireServer } from './helpers/server';

/**
 * A 1,000-page space synced with a server, opened in the browser mode from the local
 * database: the window draws its tree and first page from what was saved beside the
 * space's state, then takes typing that reaches the server.
 */

const MARKER = 'Welcome to the handbook.';

/** 999 pages in sections of 50, built apart and merged (as an import would write them). */
function manyPages(n: number): Uint8Array {
  const updates: Uint8Array[] = [];
  for (let g = 0; g * 50 < n; g++) {
    const doc = new Y.Doc();
    const parent = createPage(doc, { title: `Section ${g}`, markdown: `Section ${g}.\n` });
    for (let i = 1; i < Math.min(50, n - g * 50); i++) createPage(doc, { title: `Page ${g}-${i}`, parent, markdown: `Text ${g}-${i}.\n` });
    updates.push(Y.encodeStateAsUpdate(doc));
    doc.destroy();
  }
  return Y.mergeUpdates(updates);
}

let s: QuireTestServer;
let a: Machine;
let browser: Browser;
let spaceId: string;
let remoteSpaceId: string;
let firstPageId: string;

beforeAll(async () => {
  await ensureRendererBuilt();
  s = await startQuireServer();
  a = await startMachine();
  await a.node.session.connect(s.url, s.token);
  spaceId = (await a.node.catalog.createSpace({ title: 'Handbook', organizationId: s.orgId })).id;
  firstPageId = await a.node.branches.with({ spaceId }, async (branch) => {
    const first = listPages(branch.doc)[0]!.id;
    setPageMarkdown(branch.doc, first, `${MARKER}\n`);
    Y.applyUpdate(branch.doc, manyPages(999));
    const top = listPages(branch.doc).find((p) => p.parent === null && p.id !== first);
    if (top) movePage(branch.doc, first, { before: top.id });
    await branch.saved();
    return first;
  });
  await eventually(async () => (await a.node.session.status()).pending === 0, 'the space on the server', 60_000);
  // Closed, so the window opens it from disk.
  await eventually(() => a.node.branches.get({ spaceId }) === undefined, 'the branch closed', 30_000);
  remoteSpaceId = (await a.node.db.query<{ remote_id: string }>('SELECT remote_id FROM spaces WHERE id = $1', [spaceId]))[0]!.remote_id;
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await a?.close();
  await s?.close();
});

async function serverMarkdown(): Promise<string> {
  const res = await s.live.t.get(`/v1/spaces/${remoteSpaceId}/content/page/${firstPageId}?format=markdown`, s.token);
  return res.status === 200 ? (res.body.markdown as string) : '';
}

describe('a 1,000-page space in the desktop app', { timeout: 120_000 }, () => {
  it('shows its tree and first page from the saved view, then takes typing that reaches the server', async () => {
    const { page, errors } = await openWindow(browser, a);
    // Records whether the first page was on screen, read-only, before the space was decoded.
    await page.evaluate((marker) => {
      const w = window as unknown as { __drawnBeforeDecode: boolean };
      w.__drawnBeforeDecode = false;
      new MutationObserver(() => {
        const saved = document.querySelector('.editor.is-opening .ProseMirror');
        if (saved?.textContent?.includes(marker) && saved.getAttribute('contenteditable') === 'false') w.__drawnBeforeDecode = true;
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    }, MARKER);
    await page.locator('.space-row', { hasText: 'Handbook' }).click();
    await page.locator('.ProseMirror', { hasText: MARKER }).waitFor();
    await page.locator('.tree [role="treeitem"]', { hasText: 'Section 0' }).waitFor();
    expect(await page.locator('.tree [role="treeitem"]').count()).toBeGreaterThan(10);

    const live = page.locator('.ProseMirror[contenteditable="true"]', { hasText: MARKER });
    await live.waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { __drawnBeforeDecode: boolean }).__drawnBeforeDecode)).toBe(true);
    await live.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Typed once it opened.');
    await eventually(async () => (await serverMarkdown()).includes('Typed once it opened.'), 'the typing on the server', 30_000);
    expect(await serverMarkdown()).toContain(MARKER);
    await screenshot(page, 'large-space-01-opened');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('carries a click on the saved first page into the live editor: focused, the caret where it was placed', async () => {
    await eventually(() => a.node.branches.get({ spaceId }) === undefined, 'the branch closed', 30_000);
    const { page, errors } = await openWindow(browser, a);
    // Clicks the saved page the moment it is drawn (before the space is decoded), just before " handbook".
    await page.evaluate((marker) => {
      const w = window as unknown as { __clickedSaved: boolean };
      w.__clickedSaved = false;
      const observer = new MutationObserver(() => {
        const saved = document.querySelector('.editor.is-opening .ProseMirror');
        if (!saved?.textContent?.includes(marker) || w.__clickedSaved) return;
        const walker = document.createTreeWalker(saved, NodeFilter.SHOW_TEXT);
        let text: Text | null = null;
        while (walker.nextNode()) if ((walker.currentNode as Text).data.includes(marker)) text = walker.currentNode as Text;
        if (!text) return;
        const range = document.createRange();
        const at = text.data.indexOf(' handbook');
        range.setStart(text, at);
        range.setEnd(text, at + 1);
        const rect = range.getBoundingClientRect();
        const x = rect.left + 1;
        const y = rect.top + rect.height / 2;
        const target = document.elementFromPoint(x, y) ?? saved;
        for (const type of ['mousedown', 'mouseup', 'click'])
          target.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, clientX: x, clientY: y, button: 0 }));
        w.__clickedSaved = true;
        observer.disconnect();
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    }, MARKER);
    await page.locator('.space-row', { hasText: 'Handbook' }).click();
    const live = page.locator('.ProseMirror[contenteditable="true"]', { hasText: MARKER });
    await live.waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { __clickedSaved: boolean }).__clickedSaved)).toBe(true);
    // No click on the live editor: the one on the saved page placed the caret.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('.ProseMirror')?.getAttribute('contenteditable')))
      .toBe('true');
    await page.keyboard.type('X');
    await expect.poll(() => page.locator('.ProseMirror[contenteditable="true"]').textContent()).toContain('Welcome to theX handbook.');
    expect(errors).toEqual([]);
    await page.close();
  });
});
