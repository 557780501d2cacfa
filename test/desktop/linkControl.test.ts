import { getPageDocument } from '@quire/shared/content/body';
import type { NodeJSON } from '@quire/shared/content/json';
import { createPage } from '@quire/shared/content/pages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Machine, openWindow, screenshot, select, startLocalNotebook } from './helpers/browser';

/**
 * The toolbar's link control suggests pages as the writer types and then the picked page's
 * headings, and refuses text that is neither a page nor an address rather than saving a
 * link that leads nowhere.
 */

let m: Machine;
let browser: Browser;
let spaceId: string;
const errors: string[] = [];

/** Every link target in a body, with the text it is on. */
function links(node: NodeJSON, out: { text: string; href: string }[] = []) {
  for (const mark of node.marks ?? []) if (mark.type === 'link') out.push({ text: node.text ?? '', href: String(mark.attrs?.href) });
  node.content?.forEach((child) => links(child, out));
  return out;
}

beforeAll(async () => {
  ({ m, spaceId, browser } = await startLocalNotebook());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await m?.close();
});

describe('desktop link control', () => {
  it('suggests pages and their headings, and refuses a page that does not exist', async () => {
    const { authId, writingId } = await m.node.branches.with({ spaceId }, async (branch) => {
      const authId = createPage(branch.doc, {
        title: 'Authentication',
        markdown: '## API tokens\n\nKeys.\n\n## Signing in\n\nWith a password.\n',
      });
      createPage(branch.doc, { title: 'Quickstart', markdown: 'Start here.\n' });
      const guides = createPage(branch.doc, { title: 'Guides', markdown: '' });
      createPage(branch.doc, { title: 'Tokens', slug: 'auth-tokens', parent: guides, markdown: 'About tokens.\n' });
      const writingId = createPage(branch.doc, { title: 'Writing', markdown: 'Read the sign in guide first. Nope here.\n' });
      await branch.saved();
      return { authId, writingId };
    });
    const w = await openWindow(browser, m);
    const page: Page = w.page;
    page.on('pageerror', (e) => errors.push(e.message));
    await page.locator('.space-row', { hasText: 'Notebook' }).first().click();
    await page.locator('.tree-row', { hasText: 'Writing' }).click();
    await page.locator('.ProseMirror[contenteditable="true"]').waitFor();
    const bodyLinks = () => m.node.branches.with({ spaceId }, (b) => links(getPageDocument(b.doc, writingId)));

    await select(page, 'p', 'sign in guide', 13);
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Link' });
    await page.keyboard.type('auth');
    const pages = dialog.getByRole('listbox', { name: 'Pages' }).getByRole('option');
    // Title first, then a page found by its path.
    await expect.poll(() => pages.allTextContents()).toEqual(['Authenticationauthentication', 'Tokensguides/auth-tokens']);
    await screenshot(page, 'link-control-pages');
    await page.keyboard.press('Enter');
    const headings = dialog.getByRole('listbox', { name: 'Headings of Authentication' }).getByRole('option');
    await expect.poll(() => headings.allTextContents()).toEqual(['Top of the page', 'API tokens#api-tokens', 'Signing in#signing-in']);
    await screenshot(page, 'link-control-headings');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(bodyLinks).toEqual([{ text: 'sign in guide', href: `page:${authId}#signing-in` }]);

    await select(page, 'p', 'Nope', 4);
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    await page.keyboard.type('Nope');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('No page named “Nope” — add https:// for a web address.');
    await screenshot(page, 'link-control-no-page');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await page.waitForTimeout(300);
    expect(await bodyLinks()).toEqual([{ text: 'sign in guide', href: `page:${authId}#signing-in` }]);
    expect(errors).toEqual([]);
  }, 90_000);
});
