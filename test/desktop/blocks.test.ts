import { mkdirSync } from 'node:fs';
import { getPageMarkdown, readBody } from '@quire/shared/content/body';
import { bodyFragment, findPageMap } from '@quire/shared/content/layout';
import { createPage } from '@quire/shared/content/pages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderBody } from '../../sync-server/src/sites/render/body';
import { ARTIFACTS, type Machine, RESTING, startLocalNotebook } from './helpers/browser';

/**
 * Blocks as writers handle them in GitBook or Notion: a handle beside each block to drag
 * it and open its menu, images resized by their corner, and a `/` menu that says what each
 * block is for and how to make it without the menu.
 */

const SHOTS = ARTIFACTS;

let m: Machine;
let browser: Browser;
let spaceId: string;
const errors: string[] = [];

async function window(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(m.bridge.url);
  return page;
}

async function openPage(page: Page, title: string): Promise<void> {
  await page.locator('.space-row', { hasText: 'Notebook' }).first().click();
  await page.locator('.tree-row', { hasText: title }).first().click();
  await expect.poll(() => page.locator('.page-title').inputValue()).toBe(title);
  await page.locator('.ProseMirror[contenteditable="true"]').waitFor();
}

async function pageWith(title: string, markdown: string) {
  const pageId = await m.node.branches.with({ spaceId }, async (branch) => {
    const id = createPage(branch.doc, { title, markdown });
    await branch.saved();
    return id;
  });
  const page = await window();
  await openPage(page, title);
  return { page, pageId };
}

/** The page as the LocalNode's Y.Doc holds it (what syncs), not as the window shows it. */
const markdownOf = (pageId: string) => m.node.branches.with({ spaceId }, (branch) => getPageMarkdown(branch.doc, pageId));
const bodyOf = (pageId: string) =>
  m.node.branches.with({ spaceId }, (branch) => readBody(bodyFragment(findPageMap(branch.doc, pageId)!, false)));
const settle = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
/** Undo steps are cut after a pause; wait for one so the next edit is its own step. */
const pause = (page: Page) => page.waitForTimeout(700);
const block = (page: Page, text: string) => page.locator('.ProseMirror > *', { hasText: text }).first();

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, ...RESTING });
}

/** Hovers a block and returns its handle, checked to sit in the gutter beside the block's first line. */
async function handleOf(page: Page, text: string) {
  const target = block(page, text);
  const box = (await target.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + 6);
  const handle = page.getByRole('button', { name: 'Block actions' });
  await expect
    .poll(async () => {
      const h = await handle.boundingBox();
      return !!h && h.x + h.width <= box.x && h.y < box.y + Math.min(box.height, 30) && h.y + h.height > box.y;
    })
    .toBe(true);
  return handle;
}

async function dragHandle(page: Page, from: string, below: string) {
  const handle = await handleOf(page, from);
  const h = (await handle.boundingBox())!;
  const target = (await block(page, below).boundingBox())!;
  await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
  await page.mouse.down();
  await page.mouse.move(h.x + h.width / 2, target.y + target.height - 2, { steps: 8 });
  await page.locator('.block-drop-line').waitFor();
  return async () => page.mouse.up();
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

// A step may wait long on a loaded machine; a test gets room for several.
describe('blocks', { timeout: 150_000 }, () => {
  it('a block is dragged by its handle: one undo step, and the synced page has the new order', async () => {
    const { page, pageId } = await pageWith('Dragging', 'Alpha\n\nBeta\n\nGamma\n');
    await pause(page);
    const drop = await dragHandle(page, 'Alpha', 'Gamma');
    await shot(page, 'block-drag');
    await drop();
    await expect.poll(() => markdownOf(pageId)).toBe('Beta\n\nGamma\n\nAlpha\n');
    expect(await page.locator('.ProseMirror > p').allTextContents()).toEqual(['Beta', 'Gamma', 'Alpha']);
    await pause(page);
    await page.keyboard.press('Control+z');
    await expect.poll(() => markdownOf(pageId)).toBe('Alpha\n\nBeta\n\nGamma\n');
    // Dragged upwards, a heading goes along with its level.
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('## Delta');
    await pause(page);
    const dropUp = await dragHandle(page, 'Delta', 'Alpha');
    await dropUp();
    await expect.poll(() => markdownOf(pageId)).toBe('Alpha\n\n## Delta\n\nBeta\n\nGamma\n');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a click on the handle selects the block and opens its menu: move, duplicate, turn into, delete', async () => {
    const { page, pageId } = await pageWith('Menu', 'Alpha\n\nBeta\n\nGamma\n');
    const menu = page.getByRole('menu', { name: 'Block' });
    const open = async (text: string) => {
      await (await handleOf(page, text)).click();
      await menu.waitFor();
      await expect.poll(() => page.locator('.ProseMirror > .ProseMirror-selectednode').textContent()).toBe(text);
    };
    await open('Beta');
    expect((await menu.getByRole('menuitem').allTextContents()).map((t) => t.trim())).toEqual(
      expect.arrayContaining(['Move up', 'Move down', 'Duplicate', 'Heading 1', 'Bulleted list', 'Code block', 'Delete']),
    );
    await shot(page, 'block-menu');
    await menu.getByRole('menuitem', { name: 'Move down' }).click();
    await expect.poll(() => markdownOf(pageId)).toBe('Alpha\n\nGamma\n\nBeta\n');
    expect(await menu.count()).toBe(0);
    await open('Beta');
    await menu.getByRole('menuitem', { name: 'Move up' }).click();
    await expect.poll(() => markdownOf(pageId)).toBe('Alpha\n\nBeta\n\nGamma\n');
    await open('Alpha');
    expect(await menu.getByRole('menuitem', { name: 'Move up' }).isDisabled()).toBe(true);
    await menu.getByRole('menuitem', { name: 'Duplicate' }).click();
    await expect.poll(() => markdownOf(pageId)).toBe('Alpha\n\nAlpha\n\nBeta\n\nGamma\n');
    await open('Gamma');
    await menu.getByRole('menuitem', { name: 'Heading 2' }).click();
    await expect.poll(() => markdownOf(pageId)).toBe('Alpha\n\nAlpha\n\nBeta\n\n## Gamma\n');
    // The caret is in the turned block: typing goes on there.
    await page.keyboard.press('End');
    await page.keyboard.type('!');
    await expect.poll(() => markdownOf(pageId)).toBe('Alpha\n\nAlpha\n\nBeta\n\n## Gamma!\n');
    await open('Beta');
    await menu.getByRole('menuitem', { name: 'Delete' }).click();
    await expect.poll(() => markdownOf(pageId)).toBe('Alpha\n\nAlpha\n\n## Gamma!\n');
    // Escape closes the menu and leaves the page as it was.
    await open('Alpha');
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    expect(await markdownOf(pageId)).toBe('Alpha\n\nAlpha\n\n## Gamma!\n');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('an image is resized by its corner and by size buttons; the width syncs and the published page honours it', async () => {
    const file = await m.node.files.put(
      { spaceId },
      { name: 'diagram.svg', contentType: 'image/svg+xml', bytes: new TextEncoder().encode(DIAGRAM) },
    );
    const { page, pageId } = await pageWith('Pictured', `Above.\n\n![Diagram](${file.src})\n\nBelow.\n`);
    const img = page.locator('.qe-image img');
    await expect.poll(async () => (await img.boundingBox())?.width ?? 0).toBeGreaterThan(600);
    await img.hover();
    const corner = page.locator('.qe-image-resize');
    const c = (await corner.boundingBox())!;
    const before = (await img.boundingBox())!.width;
    await page.mouse.move(c.x + c.width / 2, c.y + c.height / 2);
    await page.mouse.down();
    // The image is centred: its corner moves half as far as its width changes.
    await page.mouse.move(c.x + c.width / 2 - (before - 400) / 2, c.y + c.height / 2 + 10, { steps: 6 });
    await page.mouse.up();
    const widthOf = async () => (await bodyOf(pageId)).content?.find((n) => n.type === 'image')?.attrs?.width;
    await expect.poll(async () => Math.abs(Number(await widthOf()) - 400)).toBeLessThan(5);
    const stored = Number(await widthOf());
    expect(Math.abs((await img.boundingBox())!.width - stored)).toBeLessThan(2);
    // From the keyboard: ArrowDown from the paragraph above selects the image.
    await block(page, 'Above.').click();
    await settle(page);
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('.qe-image.is-selected').count()).toBe(1);
    await shot(page, 'image-resized');

    // Tab on the selected image reaches its size buttons.
    const sizes = page.getByRole('toolbar', { name: 'Image size' });
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[aria-label="Image size"]') !== null)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(widthOf).toBe('240');
    expect(await sizes.getByRole('button', { name: 'Small' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => Math.round((await img.boundingBox())!.width)).toBe(240);

    // Another window sees the same width, and so does the published page.
    const other = await window();
    await openPage(other, 'Pictured');
    await expect.poll(async () => Math.round((await other.locator('.qe-image img').boundingBox())?.width ?? 0)).toBe(240);
    // The server knows the image by its file id once uploaded (this machine works locally, so it is still `upload:`).
    const body = JSON.parse(JSON.stringify(await bodyOf(pageId)).replace(/"upload:[^"]+"/, `"file:${file.id}"`));
    const site = renderBody(body, {
      page: (id) => `/docs/${id}`,
      file: (id) => `/files/${id}`,
      image: (id) => ({ src: `/files/${id}`, width: 800, height: 300 }),
      externalTarget: 'self',
    }).html;
    expect(site).toMatch(/<img [^>]*width="240"[^>]*height="90"/);

    await sizes.getByRole('button', { name: 'Full' }).click();
    await expect.poll(async () => (await widthOf()) ?? null).toBe(null);
    expect(errors).toEqual([]);
    await other.close();
    await page.close();
  });

  it('the / menu gives each block a line of description and its shortcuts, and the shortcuts it shows work', async () => {
    const { page, pageId } = await pageWith('Slashing', 'Start.\n');
    await block(page, 'Start.').click();
    await settle(page);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/');
    const list = page.getByRole('listbox', { name: 'Insert a block' });
    await list.waitFor();
    const option = (label: string) =>
      list.getByRole('option').filter({ has: page.locator('.slash-label', { hasText: new RegExp(`^${label}$`) }) });
    expect(await option('Heading 1').locator('.slash-description').textContent()).toBe('Big section heading');
    const keysOf = async (label: string) => option(label).locator('kbd').allTextContents();
    expect(await keysOf('Heading 1')).toEqual(['#', 'Ctrl+Alt+1']);
    expect(await keysOf('Code block')).toEqual(['```', 'Ctrl+Alt+C']);
    // No shortcut where none exists.
    expect(await keysOf('Table')).toEqual([]);
    expect(await option('Table').locator('.slash-description').textContent()).toBeTruthy();
    await shot(page, 'slash-menu');
    // Typing filters as before.
    await page.keyboard.type('head');
    await expect.poll(() => list.locator('.slash-label').allTextContents()).toEqual(['Heading 1', 'Heading 2', 'Heading 3', 'Heading 4']);
    const shown: Record<string, string[]> = {};
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    for (const label of ['Heading 1', 'Bulleted list', 'Quote', 'Code block']) shown[label] = await keysOf(label);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Backspace');

    // Each key shortcut the menu shows, pressed as shown, makes that block.
    const press = (keys: string) => keys.replace(/Ctrl/g, 'Control');
    const cases: [string, string][] = [
      ['Heading 1', '# Made by keys'],
      ['Bulleted list', '* Made by keys'],
      ['Quote', '> Made by keys'],
    ];
    for (const [label, expected] of cases) {
      await page.keyboard.type('Made by keys');
      await page.keyboard.press(press(shown[label]![1]!));
      await expect.poll(() => markdownOf(pageId), { message: label }).toBe(`Start.\n\n${expected}\n`);
      await page.keyboard.press(press(shown[label]![1]!));
      await expect.poll(() => markdownOf(pageId), { message: `${label} off` }).toBe('Start.\n\nMade by keys\n');
      await page.keyboard.press('Control+a');
      await page.keyboard.press('Backspace');
      await page.keyboard.type('Start.');
      await page.keyboard.press('Enter');
    }
    // And the markdown it shows for a code block, typed at the start of a line.
    await page.keyboard.type(`${shown['Code block']![0]} let a = 1`);
    await expect.poll(() => markdownOf(pageId)).toBe('Start.\n\n```\nlet a = 1\n```\n');
    expect(errors).toEqual([]);
    await page.close();
  });
});
