import { getPageMarkdown, setPageMarkdown } from '@quire/shared/content/body';
import { createPage, getPage, listPages } from '@quire/shared/content/pages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type Machine, ensureRendererBuilt, launchChromium, openWindow, screenshot, startMachine } from './helpers/browser';

/**
 * Writing speed in the browser mode, on a machine that works on this device only: the
 * title, the `/` menu, tables, code, the page switcher, breadcrumbs, the sidebar and a
 * thousand-page tree.
 */

let m: Machine;
let browser: Browser;
let spaceId: string;
let bigSpaceId: string;
const errors: string[] = [];

async function window(): Promise<Page> {
  const w = await openWindow(browser, m);
  w.page.on('pageerror', (e) => errors.push(e.message));
  return w.page;
}

async function openSpace(page: Page, title = 'Notebook') {
  await page.locator('.space-row', { hasText: title }).first().click();
  await page.locator('.ProseMirror').waitFor();
}

/** The page's fields as the LocalNode stored them. */
async function stored(id: string, title: string) {
  return m.node.branches.with({ spaceId: id }, (branch) => listPages(branch.doc).find((p) => p.title === title) ?? null);
}

async function addPage(page: Page, title: string) {
  await page.getByRole('button', { name: 'Add a page', exact: true }).click();
  const rename = page.locator('.tree-rename');
  await rename.fill(title);
  await rename.press('Enter');
  await expect.poll(() => page.locator('.page-title').inputValue()).toBe(title);
}

beforeAll(async () => {
  await ensureRendererBuilt();
  m = await startMachine();
  await m.node.session.useLocal();
  const space = await m.node.catalog.createSpace({ title: 'Notebook' });
  spaceId = space.id;
  await m.node.branches.with({ spaceId }, async (branch) => {
    const first = listPages(branch.doc)[0]!.id;
    setPageMarkdown(branch.doc, first, 'The first page.');
    const guides = createPage(branch.doc, { title: 'Guides', markdown: 'All the guides.' });
    const install = createPage(branch.doc, { title: 'Install', parent: guides, markdown: 'How to install.' });
    createPage(branch.doc, { title: 'On Linux', parent: install, markdown: 'apt install quire' });
    await branch.saved();
  });
  const big = await m.node.catalog.createSpace({ title: 'Encyclopedia' });
  bigSpaceId = big.id;
  await m.node.branches.with({ spaceId: bigSpaceId }, async (branch) => {
    const updates: Uint8Array[] = [];
    for (let g = 0; g < 20; g++) {
      const doc = new Y.Doc();
      const parent = createPage(doc, { title: `Volume ${String(g).padStart(2, '0')}`, markdown: 'A volume.' });
      for (let i = 1; i < 50; i++) createPage(doc, { title: `Entry ${g}-${i}`, parent, markdown: `Entry ${g}-${i}.` });
      updates.push(Y.encodeStateAsUpdate(doc));
      doc.destroy();
    }
    Y.applyUpdate(branch.doc, Y.mergeUpdates(updates));
    await branch.saved();
  });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await m?.close();
});

describe('writing in the desktop app', { timeout: 60_000 }, () => {
  it('Enter in the title goes to the body; a new page’s slug follows its title', async () => {
    const page = await window();
    await openSpace(page);
    await addPage(page, 'Draft');
    const title = page.locator('.page-title');
    await title.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' notes');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Body text after Enter.');
    await expect.poll(() => page.locator('.ProseMirror').textContent()).toContain('Body text after Enter.');
    expect(await title.inputValue()).toBe('Draft notes');
    await expect.poll(async () => (await stored(spaceId, 'Draft notes'))?.slug).toBe('draft-notes');
    // The tree follows the title as it is typed.
    await expect.poll(() => page.locator('.tree-row.is-selected .tree-title').textContent()).toBe('Draft notes');
    await page.close();
  });

  it('two windows typing in one title merge, and neither caret jumps', async () => {
    const a = await window();
    const b = await window();
    await openSpace(a);
    await openSpace(b);
    await a.locator('.tree-row', { hasText: 'Guides' }).click();
    await b.locator('.tree-row', { hasText: 'Guides' }).click();
    await b.locator('.page-title').click();
    await b.keyboard.press('Home');
    await b.keyboard.type('All ');
    await a.locator('.page-title').click();
    await a.keyboard.press('End');
    await a.keyboard.type(' and tips');
    await expect.poll(() => b.locator('.page-title').inputValue()).toBe('All Guides and tips');
    // B's caret stayed after "All ", though A's characters arrived meanwhile.
    await b.keyboard.type('the ');
    await expect.poll(() => a.locator('.page-title').inputValue()).toBe('All the Guides and tips');
    await expect.poll(async () => (await stored(spaceId, 'All the Guides and tips'))?.title).toBe('All the Guides and tips');
    await a.close();
    await b.close();
  });

  it('the / menu inserts any block; a table puts the caret in its first cell and Tab walks the cells', async () => {
    const page = await window();
    await openSpace(page);
    await addPage(page, 'Blocks');
    const editor = page.locator('.ProseMirror');
    await editor.click();
    await page.keyboard.type('/');
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    await menu.waitFor();
    // Every block of the schema is offered.
    const labels = await menu.locator('.slash-label').allTextContents();
    for (const label of ['Heading 2', 'Table', 'Code block', 'Hint: warning', 'Tabs', 'Expandable', 'Stepper', 'Divider', 'Image'])
      expect(labels.map((l) => l.trim())).toContain(label);
    await screenshot(page, 'writing-01-slash-menu');
    await page.keyboard.type('head');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Second level');
    await expect.poll(() => editor.locator('h2').allTextContents()).toEqual(['Second level']);
    await page.keyboard.press('Enter');

    await page.keyboard.type('/table');
    await page.keyboard.press('Enter');
    await editor.locator('table').waitFor();
    await page.keyboard.type('Name');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Role');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.type('!');
    const cells = () => editor.locator('th, td').allTextContents();
    await expect.poll(cells).toEqual(['Name!', 'Role', '', '', '', '', '', '', '']);
    // Tab from the last cell adds a row.
    await editor.locator('td').last().click();
    await page.keyboard.type('last');
    await page.keyboard.press('Tab');
    await expect.poll(() => editor.locator('tr').count()).toBe(4);
    await page.keyboard.type('new row');
    await expect.poll(async () => (await cells())[9]).toBe('new row');
    // A toolbar button acts on the table and leaves the caret in the editor.
    await page.getByRole('button', { name: '+ Column' }).click();
    await page.keyboard.type('typed on');
    await expect.poll(() => editor.locator('tr').first().locator('th').count()).toBe(4);
    expect(await page.evaluate(() => document.activeElement?.classList.contains('ProseMirror'))).toBe(true);
    await expect.poll(() => editor.locator('td', { hasText: 'typed on' }).count()).toBe(1);
    await screenshot(page, 'writing-02-table');
    await page.close();
  });

  it('code blocks are highlighted as you type', async () => {
    const page = await window();
    await openSpace(page);
    await addPage(page, 'Code');
    const editor = page.locator('.ProseMirror');
    await editor.click();
    await page.keyboard.type('```ts ');
    await page.keyboard.type('const answer: number = 42; // the answer');
    await expect.poll(() => editor.locator('pre .hljs-keyword').first().textContent()).toBe('const');
    expect(await editor.locator('pre .hljs-number').first().textContent()).toBe('42');
    expect(await editor.locator('pre .hljs-comment').first().textContent()).toBe('// the answer');
    await screenshot(page, 'writing-03-code');
    await page.close();
  });

  it('Ctrl+K finds and opens a page; breadcrumbs show its parents and open them', async () => {
    const page = await window();
    await openSpace(page);
    await page.locator('.ProseMirror').click();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Go to page' });
    await dialog.waitFor();
    await page.keyboard.type('linux');
    await screenshot(page, 'writing-04-switcher');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.page-title').inputValue()).toBe('On Linux');
    expect(await dialog.count()).toBe(0);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
    await expect.poll(() => crumbs.locator('.crumb').allTextContents()).toEqual(['All the Guides and tips', 'Install', 'On Linux']);
    await crumbs.getByRole('button', { name: 'Install' }).click();
    await expect.poll(() => page.locator('.page-title').inputValue()).toBe('Install');
    await page.close();
  });

  it('the sidebar is resizable and keeps its width', async () => {
    const page = await window();
    await openSpace(page);
    const sidebar = page.locator('.sidebar');
    const before = (await sidebar.boundingBox())!.width;
    const handle = (await page.getByRole('separator', { name: 'Resize the sidebar' }).boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + 200);
    await page.mouse.down();
    await page.mouse.move(handle.x + 120, handle.y + 200, { steps: 5 });
    await page.mouse.up();
    const after = (await sidebar.boundingBox())!.width;
    expect(after).toBeGreaterThan(before + 100);
    await page.reload();
    await page.locator('.sidebar').waitFor();
    await expect.poll(async () => Math.round((await page.locator('.sidebar').boundingBox())!.width)).toBe(Math.round(after));
    await page.close();
  });

  it('a thousand-page tree expands at once, keeps only the rows in view, and typing touches nothing outside the editor', async () => {
    const page = await window();
    await openSpace(page, 'Encyclopedia');
    await page.getByRole('button', { name: 'Expand all' }).click();
    await expect.poll(() => page.locator('.tree li[aria-level="2"]').count()).toBeGreaterThan(0);
    const inDom = await page.locator('.tree li[role=treeitem]').count();
    expect(inDom).toBeLessThan(120);
    // The list is as tall as all thousand rows; scrolling brings the last ones in.
    const height = await page.locator('.tree ul[role=tree]').evaluate((el) => el.getBoundingClientRect().height);
    expect(height).toBeGreaterThan(1000 * 30);
    const last = await m.node.branches.with({ spaceId: bigSpaceId }, (branch) => listPages(branch.doc).at(-1)?.title);
    await page.locator('.sidebar-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.locator('.tree-row', { hasText: last }).waitFor();
    await screenshot(page, 'writing-05-big-tree');

    // Typing in the editor changes nothing in the sidebar's DOM (no re-render reaches it).
    await page.evaluate(() => {
      const w = window as unknown as { __sidebarMutations: number };
      w.__sidebarMutations = 0;
      new MutationObserver((records) => {
        w.__sidebarMutations += records.length;
      }).observe(document.querySelector('.sidebar') as Node, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await page.locator('.ProseMirror').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' typed without touching the tree', { delay: 10 });
    await expect.poll(() => page.locator('.ProseMirror').textContent()).toContain('typed without touching the tree');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __sidebarMutations: number }).__sidebarMutations)).toBe(0);
    await page.getByRole('button', { name: 'Collapse all' }).click();
    await expect.poll(() => page.locator('.tree li[aria-level="2"]').count()).toBe(0);
    await page.close();
  });

  it('a title stored as a plain string by an older client opens and is edited', async () => {
    const id = await m.node.branches.with({ spaceId }, async (branch) => {
      const pageId = createPage(branch.doc, { title: 'tmp', markdown: 'Old.' });
      const map = branch.doc.getMap('pages').get(pageId) as Y.Map<unknown>;
      map.set('title', 'Legacy title');
      await branch.saved();
      return pageId;
    });
    const page = await window();
    await openSpace(page);
    await page.locator('.tree-row', { hasText: 'Legacy title' }).click();
    await expect.poll(() => page.locator('.page-title').inputValue()).toBe('Legacy title');
    await page.locator('.page-title').click();
    await page.keyboard.press('End');
    await page.keyboard.type(', edited');
    await expect.poll(() => m.node.branches.with({ spaceId }, (branch) => getPage(branch.doc, id)?.title)).toBe('Legacy title, edited');
    await page.close();
  });

  it('opens every node of the content model, shows HTML only sanitized, and keeps it all when the page is edited', async () => {
    const source = [
      '{% columns %}',
      '{% column width="50%" %}',
      'Left side with <mark>marked</mark> words.',
      '{% endcolumn %}',
      '',
      '{% column %}',
      'Right side.',
      '{% endcolumn %}',
      '{% endcolumns %}',
      '',
      '<div align="center"><img src="x" onerror="window.__xss = 1" alt="Banner"><script>window.__xss = 2</script>Centered</div>',
      '',
      '$$',
      'E = mc^2',
      '$$',
      '',
      '{% updates %}',
      '{% update date="2024-01-01" %}',
      'First release.',
      '{% endupdate %}',
      '{% endupdates %}',
      '',
    ].join('\n');
    const id = await m.node.branches.with({ spaceId }, async (branch) => {
      const pageId = createPage(branch.doc, { title: 'Model', markdown: source });
      await branch.saved();
      return pageId;
    });
    const before = await m.node.branches.with({ spaceId }, (branch) => getPageMarkdown(branch.doc, id));
    const page = await window();
    await openSpace(page);
    await page.locator('.tree-row', { hasText: 'Model' }).click();
    const editor = page.locator('.ProseMirror');
    await editor.locator('.qe-columns .qe-column').first().waitFor();
    expect(await editor.locator('.qe-column').count()).toBe(2);
    await expect.poll(() => editor.locator('.qe-source-block.qe-html').textContent()).toContain('Centered');
    expect(await editor.locator('.qe-source-block.qe-html img').getAttribute('onerror')).toBeNull();
    expect(await editor.locator('.qe-source-block.qe-html script').count()).toBe(0);
    expect(await editor.locator('mark').textContent()).toBe('marked');
    expect(await editor.locator('.qe-tex').first().textContent()).toBe('E = mc^2');
    expect(await editor.locator('.qe-update-meta time').textContent()).toBe('2024-01-01');
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await screenshot(page, 'writing-06-content-model');
    // Typing in the page leaves every other node as it was.
    await editor.locator('.qe-column p').last().click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Edited.');
    await expect
      .poll(() => m.node.branches.with({ spaceId }, (branch) => getPageMarkdown(branch.doc, id)))
      .toBe(before.replace('Right side.', 'Right side. Edited.'));
    await page.close();
  });

  it('a comment on a selected passage quotes it, and the quote finds the passage again', async () => {
    const page = await window();
    await openSpace(page);
    await page.locator('.tree-row', { hasText: 'Getting started' }).click();
    const editor = page.locator('.ProseMirror');
    await expect.poll(() => editor.textContent()).toContain('The first page.');
    await editor.locator('p', { hasText: 'The first page.' }).click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page.getByRole('button', { name: 'Comment on the selection' }).click();
    await expect.poll(() => page.getByTestId('comment-quote').textContent()).toBe('“The first page.”');
    const quote = ((await page.getByTestId('comment-quote').textContent()) ?? '').replace(/[“”]/g, '');
    await page.getByPlaceholder('Comment on the selected passage…').fill('Is this word right?');
    await page.keyboard.press('Enter');
    const thread = page.locator('.thread', { hasText: 'Is this word right?' });
    await thread.waitFor();
    expect(await thread.locator('.thread-quote').textContent()).toBe(`“${quote}”`);
    await screenshot(page, 'writing-07-comment-on-passage');
    // Elsewhere in the page, then back to the passage from the comment.
    await editor.click();
    await page.keyboard.press('Control+End');
    await thread.locator('.thread-quote').click();
    await expect.poll(() => page.evaluate(() => document.getSelection()?.toString())).toBe(quote);
    await page.close();
  });

  it('no page error in any window', () => {
    expect(errors).toEqual([]);
  });
});
