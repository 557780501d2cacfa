import { createPage } from '@quire/shared/content/pages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Machine, openWindow, startLocalNotebook } from './helpers/browser';

/**
 * A writer going back and forth between pages all day: each visit builds a new editor, and
 * what the previous ones leave behind must not pile up (their DOM, views, Yjs bindings).
 */

const MARKER = 'The long page starts here.';

/** A page of `n` blocks of the common kinds: headings, marked-up paragraphs, lists, quotes, code. */
function longMarkdown(n: number): string {
  const blocks = [MARKER];
  for (let i = 1; blocks.length < n; i++) {
    blocks.push(`## Section ${i}`);
    blocks.push(`Paragraph ${i} with **bold**, *italic*, \`code\` and [a link](https://example.com/${i}).`);
    blocks.push(`- item ${i}.1\n- item ${i}.2`);
    blocks.push(`> A quote in section ${i}.`);
    blocks.push(`\`\`\`ts\nconst section = ${i};\n\`\`\``);
  }
  return `${blocks.slice(0, n).join('\n\n')}\n`;
}

let m: Machine;
let browser: Browser;
let spaceId: string;

beforeAll(async () => {
  ({ m, spaceId, browser } = await startLocalNotebook());
  await m.node.branches.with({ spaceId }, async (branch) => {
    createPage(branch.doc, { title: 'Long page', markdown: longMarkdown(300) });
    createPage(branch.doc, { title: 'Short page', markdown: 'A short page.\n' });
    await branch.saved();
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await m?.close();
});

async function open(page: Page, title: string, text: string) {
  await page.locator('.tree-row', { hasText: title }).click();
  await page.locator('.ProseMirror[contenteditable="true"]', { hasText: text }).waitFor({ timeout: 30_000 });
}

describe('visiting a long page again and again', { timeout: 180_000 }, () => {
  it('keeps neither DOM nodes nor JS heap from the editors of earlier visits', async () => {
    const { page, errors } = await openWindow(browser, m);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    /** DOM nodes and JS heap bytes alive after a full garbage collection. */
    const alive = async () => {
      // Editors of pages left are destroyed a tick after they unmount.
      await page.waitForTimeout(300);
      for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
      const { metrics } = await cdp.send('Performance.getMetrics');
      const get = (name: string) => metrics.find((x) => x.name === name)?.value ?? 0;
      return { nodes: get('Nodes'), heap: get('JSHeapUsedSize') };
    };
    const visit = async () => {
      await open(page, 'Short page', 'A short page.');
      await open(page, 'Long page', MARKER);
    };

    await page.locator('.space-row', { hasText: 'Notebook' }).click();
    await open(page, 'Long page', MARKER);
    const onScreen = await page.evaluate(() => document.querySelector('.ProseMirror')?.querySelectorAll('*').length ?? 0);
    await visit();
    const once = await alive();
    await visit();
    await visit();
    const thrice = await alive();

    // One copy of the page's DOM is well over a thousand nodes: two more visits must not
    // keep even a tenth of one. Each kept editor also held about 0.75 MB of heap; what the
    // heap still grows by (0.2 MB a visit, and less as the window warms up) is the code the
    // engine compiles and the browser's performance entries, not the app's objects.
    expect(onScreen).toBeGreaterThan(1000);
    expect(thrice.nodes - once.nodes).toBeLessThan(onScreen / 10);
    expect(thrice.heap - once.heap).toBeLessThan(800_000);
    expect(errors).toEqual([]);
    await page.close();
  });
});
