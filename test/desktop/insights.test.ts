import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePages } from '../../sync-server/src/testing/testContent';
import { type Machine, ensureRendererBuilt, launchChromium, openWindow, screenshot, startMachine } from './helpers/browser';
import { type QuireTestServer, startQuireServer } from './helpers/server';

/**
 * A space's Insights view in the desktop app, over a real server whose published site real
 * readers visited: what was read, rated, searched in vain and missed, where readers came
 * from, and a broken URL sent to the nearest page in one click.
 */

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

let s: QuireTestServer;
let m: Machine;
let browser: Browser;
let siteId: string;
let installId: string;
let root: string;
const errors: string[] = [];

async function window(theme: 'light' | 'dark' = 'light'): Promise<Page> {
  const w = await openWindow(browser, m, {
    initScript: theme === 'dark' ? () => localStorage.setItem('quire.theme', 'dark') : undefined,
  });
  w.page.on('pageerror', (e) => errors.push(e.message));
  return w.page;
}

beforeAll(async () => {
  await ensureRendererBuilt();
  s = await startQuireServer();
  const t = s.live.t;
  const spaceId = (await t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title: 'Acme guides' })).body.id as string;
  await t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title: 'Drafts' });
  [, installId] = (await writePages(s.live.db, spaceId, [
    { title: 'Welcome', markdown: 'Start here.\n' },
    { title: 'Install', markdown: 'Run the installer.\n' },
    { title: 'Configure', markdown: 'Set the options.\n' },
  ])) as [string, string, string];
  const site = await t.post(`/v1/orgs/${s.orgId}/sites`, s.token, { title: 'Acme Docs', spaces: [spaceId] });
  siteId = site.body.id;
  await t.post(`/v1/orgs/${s.orgId}/sites/${siteId}/publish`, s.token);
  root = `/s/${s.orgId}/${site.body.basename}`;

  // Readers, as the site counts them when it answers and as its script reports.
  const visit = (path: string, ua = FIREFOX, headers: Record<string, string> = {}) =>
    t.request('GET', `${root}${path}`, { headers: { 'user-agent': ua, ...headers } });
  const beacon = (page: string, events: unknown[]) =>
    t.request('POST', `${root}/~insights`, { headers: { 'user-agent': FIREFOX }, body: { page, events } });
  for (let i = 0; i < 3; i++) await visit('/install');
  await visit('/', CHROME, { referer: 'https://news.example/item?id=7' });
  await visit('/configure', CHROME);
  await visit('/setup/install');
  await visit('/setup/install', CHROME);
  await visit('/install', GPTBOT);
  await visit('/llms.txt', GPTBOT);
  await visit('/install.md', GPTBOT);
  await beacon('/install', [
    { type: 'page_post_feedback', rating: 'bad' },
    { type: 'page_post_feedback_comment', rating: 'bad', comment: 'The installer link is dead.' },
    { type: 'search_type_query', query: 'webhooks', results: 0 },
    { type: 'search_type_query', query: 'webhooks', results: 0 },
    { type: 'search_type_query', query: 'install', results: 2 },
  ]);
  await beacon('/', [{ type: 'page_post_feedback', rating: 'good' }]);
  await t.flushInsights();

  m = await startMachine();
  await m.node.session.connect(s.url, s.token);
  await m.node.catalog.refresh();
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await m?.close();
  await s?.close();
});

describe('the Insights view', { timeout: 180_000 }, () => {
  it('shows what readers of the site read, rate, miss and come from, and creates a redirect in one click', async () => {
    const page = await window();
    await page.locator('.space-row', { hasText: 'Acme guides' }).click();
    await page.getByRole('button', { name: 'Insights' }).click();
    const view = page.getByTestId('insights');
    await view.getByTestId('top-pages').waitFor({ timeout: 20_000 });
    await view.getByTestId('insights-chart').locator('canvas').waitFor();

    // People's page views, the missing pages they landed on included; the crawler's visit is counted apart.
    expect(await view.locator('.insights-stat').allInnerTexts()).toEqual([
      expect.stringMatching(/^7\s+Page views$/),
      expect.stringMatching(/^2\s+Visitors$/),
      expect.stringMatching(/^3\s+Agent and crawler requests$/),
    ]);
    const topPages = await view.getByTestId('top-pages').locator('.insights-bar').allInnerTexts();
    expect(topPages[0]).toMatch(/^\/install\s+1 visitor\s+3$/);
    expect(topPages).toHaveLength(3);

    // Worst rated first, with what the reader wrote.
    const ratings = view.getByTestId('ratings').locator('.insights-rating');
    expect(await ratings.first().innerText()).toMatch(/\/install[\s\S]*🙁 1[\s\S]*The installer link is dead\./);
    expect(await ratings.nth(1).innerText()).toMatch(/^\/\s/);

    // A search that found something is not something to write.
    expect(await view.getByTestId('empty-searches').innerText()).toMatch(/“webhooks”\s+2×/);
    expect(await view.getByTestId('empty-searches').innerText()).not.toContain('“install”');

    const readers = await view.getByTestId('readers').innerText();
    expect(readers).toMatch(/People reading pages\s+7/);
    expect(readers).toMatch(/llms\.txt \(AI agents\)\s+1/);
    expect(readers).toMatch(/Crawlers and bots\s+1/);
    expect(readers).toContain('news.example');

    const broken = view.getByTestId('broken-url');
    expect(await broken.count()).toBe(1);
    expect(await broken.innerText()).toMatch(/\/setup\/install\s+2 hits\s+→ \/install/);
    await screenshot(page, 'insights-light');
    await view.getByTestId('broken-urls').scrollIntoViewIfNeeded();
    await screenshot(page, 'insights-light-lower');

    await broken.getByRole('button', { name: 'Create redirect' }).click();
    await broken.getByText('Redirected').waitFor();
    const redirects = await s.live.t.get(`/v1/orgs/${s.orgId}/sites/${siteId}/redirects`, s.token);
    expect(redirects.body.items).toEqual([
      expect.objectContaining({ source: '/setup/install', destination: expect.objectContaining({ kind: 'site-page', pageId: installId }) }),
    ]);
    // Readers of the old URL now land on the page.
    const old = await s.live.t.request('GET', `${root}/setup/install`, { headers: { 'user-agent': FIREFOX } });
    expect([301, 302, 307, 308]).toContain(old.status);
    expect(old.headers.get('location')).toMatch(/\/install$/);

    const dark = await window('dark');
    await dark.locator('.space-row', { hasText: 'Acme guides' }).click();
    await dark.getByRole('button', { name: 'Insights' }).click();
    await dark.getByTestId('top-pages').waitFor({ timeout: 20_000 });
    await dark.getByTestId('insights-chart').locator('canvas').waitFor();
    await screenshot(dark, 'insights-dark');
    await dark.getByTestId('broken-urls').scrollIntoViewIfNeeded();
    await screenshot(dark, 'insights-dark-lower');
    expect(errors).toEqual([]);
  });

  it('says what to do when no site publishes the space', async () => {
    const page = await window();
    await page.locator('.space-row', { hasText: 'Drafts' }).click();
    await page.getByRole('button', { name: 'Insights' }).click();
    const empty = page.getByTestId('insights-empty');
    await empty.waitFor({ timeout: 20_000 });
    expect(await empty.innerText()).toContain('No site publishes this space yet. Publish a site with it');
    expect(errors).toEqual([]);

    // A space only on this machine has no readers yet: the way there is publishing it.
    const local = await m.node.catalog.createSpace({ title: 'Notebook' });
    expect(await m.node.insights.get({ spaceId: local.id, days: 30 })).toMatchObject({
      state: 'local',
      notice: expect.stringContaining('publish the space to a server, then publish a site with it'),
    });
  });
});
