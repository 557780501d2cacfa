import { mkdirSync } from 'node:fs';
import { getPageMarkdown } from '@quire/shared/content/body';
import { createPage } from '@quire/shared/content/pages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, type Machine, RESTING, select, startLocalNotebook } from './helpers/browser';

/**
 * What writers expect of a page editor: paragraphs that read as paragraphs, a page that
 * stays still, ways out of tables and code, Escape, dark mode, a word count and an
 * outline, find and replace, and moving blocks from the keyboard.
 */

const SHOTS = ARTIFACTS;

let m: Machine;
let browser: Browser;
let spaceId: string;
const errors: string[] = [];

async function window(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme });
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

/** A page of the Notebook space written as `markdown`, opened in a new window. */
async function pageWith(title: string, markdown: string, colorScheme: 'light' | 'dark' = 'light') {
  const pageId = await m.node.branches.with({ spaceId }, async (branch) => {
    const id = createPage(branch.doc, { title, markdown });
    await branch.saved();
    return id;
  });
  const page = await window(colorScheme);
  await openPage(page, title);
  return { page, pageId };
}

const markdownOf = (pageId: string) => m.node.branches.with({ spaceId }, (branch) => getPageMarkdown(branch.doc, pageId));
const focusInEditor = (page: Page) => page.evaluate(() => !!document.activeElement?.closest('.ProseMirror'));
const topLevel = (page: Page) => page.locator('.ProseMirror > p').allTextContents();
/**
 * The editor reads where the caret is from the browser's selectionchange, which a loaded
 * machine may deliver after the next key: wait for it after a click or a key the browser
 * moves the caret for, before a key the editor handles.
 */
const settle = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
async function nav(page: Page, key: string) {
  await page.keyboard.press(key);
  await settle(page);
}
/** Undo steps are cut after a pause in typing; wait for one so the next edit is its own step. */
const pause = (page: Page) => page.waitForTimeout(700);

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, ...RESTING });
}

beforeAll(async () => {
  ({ m, spaceId, browser } = await startLocalNotebook());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await m?.close();
});

describe('writing at the level writers expect', { timeout: 60_000 }, () => {
  it('two paragraphs are visibly apart', async () => {
    const { page } = await pageWith('Paragraphs', 'The first paragraph.\n\nThe second paragraph.\n');
    const [a, b] = await page.locator('.ProseMirror > p').evaluateAll((ps) => ps.map((p) => p.getBoundingClientRect().toJSON()));
    expect(b.top - a.bottom).toBeGreaterThan(4);
    await page.close();
  });

  it('moving the caret into a table does not move the page', async () => {
    const { page } = await pageWith('Tabled', 'An introduction.\n\n| Name | Role |\n| --- | --- |\n| Ada | Author |\n\nThe end.\n');
    await page.locator('.ProseMirror > p', { hasText: 'The end.' }).click();
    await settle(page);
    const intro = page.locator('.ProseMirror > p', { hasText: 'An introduction.' });
    const before = (await intro.boundingBox())!.y;
    await page.locator('.ProseMirror td', { hasText: 'Ada' }).click();
    await settle(page);
    await page.getByRole('button', { name: '+ Row' }).waitFor();
    expect((await intro.boundingBox())!.y).toBe(before);
    await page.close();
  });

  it('ArrowDown at the end of a code block or table, and Enter on an empty last line of code, leave it', async () => {
    const { page, pageId } = await pageWith('Leaving', 'Before.\n\n```\nlet a = 1\n```\n');
    // The block says how to leave it.
    await expect.poll(() => page.locator('.qe-code .qe-code-hint').textContent()).toMatch(/↓.*Enter/);
    // From the keyboard only: a click's caret may reach the editor after the keys that follow.
    await page.locator('.ProseMirror > p', { hasText: 'Before.' }).click();
    await settle(page);
    await nav(page, 'Control+End');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.type('After the code.');
    await expect.poll(() => markdownOf(pageId)).toBe('Before.\n\n```\nlet a = 1\n```\n\nAfter the code.\n');

    // Enter on an empty last line leaves the block, without that empty line.
    await nav(page, 'Home');
    await nav(page, 'ArrowUp');
    await nav(page, 'End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('let b = 2');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Between.');
    await expect.poll(() => markdownOf(pageId)).toBe('Before.\n\n```\nlet a = 1\nlet b = 2\n```\n\nBetween.\n\nAfter the code.\n');

    // A table at the end of the page: ArrowDown from its last row makes a paragraph after it.
    await nav(page, 'Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/table');
    await page.keyboard.press('Enter');
    await page.locator('.ProseMirror table').waitFor();
    for (let i = 0; i < 8; i++) await page.keyboard.press('Tab');
    expect(await page.getByRole('group', { name: 'Table' }).getAttribute('title')).toContain('↓');
    await page.keyboard.type('x');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.type('Below the table.');
    await expect.poll(() => page.locator('.ProseMirror > p').last().textContent()).toBe('Below the table.');
    expect(await page.locator('.ProseMirror table').textContent()).not.toContain('Below');
    await page.close();
  });

  it('Escape closes every dialog and gives the focus back to the page', async () => {
    const { page } = await pageWith('Escaping', 'Some words to work on.\n');
    const back = async (gone: ReturnType<Page['locator']>) => {
      await page.keyboard.press('Escape');
      await expect.poll(() => gone.count(), { message: `${gone} closes` }).toBe(0);
      await expect.poll(() => focusInEditor(page), { message: `the page has the focus after ${gone}` }).toBe(true);
    };
    // The link dialog.
    await select(page, 'p', 'words', 5);
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    await page.getByRole('dialog', { name: 'Link' }).waitFor();
    await back(page.getByRole('dialog', { name: 'Link' }));
    // The / menu.
    await nav(page, 'End');
    await page.keyboard.type(' /');
    await page.getByRole('listbox', { name: 'Insert a block' }).waitFor();
    await back(page.getByRole('listbox', { name: 'Insert a block' }));
    // The Insert menu of the toolbar.
    await page.getByRole('button', { name: 'Insert' }).click();
    await page.getByRole('menu').waitFor();
    await back(page.getByRole('menu'));
    // The comment box.
    await select(page, 'p', 'work', 4);
    await page.getByRole('button', { name: 'Comment on the selection' }).click();
    const panel = page.getByRole('complementary', { name: 'Comments' });
    await panel.waitFor();
    await back(panel);
    // Settings (the account dialog), opened from the sidebar: the focus is on its button.
    await page.locator('.account').click();
    await page.getByRole('dialog', { name: 'Account' }).waitFor();
    await back(page.getByRole('dialog', { name: 'Account' }));
    // The page switcher.
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Go to page' }).waitFor();
    await back(page.getByRole('dialog', { name: 'Go to page' }));
    // Find and replace.
    await page.keyboard.press('Control+f');
    await page.getByRole('search', { name: 'Find in page' }).waitFor();
    await back(page.getByRole('search', { name: 'Find in page' }));
    await page.close();
  });

  it('dark mode follows the system, and the switch overrides it and is kept', async () => {
    const lum = (page: Page) =>
      page.evaluate(() => {
        const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\d+/g)!.map(Number);
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      });
    const { page } = await pageWith(
      'Themes',
      '# Dark and light\n\nA paragraph with **bold**, `code` and a [link](https://example.com).\n\n```js\nconst dark = true;\n```\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n',
      'dark',
    );
    expect(await lum(page)).toBeLessThan(60);
    await page.locator('.ProseMirror td').first().click();
    await settle(page);
    await shot(page, 'editor-dark');
    await page.locator('.account').click();
    const theme = page.getByRole('radiogroup', { name: 'Appearance' });
    await shot(page, 'settings-dark');
    await theme.getByRole('radio', { name: 'Light' }).click();
    expect(await lum(page)).toBeGreaterThan(200);
    await page.keyboard.press('Escape');
    await shot(page, 'editor-light');
    // Kept across restarts.
    await page.reload();
    await page.locator('.ProseMirror').waitFor();
    expect(await lum(page)).toBeGreaterThan(200);
    await page.locator('.account').click();
    await theme.getByRole('radio', { name: 'System' }).click();
    expect(await lum(page)).toBeLessThan(60);
    await theme.getByRole('radio', { name: 'Dark' }).click();
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await lum(page)).toBeLessThan(60);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Comments' }).click();
    await page.locator('.ProseMirror > p').first().click();
    await settle(page);
    await nav(page, 'End');
    await page.keyboard.type(' /');
    await page.getByRole('listbox', { name: 'Insert a block' }).waitFor();
    await shot(page, 'panels-dark');
    await page.close();
  });

  it('the page shows its word count and an outline of its headings; a click on one scrolls to it', async () => {
    const filler = Array.from({ length: 40 }, (_, i) => `Filler paragraph number ${i}.`).join('\n\n');
    const { page } = await pageWith('Outlined', `Three words here.\n\n## Alpha\n\n${filler}\n\n## Beta\n\nThe last words.\n\n${filler}\n`);
    const words = 3 + 1 + 40 * 4 + 1 + 3 + 40 * 4;
    const count = page.getByTestId('word-count');
    await expect.poll(() => count.textContent()).toBe(`${words} words`);
    await page.locator('.ProseMirror > p', { hasText: 'The last words.' }).click();
    await settle(page);
    await nav(page, 'End');
    await page.keyboard.type(' Two more');
    await expect.poll(() => count.textContent()).toBe(`${words + 2} words`);
    // Words selected are counted too.
    await select(page, 'p', 'Three words', 'Three words'.length);
    await expect.poll(() => count.textContent()).toBe(`2 of ${words + 2} words`);
    const outline = page.getByRole('navigation', { name: 'Outline' });
    expect(await outline.getByRole('link').allTextContents()).toEqual(['Alpha', 'Beta']);
    // The app's default window still has room for it, beside the page, not over it.
    await page.setViewportSize({ width: 1320, height: 860 });
    const [text, aside] = await Promise.all([page.locator('.ProseMirror').boundingBox(), outline.boundingBox()]);
    expect(aside!.x).toBeGreaterThan(text!.x + text!.width);
    expect(aside!.x + aside!.width).toBeLessThanOrEqual(1320);
    await page.locator('.page-scroll').evaluate((el) => el.scrollTo(0, 0));
    await shot(page, 'outline-light-1320');
    await outline.getByRole('link', { name: 'Beta' }).click();
    await expect
      .poll(async () => {
        const h = (await page.locator('.ProseMirror h2', { hasText: 'Beta' }).boundingBox())!;
        return h.y > 0 && h.y < 250 ? 'near the top' : h.y;
      })
      .toBe('near the top');
    await page.close();
  });

  it('find and replace: Ctrl+F highlights matches, Enter walks them, replace all is one undo step', async () => {
    const { page, pageId } = await pageWith('Finding', 'A cat and a Cat.\n\nThe last cat.\n');
    await page.locator('.ProseMirror > p').first().click();
    await settle(page);
    await nav(page, 'Control+Home');
    await page.keyboard.press('Control+f');
    const find = page.getByRole('textbox', { name: 'Find' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Find');
    await find.fill('cat');
    await expect.poll(() => page.locator('.ProseMirror .find-match').count()).toBe(3);
    const counter = page.getByTestId('find-count');
    await expect.poll(() => counter.textContent()).toBe('1 of 3');
    await find.press('Enter');
    await expect.poll(() => counter.textContent()).toBe('2 of 3');
    await find.press('Enter');
    await find.press('Enter');
    await expect.poll(() => counter.textContent()).toBe('1 of 3');
    await find.press('Shift+Enter');
    await expect.poll(() => counter.textContent()).toBe('3 of 3');
    expect(await page.locator('.ProseMirror .find-match.is-current').textContent()).toBe('cat');

    await page.keyboard.press('Control+h');
    const replace = page.getByRole('textbox', { name: 'Replace with' });
    await replace.fill('dog');
    await shot(page, 'find-replace-light');
    await page.getByRole('button', { name: 'Replace', exact: true }).click();
    await expect.poll(() => markdownOf(pageId)).toBe('A cat and a Cat.\n\nThe last dog.\n');
    await pause(page);
    await page.getByRole('button', { name: 'Replace all' }).click();
    await expect.poll(() => markdownOf(pageId)).toBe('A dog and a dog.\n\nThe last dog.\n');
    await expect.poll(() => counter.textContent()).toBe('No matches');
    await pause(page);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+z');
    await expect.poll(() => markdownOf(pageId)).toBe('A cat and a Cat.\n\nThe last dog.\n');
    await page.close();
  });

  it('Alt+Shift+Up and Down move the block the caret is in, one undo step each', async () => {
    const { page } = await pageWith('Moving', 'Alpha\n\nBeta\n\nGamma\n');
    await page.locator('.ProseMirror > p', { hasText: 'Alpha' }).click();
    await settle(page);
    await nav(page, 'Control+End');
    await page.keyboard.press('Alt+Shift+ArrowUp');
    await expect.poll(() => topLevel(page)).toEqual(['Alpha', 'Gamma', 'Beta']);
    await page.keyboard.press('Alt+Shift+ArrowUp');
    await expect.poll(() => topLevel(page)).toEqual(['Gamma', 'Alpha', 'Beta']);
    await page.keyboard.press('Alt+Shift+ArrowDown');
    await expect.poll(() => topLevel(page)).toEqual(['Alpha', 'Gamma', 'Beta']);
    // The caret went along.
    await page.keyboard.type('!');
    await expect.poll(() => topLevel(page)).toEqual(['Alpha', 'Gamma!', 'Beta']);
    await pause(page);
    await page.keyboard.press('Alt+Shift+ArrowDown');
    await expect.poll(() => topLevel(page)).toEqual(['Alpha', 'Beta', 'Gamma!']);
    await pause(page);
    await page.keyboard.press('Control+z');
    await expect.poll(() => topLevel(page)).toEqual(['Alpha', 'Gamma!', 'Beta']);
    // A selection across blocks moves them together.
    await select(page, '', 'AlphaGam', 'AlphaGam'.length);
    await page.keyboard.press('Alt+Shift+ArrowDown');
    await expect.poll(() => topLevel(page)).toEqual(['Beta', 'Alpha', 'Gamma!']);
    // In a list, the item moves within its list.
    await nav(page, 'Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('- one');
    await page.keyboard.press('Enter');
    await page.keyboard.type('two');
    await page.keyboard.press('Alt+Shift+ArrowUp');
    await expect.poll(() => page.locator('.ProseMirror li').allTextContents()).toEqual(['two', 'one']);
    expect(errors).toEqual([]);
    await page.close();
  });
});
