import { getPageDocument } from '@quire/shared/content/body';
import type { NodeJSON } from '@quire/shared/content/json';
import { createPage } from '@quire/shared/content/pages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Machine, openWindow, screenshot, select, startLocalNotebook } from './helpers/browser';

/**
 * Links as writers use them: page suggestions forgive a typo, Ctrl+click follows a link,
 * `[[` links a page from the keyboard, each page lists the pages linking to it (live),
 * and the outline marks the heading being read.
 */

let m: Machine;
let browser: Browser;
let spaceId: string;
const ids: Record<string, string> = {};
const filler = Array.from({ length: 30 }, (_, i) => `Filler paragraph number ${i}.`).join('\n\n');

/** Every link in a body, with the text it is on. */
function links(node: NodeJSON, out: { text: string; href: string }[] = []) {
  for (const mark of node.marks ?? []) if (mark.type === 'link') out.push({ text: node.text ?? '', href: String(mark.attrs?.href) });
  node.content?.forEach((child) => links(child, out));
  return out;
}

const bodyLinks = (pageId: string) => m.node.branches.with({ spaceId }, (b) => links(getPageDocument(b.doc, pageId)));
const settle = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
const title = (page: Page) => page.locator('.page-title').inputValue();

async function open(pageTitle: string): Promise<{ page: Page; errors: string[] }> {
  const w = await openWindow(browser, m);
  await w.page.locator('.space-row', { hasText: 'Notebook' }).first().click();
  await w.page.locator('.tree-row', { hasText: pageTitle }).first().click();
  await expect.poll(() => title(w.page)).toBe(pageTitle);
  await w.page.locator('.ProseMirror[contenteditable="true"]').waitFor();
  return w;
}

beforeAll(async () => {
  ({ m, spaceId, browser } = await startLocalNotebook());
  await m.node.branches.with({ spaceId }, async (branch) => {
    const doc = branch.doc;
    ids.auth = createPage(doc, {
      title: 'Authentication',
      markdown: `Intro.\n\n${filler}\n\n## Signing in\n\nWith a password.\n\n${filler}\n`,
    });
    ids.oauth = createPage(doc, { title: 'OAuth apps', markdown: 'Apps.\n' });
    ids.quick = createPage(doc, { title: 'Quickstart', markdown: 'Start here.\n' });
    ids.writing = createPage(doc, {
      title: 'Writing',
      markdown: `Read [the sign in guide](page:${ids.auth}#signing-in) or [the web](https://example.com/docs) first.\n\nLinks:\n`,
    });
    await branch.saved();
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await m?.close();
});

describe('links in the desktop editor', { timeout: 90_000 }, () => {
  it('suggests pages despite a typo or a skipped letter, exact and prefix matches first, in the link control and the switcher', async () => {
    const { page, errors } = await open('Writing');
    await select(page, 'p:nth-child(2)', 'Links', 5);
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Link' });
    const options = dialog.getByRole('listbox', { name: 'Pages' }).getByRole('option');
    await page.keyboard.type('authentcation');
    await expect.poll(() => options.first().textContent()).toBe('Authenticationauthentication');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('atuh');
    await expect.poll(() => options.first().textContent()).toBe('Authenticationauthentication');
    await page.keyboard.press('Control+a');
    // Titles holding the word as typed come first: the prefix, then within a title.
    await page.keyboard.type('auth');
    await expect
      .poll(async () => (await options.allTextContents()).slice(0, 2))
      .toEqual(['Authenticationauthentication', 'OAuth appsoauth-apps']);
    await page.keyboard.press('Escape');

    await page.keyboard.press('Control+k');
    const switcher = page.getByRole('dialog', { name: 'Go to page' });
    await page.keyboard.type('quikstart');
    await expect.poll(() => switcher.getByRole('option').first().textContent()).toContain('Quickstart');
    await page.keyboard.press('Enter');
    await expect.poll(() => title(page)).toBe('Quickstart');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Ctrl+click follows a link (a page to its heading, a web address in a new tab); a plain click places the caret', async () => {
    const { page, errors } = await open('Writing');
    const pageLink = page.locator('.ProseMirror a', { hasText: 'the sign in guide' });
    expect(await pageLink.getAttribute('title')).toBe('Ctrl+click to follow');
    await pageLink.click();
    await settle(page);
    expect(await title(page)).toBe('Writing');
    expect(await page.evaluate(() => document.getSelection()?.anchorNode?.parentElement?.closest('a')?.textContent)).toBe(
      'the sign in guide',
    );

    // The machine has no internet: the tab is answered here.
    await page
      .context()
      .route('https://example.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Docs</title>' }));
    const popup = page.context().waitForEvent('page');
    await page.locator('.ProseMirror a', { hasText: 'the web' }).click({ modifiers: ['Control'] });
    const tab = await popup;
    await expect.poll(() => tab.url()).toBe('https://example.com/docs');
    await tab.close();
    expect(await title(page)).toBe('Writing');

    await pageLink.click({ modifiers: ['Control'] });
    await expect.poll(() => title(page)).toBe('Authentication');
    await expect
      .poll(async () => {
        const h = await page.locator('.ProseMirror h2', { hasText: 'Signing in' }).boundingBox();
        return h && h.y > 0 && h.y < 250 ? 'near the top' : h?.y;
      })
      .toBe('near the top');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('[[ suggests pages at the caret, links the one picked by its title, and Escape leaves the typed text', async () => {
    const { page, errors } = await open('Writing');
    await page.locator('.ProseMirror p', { hasText: 'Links:' }).click();
    await page.keyboard.press('End');
    await settle(page);
    await page.keyboard.type(' [[quick');
    const list = page.getByRole('listbox', { name: 'Link to a page' });
    await expect.poll(() => list.getByRole('option').allTextContents()).toEqual(['Quickstartquickstart']);
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await expect.poll(() => list.getByRole('option').count()).toBeGreaterThan(2);
    await screenshot(page, 'links-page-suggestions');
    await page.keyboard.type('quick');
    await page.keyboard.press('Enter');
    await expect.poll(() => list.count()).toBe(0);
    await page.keyboard.type(' and [[nothing');
    await expect.poll(() => list.getByRole('option').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => list.count()).toBe(0);
    await expect.poll(() => page.locator('.ProseMirror p', { hasText: 'Links:' }).textContent()).toBe('Links: Quickstart and [[nothing');
    await expect.poll(() => bodyLinks(ids.writing!)).toContainEqual({ text: 'Quickstart', href: `page:${ids.quick}` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a page lists the pages linking to it, follows them, and updates when another page links to it', async () => {
    const { page, errors } = await open('Authentication');
    const backlinks = page.getByRole('region', { name: 'Linked from' });
    const sources = () => backlinks.locator('.backlink-title').allTextContents();
    await expect.poll(sources).toEqual(['Writing']);
    // Another writer (here: the machine itself, as a sync would) links to it from a new page.
    await m.node.branches.with({ spaceId }, async (branch) => {
      ids.faq = createPage(branch.doc, { title: 'FAQ', markdown: `See [how to sign in](page:${ids.auth}).\n` });
      await branch.saved();
    });
    await expect.poll(sources).toEqual(['Writing', 'FAQ']);
    await backlinks.scrollIntoViewIfNeeded();
    await screenshot(page, 'links-backlinks');
    await backlinks.getByRole('button', { name: /^FAQ/ }).click();
    await expect.poll(() => title(page)).toBe('FAQ');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the outline marks the heading being read as the page scrolls', async () => {
    await m.node.branches.with({ spaceId }, async (branch) => {
      createPage(branch.doc, {
        title: 'Long read',
        markdown: `Top.\n\n## First\n\n${filler}\n\n## Second\n\n${filler}\n\n## Third\n\n${filler}\n`,
      });
      await branch.saved();
    });
    const { page, errors } = await open('Long read');
    const current = () => page.getByRole('navigation', { name: 'Outline' }).locator('[aria-current="location"]').allTextContents();
    await expect.poll(current).toEqual([]);
    await page.locator('.ProseMirror h2', { hasText: 'Second' }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
    await expect.poll(current).toEqual(['Second']);
    await page.locator('.ProseMirror h2', { hasText: 'First' }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
    await page.locator('.page-scroll').evaluate((el) => el.scrollBy(0, 200));
    await expect.poll(current).toEqual(['First']);
    await page.locator('.page-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(current).toEqual(['Third']);
    expect(errors).toEqual([]);
    await page.close();
  });
});
