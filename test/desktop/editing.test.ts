import { getPageDocument, getPageMarkdown } from '@quire/shared/content/body';
import type { NodeJSON } from '@quire/shared/content/json';
import { createPage, listPages } from '@quire/shared/content/pages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type Machine, ensureRendererBuilt, launchChromium, openWindow, screenshot, startMachine } from './helpers/browser';

/**
 * Nothing a writer types is lost by the editor: keys stay in the page (Tab in code), a
 * comment never writes into the page, a paste never splits existing text, and images never
 * point the window at an address it may not load.
 */

let m: Machine;
let browser: Browser;
let spaceId: string;
const errors: string[] = [];

async function window(): Promise<Page> {
  const w = await openWindow(browser, m);
  w.page.on('pageerror', (e) => errors.push(e.message));
  return w.page;
}

/** A page of the Notebook space written as `markdown`, opened in a window. */
async function pageWith(title: string, markdown: string): Promise<{ page: Page; pageId: string }> {
  const pageId = await m.node.withBranch({ spaceId }, async (branch) => {
    const id = createPage(branch.doc, { title, markdown });
    await branch.saved();
    return id;
  });
  const page = await window();
  await page.locator('.space-row', { hasText: 'Notebook' }).first().click();
  await page.locator('.tree-row', { hasText: title }).click();
  await expect.poll(() => page.locator('.page-title').inputValue()).toBe(title);
  await page.locator('.ProseMirror').waitFor();
  return { page, pageId };
}

const markdownOf = (pageId: string) => m.node.withBranch({ spaceId }, (branch) => getPageMarkdown(branch.doc, pageId));
const bodyOf = (pageId: string) => m.node.withBranch({ spaceId }, (branch) => getPageDocument(branch.doc, pageId));

/** Pastes as the system clipboard would: a paste event carrying the given flavours. */
async function paste(page: Page, data: Record<string, string>): Promise<void> {
  await page.locator('.ProseMirror').evaluate((el, flavours) => {
    const transfer = new DataTransfer();
    for (const [type, value] of Object.entries(flavours)) transfer.setData(type, value);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, data);
}

/** The editor itself has the focus, not a control drawn inside it (a code block's language). */
/**
 * Selects `length` characters of the editor's text from where `text` first appears inside
 * `within` (a caret when 0), the way a mouse would: the editor reads the DOM selection.
 */
async function select(page: Page, within: string, text: string, length: number): Promise<void> {
  await page
    .locator(`.ProseMirror ${within}`)
    .first()
    .evaluate(
      (root, { text, length }) => {
        const nodes: Text[] = [];
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) nodes.push(walker.currentNode as Text);
        const whole = nodes.map((n) => n.data).join('');
        const at = whole.indexOf(text);
        if (at < 0) throw new Error(`“${text}” is not in the page`);
        const point = (offset: number): [Text, number] => {
          let left = offset;
          for (const n of nodes) {
            if (left <= n.data.length) return [n, left];
            left -= n.data.length;
          }
          throw new Error('offset past the text');
        };
        const range = document.createRange();
        range.setStart(...point(at));
        range.setEnd(...point(at + length));
        (root.closest('.ProseMirror') as HTMLElement).focus();
        const selection = document.getSelection() as Selection;
        selection.removeAllRanges();
        selection.addRange(range);
      },
      { text, length },
    );
  // The editor takes the DOM selection on the next selectionchange.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
}

const focusInEditor = (page: Page) => page.evaluate(() => !!document.activeElement?.classList.contains('ProseMirror'));

beforeAll(async () => {
  await ensureRendererBuilt();
  m = await startMachine();
  await m.node.useLocal();
  spaceId = (await m.node.createSpace({ title: 'Notebook' })).id;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await m?.close();
});

describe('the editor keeps what is typed', { timeout: 60_000 }, () => {
  it('Tab in a code block indents and Shift+Tab outdents; the keys stay in the code and its language stays', async () => {
    const { page, pageId } = await pageWith('Script', '```python\ndef answer():\nprint(42)\n```\n');
    const code = page.locator('.ProseMirror pre code');
    await code.click();
    // The caret at the start of the second line.
    await select(page, 'pre code', 'print', 0);
    await page.keyboard.press('Tab');
    await page.keyboard.type('return ');
    expect(await focusInEditor(page)).toBe(true);
    expect(await page.locator('.qe-code select').inputValue()).toBe('python');
    await expect.poll(() => code.textContent()).toBe('def answer():\n    return print(42)');
    await expect.poll(() => markdownOf(pageId)).toBe('```python\ndef answer():\n    return print(42)\n```\n');

    // A selection across lines indents each line; Shift+Tab takes one level off each.
    const all = 'def answer():\n    return print(42)';
    await select(page, 'pre code', all, all.length);
    await page.keyboard.press('Tab');
    await expect.poll(() => code.textContent()).toBe('    def answer():\n        return print(42)');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => code.textContent()).toBe('def answer():\nreturn print(42)');
    expect(await focusInEditor(page)).toBe(true);
    await select(page, 'pre code', 'print(42)', 0);
    await page.keyboard.press('End');
    await page.keyboard.type('  # typed on');
    await expect.poll(() => code.textContent()).toBe('def answer():\nreturn print(42)  # typed on');
    const block = (await bodyOf(pageId)).content?.find((n: NodeJSON) => n.type === 'codeBlock');
    expect(block?.attrs?.language).toBe('python');
    await page.close();
  });
  it('Markdown pasted at the start of a heading goes in as blocks before it, and the heading stays whole', async () => {
    const { page, pageId } = await pageWith('Pasting', '# Install the tools\n\nThen run them.\n');
    await select(page, 'h1', 'Install', 0);
    await paste(page, { 'text/plain': 'Some context first.\n\n| Tool | Version |\n| --- | --- |\n| node | 20 |\n' });
    const editor = page.locator('.ProseMirror');
    await expect.poll(() => editor.locator('td').allTextContents()).toEqual(['node', '20']);
    expect(await editor.locator('th').allTextContents()).toEqual(['Tool', 'Version']);
    expect(await editor.locator('h1').allTextContents()).toEqual(['Install the tools']);
    await expect
      .poll(() => markdownOf(pageId))
      .toBe('Some context first.\n\n| Tool | Version |\n| --- | --- |\n| node | 20 |\n\n# Install the tools\n\nThen run them.\n');
    await page.close();
  });

  it('a URL pasted over selected words makes them a link to it, the words kept', async () => {
    const { page, pageId } = await pageWith('Linking', 'Read the install guide first.\n');
    await select(page, 'p', 'install guide', 'install guide'.length);
    await paste(page, { 'text/plain': 'https://example.com/guide' });
    const link = page.locator('.ProseMirror a');
    await expect.poll(() => link.count()).toBe(1);
    expect(await link.textContent()).toBe('install guide');
    expect(await link.getAttribute('href')).toBe('https://example.com/guide');
    await expect.poll(() => markdownOf(pageId)).toBe('Read the [install guide](https://example.com/guide) first.\n');
    await page.close();
  });
});
