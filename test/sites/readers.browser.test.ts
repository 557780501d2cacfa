import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IconSite, startIconSite } from '../../sync-server/src/testing/iconSite';
import { hasChromium, launchChromium } from '../chromium';

/**
 * A page with GitBook icons, and a page with its own layout, as Chromium shows them at
 * desktop and phone widths, light and dark. Screenshots go to test-artifacts/sites/.
 */
const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts/sites');

describe.skipIf(!hasChromium)('what readers see, in a browser', () => {
  let site: IconSite;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    site = await startIconSite();
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  async function open(path: string, width: number, height: number, theme: 'light' | 'dark' = 'light'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height }, colorScheme: theme });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    // The theme switch without script: a cookie the server reads.
    if (theme === 'dark') await page.goto(`${site.origin}${site.root}/?theme=dark`);
    const res = await page.goto(`${site.origin}${site.root}${path}`);
    expect(res?.status()).toBe(200);
    expect(violations).toEqual([]);
    return page;
  }

  it('draws icons a line high beside their words, at desktop and phone widths, light and dark', async () => {
    for (const [name, width, height] of [
      ['desktop', 1280, 900],
      ['phone', 390, 844],
    ] as const) {
      for (const theme of ['light', 'dark'] as const) {
        const page = await open('/icons', width, height, theme);
        expect(await page.locator('html').getAttribute('data-theme')).toBe(theme);
        const icons = page.locator('article.content svg.fa-icon');
        expect(await icons.count()).toBe(9);
        for (const box of await icons.evaluateAll((all) => all.map((e) => e.getBoundingClientRect().toJSON()))) {
          expect(box.height).toBeGreaterThan(10);
          expect(box.height).toBeLessThan(40);
        }
        // Icons take the text's colour, so they follow the theme.
        const [fill, color] = await icons
          .first()
          .evaluate((e) => [getComputedStyle(e).fill, getComputedStyle(e.parentElement as Element).color]);
        expect(fill).toBe(color);
        expect(await page.locator('article.content').innerText()).not.toMatch(
          /hand-pointer|:globe:|:rocket:|:gear:|:github:|:house:|not-real|unknown/,
        );
        await page.screenshot({ path: join(ARTIFACTS, `icons-${name}-${theme}.png`), fullPage: name === 'desktop' });
        await page.context().close();
      }
    }
  });

  it('keeps an email address in a table cell whole, and the search dialog has one close button', async () => {
    const page = await open('/landing', 1280, 900);
    const lines = await page.locator('article.content td a[href^="mailto:"]').evaluate((a) => a.getClientRects().length);
    expect(lines).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'landing-desktop.png'), fullPage: true });
    await page.keyboard.press('Control+k');
    const input = page.locator('.search-panel input');
    await input.fill('topic');
    // The native clear control of a search field would be a second ×.
    // (Chromium does not compute styles of that control, so the parsed rule is checked.)
    const hidden = await page.evaluate(() =>
      [...document.styleSheets]
        .flatMap((sheet) => [...sheet.cssRules])
        .some(
          (r) =>
            r instanceof CSSStyleRule &&
            /\.search-panel input::-webkit-search-cancel-button/.test(r.selectorText) &&
            r.style.display === 'none',
        ),
    );
    expect(hidden).toBe(true);
    await page.locator('.search-panel .result').first().waitFor();
    expect(await page.locator('.search-panel button').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'search-dialog.png') });
    await page.context().close();
  });
});
