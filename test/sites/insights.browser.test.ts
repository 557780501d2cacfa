import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestServer } from '../../sync-server/src/testing/harness';
import { waitFor } from '../../sync-server/src/testing/syncClients';
import { writePages } from '../../sync-server/src/testing/testContent';

/**
 * "Was this page helpful?" and the insights script in a real browser (Debian's chromium
 * through playwright-core): in place with script, as a plain form without, searches,
 * results opened and links followed reported, no CSP violation, nothing stored in the
 * browser.
 */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`Skipping the insights browser tests: ${CHROMIUM} is missing (apt-get install -y chromium).`);

describe.skipIf(!hasChromium)('site insights in a browser', () => {
  let t: TestServer;
  let server: ServerType;
  let origin: string;
  let browser: Browser;
  let root: string;
  let siteId: string;

  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: (req) => t.app.fetch(req), port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
    });
    origin = `http://127.0.0.1:${port}`;
    t = await TestServer.start({ publicUrl: origin });
    const { orgId, admin } = await t.org();
    const space = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Guide' })).body.id;
    await writePages(t.db, space, [
      { title: 'Welcome', markdown: 'Welcome to the zeppelin guide.\n\nOur code lives on [the forge](https://forge.example/acme).\n' },
      { title: 'Install', markdown: 'Install the zeppelin with the installer.\n' },
    ]);
    const site = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Zeppelin Docs', spaces: [space] })).body;
    siteId = site.id;
    await t.post(`/v1/orgs/${orgId}/sites/${siteId}/publish`, admin.token);
    root = `/s/${orgId}/${site.basename}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await t?.close();
  });

  beforeEach(async () => {
    await t.flushInsights();
    await t.db.query('DELETE FROM insights_events');
  });

  /** The events stored once `count` of them are there. */
  async function stored(count: number): Promise<Record<string, any>[]> {
    let rows: Record<string, any>[] = [];
    await waitFor(
      async () => {
        await t.flushInsights();
        rows = await t.db.query('SELECT * FROM insights_events WHERE site_id = $1 ORDER BY id', [siteId]);
        return rows.length >= count;
      },
      `${count} events`,
      15_000,
    );
    return rows;
  }

  /** A fresh browser context whose CSP violations and script errors are noted. */
  async function open(opts: { javaScriptEnabled?: boolean } = {}) {
    const context: BrowserContext = await browser.newContext({ javaScriptEnabled: opts.javaScriptEnabled ?? true });
    // Links to other sites answer here instead of going out to the network.
    await context.route('https://forge.example/**', (r) => r.fulfill({ body: 'forge', contentType: 'text/plain' }));
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => (m.type() === 'error' || /Content Security Policy/i.test(m.text())) && problems.push(m.text()));
    return { context, page, problems };
  }

  it('rates a page in place and adds a comment, with no cookie or storage left behind', async () => {
    const { context, page, problems } = await open();
    await page.goto(`${origin}${root}/install`);
    await page.locator('form.feedback.enhanced').waitFor();
    expect(await page.locator('.feedback-comment').isVisible()).toBe(false);
    await page.locator('form.feedback button[value=good]').click();
    await page.locator('.feedback-comment textarea').fill('Clear and short.');
    await page.locator('.feedback-send').click();
    await page.locator('.feedback-thanks').waitFor({ state: 'visible' });
    expect(page.url()).toBe(`${origin}${root}/install`);
    const rows = await stored(3);
    expect(rows.map((r) => [r.type, r.url_path, r.feedback_rating, r.feedback_comment]).sort()).toEqual([
      ['page_post_feedback', `${root}/install`, 'good', null],
      ['page_post_feedback_comment', `${root}/install`, 'good', 'Clear and short.'],
      ['page_view', `${root}/install`, null, null],
    ]);
    expect(await context.cookies()).toEqual([]);
    expect(await page.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('reports a search typed, the result opened and a link followed', async () => {
    const { context, page, problems } = await open();
    await page.goto(`${origin}${root}/`);
    await page.locator('.site-header .search input').click();
    await page.locator('.search-dialog input').fill('installer');
    await page.locator('.search-dialog a.result').first().waitFor();
    await page.locator('.search-dialog a.result').first().click();
    await page.waitForURL(/\/install$/);
    await page.goto(`${origin}${root}/`);
    await page.locator('.content a', { hasText: 'the forge' }).click();
    await page.waitForURL('https://forge.example/acme');
    // Beacons and the next page's view race each other: compared without their order.
    const rows = await stored(6);
    expect(rows.map((r) => r.type).sort()).toEqual([
      'link_click',
      'page_view',
      'page_view',
      'page_view',
      'search_open_result',
      'search_type_query',
    ]);
    const of = (type: string) => rows.find((r) => r.type === type);
    const installView = rows.find((r) => r.type === 'page_view' && r.url_path === `${root}/install`);
    expect(of('search_type_query')).toMatchObject({ search_query: 'installer', search_results: 1 });
    expect(of('search_open_result')).toMatchObject({ search_query: 'installer', data: { result: { pageId: installView?.page_id } } });
    expect(of('link_click')).toMatchObject({ link_kind: 'url', link_domain: 'forge.example', link_position: 'content' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('takes a rating and a comment without script, and thanks the reader on the page', async () => {
    const { context, page } = await open({ javaScriptEnabled: false });
    await page.goto(`${origin}${root}/install`);
    expect(await page.locator('.feedback-thanks').isVisible()).toBe(false);
    await page.locator('.feedback-comment textarea').fill('Which version?');
    await page.locator('form.feedback button[value=bad]').click();
    await page.waitForURL(/#feedback-thanks$/);
    expect(await page.locator('.feedback-thanks').isVisible()).toBe(true);
    const rows = await stored(4);
    expect(rows.map((r) => [r.type, r.feedback_rating, r.feedback_comment])).toEqual([
      ['page_view', null, null],
      ['page_post_feedback', 'bad', null],
      ['page_post_feedback_comment', 'bad', 'Which version?'],
      ['page_view', null, null],
    ]);
    await context.close();
  });
});
