import { getPageDocument, getPageMarkdown, setPageMarkdown } from '@quire/shared/content/body';
import type { NodeJSON } from '@quire/shared/content/json';
import { createPage, listPages, movePage } from '@quire/shared/content/pages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type Machine, openWindow, screenshot, select, startLocalNotebook } from './helpers/browser';

/**
 * Nothing a writer types is lost by the editor: keys stay in the page (Tab in code), a
 * comment never writes into the page, a paste never splits existing text, and images never
 * point the window at an address it may not load.
 */

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let m: Machine;
let browser: Browser;
let spaceId: string;
const errors: string[] = [];

async function window(): Promise<Page> {
  const w = await openWindow(browser, m);
  w.page.on('pageerror', (e) => errors.push(e.message));
  return w.page;
}

/** A window on a page of the Notebook space. */
async function openPage(title: string): Promise<Page> {
  const page = await window();
  await page.locator('.space-row', { hasText: 'Notebook' }).first().click();
  await page.locator('.tree-row', { hasText: title }).click();
  await expect.poll(() => page.locator('.page-title').inputValue()).toBe(title);
  await page.locator('.ProseMirror').waitFor();
  return page;
}

/** A page of the Notebook space written as `markdown`, opened in a window. */
async function pageWith(title: string, markdown: string): Promise<{ page: Page; pageId: string }> {
  const pageId = await m.node.branches.with({ spaceId }, async (branch) => {
    const id = createPage(branch.doc, { title, markdown });
    await branch.saved();
    return id;
  });
  return { page: await openPage(title), pageId };
}

const markdownOf = (pageId: string) => m.node.branches.with({ spaceId }, (branch) => getPageMarkdown(branch.doc, pageId));
const bodyOf = (pageId: string) => m.node.branches.with({ spaceId }, (branch) => getPageDocument(branch.doc, pageId));

/** Pastes as the system clipboard would: a paste event carrying the given flavours. */
async function paste(page: Page, data: Record<string, string>): Promise<void> {
  await page.locator('.ProseMirror').evaluate((el, flavours) => {
    const transfer = new DataTransfer();
    for (const [type, value] of Object.entries(flavours)) transfer.setData(type, value);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, data);
}

/** The editor itself has the focus, not a control drawn inside it (a code block's language). */
const focusInEditor = (page: Page) => page.evaluate(() => !!document.activeElement?.classList.contains('ProseMirror'));

beforeAll(async () => {
  ({ m, spaceId, browser } = await startLocalNotebook());
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
  it('a comment on selected words takes the keys typed, leaves the page as it was, and marks the passage for everyone until resolved', async () => {
    const { page, pageId } = await pageWith('Reviewed', 'The deploy script runs every night.\n');
    const before = await markdownOf(pageId);
    await select(page, 'p', 'deploy script', 'deploy script'.length);
    await page.getByRole('button', { name: 'Comment on the selection' }).click();
    // Typed straight away, as a writer does: into the comment, not over the selected words.
    await page.keyboard.type('Which script exactly?');
    await page.keyboard.press('Enter');
    const thread = page.locator('.thread', { hasText: 'Which script exactly?' });
    await thread.waitFor();
    expect(await page.locator('.ProseMirror').textContent()).toBe('The deploy script runs every night.');
    expect(await markdownOf(pageId)).toBe(before);
    expect((await m.node.comments.list({ spaceId }, pageId)).map((c) => c.body)).toEqual(['> deploy script\n\nWhich script exactly?']);
    const mark = page.locator('.ProseMirror .qe-comment-highlight');
    await expect.poll(() => mark.allTextContents()).toEqual(['deploy script']);

    // Another window (a browser context of its own) marks the same words, and the mark
    // follows the text when words are written before it there.
    const other = await openPage('Reviewed');
    const otherMark = other.locator('.ProseMirror .qe-comment-highlight');
    await expect.poll(() => otherMark.allTextContents()).toEqual(['deploy script']);
    await select(other, 'p', 'The', 0);
    await other.keyboard.type('Tonight: ');
    await expect.poll(() => page.locator('.ProseMirror p').first().innerText()).toMatch(/^Tonight: /);
    await expect.poll(() => mark.allTextContents()).toEqual(['deploy script']);
    expect(await otherMark.allTextContents()).toEqual(['deploy script']);
    await screenshot(other, 'editing-01-comment-mark');

    // A click on the passage opens its thread.
    await otherMark.click();
    await other.locator('.thread.is-focused', { hasText: 'Which script exactly?' }).waitFor();

    // Resolved: the mark goes, in both windows; the page keeps its words.
    await thread.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => mark.count()).toBe(0);
    await expect.poll(() => otherMark.count()).toBe(0);
    expect(await markdownOf(pageId)).toBe('Tonight: The deploy script runs every night.\n');
    await page.close();
    await other.close();
  });

  it('images show a placeholder until their file is read, never an address the window may not load', async () => {
    const album = (await m.node.catalog.createSpace({ title: 'Album' })).id;
    const png = new Uint8Array(Buffer.from(PNG, 'base64'));
    const ids: string[] = [];
    for (const name of ['one.png', 'two.png', 'icon.png'])
      ids.push((await m.node.files.put({ spaceId: album }, { name, contentType: 'image/png', bytes: png })).id);
    await m.node.branches.with({ spaceId: album }, async (branch) => {
      const first = listPages(branch.doc)[0]!.id;
      setPageMarkdown(
        branch.doc,
        first,
        `![One](file:${ids[0]})\n\nText with ![icon](file:${ids[2]}) inline.\n\n![Two](upload:${ids[1]})\n`,
      );
      // Large enough that the window draws the saved page before it decodes the space.
      const pages = new Y.Doc();
      for (let i = 0; i < 1000; i++) createPage(pages, { title: `Photo ${i}`, markdown: `A photograph, number ${i}, with its story.\n` });
      Y.applyUpdate(branch.doc, Y.encodeStateAsUpdate(pages));
      pages.destroy();
      const top = listPages(branch.doc).find((p) => p.parent === null && p.id !== first);
      if (top) movePage(branch.doc, first, { before: top.id });
      await branch.saved();
    });
    await expect.poll(() => m.node.branches.get({ spaceId: album }) === undefined, { timeout: 30_000 }).toBe(true);

    const { page, errors: logged } = await openWindow(browser, m, {
      initScript: () => {
        const w = window as unknown as { __unloadable: string[]; __savedView: boolean };
        w.__unloadable = [];
        w.__savedView = false;
        const check = (el: Element) => {
          if (el.matches('.is-opening') || el.querySelector('.is-opening')) w.__savedView = true;
          for (const img of [el, ...el.querySelectorAll('img')]) {
            const src = img.tagName === 'IMG' ? (img.getAttribute('src') ?? '') : '';
            if (/^(file|upload):/i.test(src)) w.__unloadable.push(src);
          }
        };
        new MutationObserver((records) => {
          for (const r of records) {
            if (r.type === 'attributes') check(r.target as Element);
            for (const n of r.addedNodes) if (n.nodeType === 1) check(n as Element);
          }
        }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['src', 'class'] });
      },
    });
    await page.locator('.space-row', { hasText: 'Album' }).first().click();
    const editor = page.locator('.ProseMirror[contenteditable="true"]');
    await editor.waitFor();
    await expect.poll(() => editor.locator('.qe-image img[src^="blob:"]').count()).toBe(2);
    await expect.poll(() => editor.locator('img.qe-inline-image[src^="blob:"]').count()).toBe(1);
    const seen = await page.evaluate(() => {
      const w = window as unknown as { __unloadable: string[]; __savedView: boolean };
      return { savedView: w.__savedView, unloadable: w.__unloadable };
    });
    // The saved page was drawn first: the path where the addresses came from.
    expect(seen.savedView).toBe(true);
    expect(seen.unloadable).toEqual([]);
    expect(logged.filter((e) => /local resource|ERR_UNKNOWN_URL_SCHEME/i.test(e))).toEqual([]);
    await page.close();
  });

  it('no page error in any window', () => {
    expect(errors).toEqual([]);
  });
});
