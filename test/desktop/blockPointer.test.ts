import { mkdirSync } from 'node:fs';
import { getPageMarkdown } from '@quire/shared/content/body';
import { createPage } from '@quire/shared/content/pages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Machine, startLocalNotebook } from './helpers/browser';

/**
 * Blocks handled with the pointer: an image is selected by a click (and its size buttons
 * with it), and a block dragged by its handle scrolls the page near the edges, so it can be
 * moved further than one screen.
 */

const SHOTS = '/work/notes/shots';

let m: Machine;
let browser: Browser;
let spaceId: string;
const errors: string[] = [];

async function window(viewport = { width: 1440, height: 900 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(m.bridge.url);
  return page;
}

async function pageWith(title: string, markdown: string, viewport?: { width: number; height: number }) {
  const pageId = await m.node.branches.with({ spaceId }, async (branch) => {
    const id = createPage(branch.doc, { title, markdown });
    await branch.saved();
    return id;
  });
  const page = await window(viewport);
  await page.locator('.space-row', { hasText: 'Notebook' }).first().click();
  await page.locator('.tree-row', { hasText: title }).first().click();
  await expect.poll(() => page.locator('.page-title').inputValue()).toBe(title);
  await page.locator('.ProseMirror[contenteditable="true"]').waitFor();
  return { page, pageId };
}

const markdownOf = (pageId: string) => m.node.branches.with({ spaceId }, (branch) => getPageMarkdown(branch.doc, pageId));
const block = (page: Page, text: string) => page.locator('.ProseMirror > *', { hasText: text }).first();
/** The editor's selection, as ProseMirror holds it. */
const selection = (page: Page) =>
  page.evaluate(() => {
    const sel = (
      document.querySelector('.ProseMirror') as unknown as { editor?: { state: { selection: { toJSON(): unknown } } } }
    ).editor?.state.selection.toJSON() as { type: string } | undefined;
    return sel?.type ?? null;
  });

async function shot(page: Page, name: string, dark = false) {
  mkdirSync(SHOTS, { recursive: true });
  await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
  await page.waitForTimeout(250);
  await page.screenshot({ path: `${SHOTS}/${name}${dark ? '-dark' : ''}.png` });
}

const DIAGRAM = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="300" viewBox="0 0 800 300">
<rect width="800" height="300" rx="16" fill="#eef2ff"/><rect x="60" y="110" width="200" height="80" rx="10" fill="#4f46e5"/>
<rect x="540" y="110" width="200" height="80" rx="10" fill="#0f766e"/><path d="M270 150h260" stroke="#6366f1" stroke-width="5"/>
</svg>`;

beforeAll(async () => {
  ({ m, spaceId, browser } = await startLocalNotebook());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await m?.close();
});

describe('blocks under the pointer', { timeout: 150_000 }, () => {
  it('a click selects an image: its size buttons show, Escape deselects, Delete and Backspace remove it', async () => {
    const file = await m.node.files.put(
      { spaceId },
      { name: 'diagram.svg', contentType: 'image/svg+xml', bytes: new TextEncoder().encode(DIAGRAM) },
    );
    const { page, pageId } = await pageWith('Clicked', `Above.\n\n![First](${file.src})\n\nBetween.\n\n![Second](${file.src})\n\nBelow.\n`);
    const figure = page.locator('.qe-image').first();
    const img = figure.locator('img');
    const sizes = figure.getByRole('toolbar', { name: 'Image size' });
    await expect.poll(async () => (await img.boundingBox())?.width ?? 0).toBeGreaterThan(600);
    // The first click on the page, with the caret nowhere yet.
    await img.click();
    await expect.poll(() => selection(page)).toBe('node');
    await expect.poll(() => figure.evaluate((el) => el.classList.contains('is-selected'))).toBe(true);
    // Selected, not merely hovered: the pointer moves away and the buttons stay.
    await page.mouse.move(5, 5);
    await expect.poll(() => sizes.isVisible()).toBe(true);
    const outline = await img.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).toBe('solid');
    await shot(page, 'image-selected');
    await shot(page, 'image-selected', true);
    await page.emulateMedia({ colorScheme: 'light' });

    await page.keyboard.press('Escape');
    await expect.poll(() => figure.evaluate((el) => el.classList.contains('is-selected'))).toBe(false);
    await expect.poll(() => sizes.isVisible()).toBe(false);
    expect(await selection(page)).toBe('text');
    // Deselecting keeps the image; typing goes on beside it, not into it.
    expect(await markdownOf(pageId)).toContain('![First]');

    await img.click();
    await expect.poll(() => figure.evaluate((el) => el.classList.contains('is-selected'))).toBe(true);
    await page.keyboard.press('Delete');
    await expect.poll(() => markdownOf(pageId)).not.toContain('![First]');
    expect(await markdownOf(pageId)).toContain('![Second]');

    await page.locator('.qe-image img').first().click();
    await expect.poll(() => page.locator('.qe-image.is-selected').count()).toBe(1);
    await page.keyboard.press('Backspace');
    await expect.poll(() => markdownOf(pageId)).toBe('Above.\n\nBetween.\n\nBelow.\n');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('dragging a block by its handle near the bottom or top edge scrolls the page, so it moves further than a screen', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => `Line ${String(i + 1).padStart(2, '0')}`);
    const { page, pageId } = await pageWith('Long', `${lines.join('\n\n')}\n`, { width: 1200, height: 700 });
    const scroller = () =>
      page.evaluate(() => {
        let el: HTMLElement | null = document.querySelector('.ProseMirror');
        while (el && !(el.scrollHeight > el.clientHeight && /auto|scroll/.test(getComputedStyle(el).overflowY))) el = el.parentElement;
        const r = el!.getBoundingClientRect();
        return { top: el!.scrollTop, max: el!.scrollHeight - el!.clientHeight, y: r.top, bottom: r.bottom };
      });
    const start = await scroller();
    expect(start.max).toBeGreaterThan(500);

    // Line 02 is dragged down to the bottom edge and held there until the page has scrolled to its end.
    const target = block(page, 'Line 02');
    const box = (await target.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + 6);
    const handle = page.getByRole('button', { name: 'Block actions' });
    await expect.poll(async () => (await handle.boundingBox())?.y ?? 0).toBeGreaterThan(box.y - 20);
    const h = (await handle.boundingBox())!;
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(h.x + h.width / 2, start.bottom - 8, { steps: 10 });
    await expect.poll(async () => (await scroller()).top, { timeout: 60_000 }).toBeGreaterThanOrEqual(start.max - 1);
    await shot(page, 'block-drag-scrolled');
    // Dropped just above the last line.
    const last = (await block(page, 'Line 60').boundingBox())!;
    await page.mouse.move(h.x + h.width / 2, last.y + 2, { steps: 4 });
    await page.mouse.up();
    const moved = [lines[0], ...lines.slice(2, 59), lines[1], lines[59]];
    await expect.poll(() => markdownOf(pageId)).toBe(`${moved.join('\n\n')}\n`);

    // And back up: dragged to the top edge, the page scrolls to its start.
    const back = (await block(page, 'Line 02').boundingBox())!;
    await page.mouse.move(back.x + 20, back.y + 6);
    await expect.poll(async () => Math.abs(((await handle.boundingBox())?.y ?? 0) - back.y)).toBeLessThan(20);
    const h2 = (await handle.boundingBox())!;
    await page.mouse.move(h2.x + h2.width / 2, h2.y + h2.height / 2);
    await page.mouse.down();
    const edge = await scroller();
    await page.mouse.move(h2.x + h2.width / 2, edge.y + 8, { steps: 10 });
    await expect.poll(async () => (await scroller()).top, { timeout: 60_000 }).toBe(0);
    const first = (await block(page, 'Line 01').boundingBox())!;
    await page.mouse.move(h2.x + h2.width / 2, first.y + first.height - 2, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => markdownOf(pageId)).toBe(`${lines.join('\n\n')}\n`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
