import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { SignJWT } from 'jose';
import type { Browser, Locator, Page } from 'playwright-core';
import { CHROMIUM, hasChromium, launchChromium } from '../chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePages, xssDocument } from '../../sync-server/src/testing/testContent';
import { TestServer, type TestUser } from '../../sync-server/src/testing/harness';

/**
 * Published sites in a real browser (Debian's chromium through playwright-core):
 * navigation, search, theme, visibility and an XSS corpus. Screenshots go to
 * test-artifacts/sites/ for a person to look at.
 */
if (!hasChromium) console.warn(`Skipping published-site browser tests: ${CHROMIUM} is missing (apt-get install -y chromium).`);

/** Text of the first match, once it is there. */
async function textOf(l: Locator): Promise<string> {
  await l.first().waitFor({ timeout: 10_000 });
  return ((await l.first().textContent()) ?? '').trim();
}

const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts/sites');

const GUIDE = `Quire keeps your documentation next to the people who write it. Edit offline, review changes, and publish a site like this one.

## Install

Install the command line with npm:

{% code title="terminal" %}
\`\`\`bash
npm install -g @acme/cli
acme login
\`\`\`
{% endcode %}

{% hint style="info" %}
You need Node.js 20 or later.
{% endhint %}

## Configure

| Option | Default | Meaning |
| --- | --- | --- |
| \`region\` | \`eu\` | Where your data lives |
| \`retries\` | \`3\` | How often a request is retried |

- Create a project
- Invite your team
- Publish your first page

## Next steps

Read about [authentication](https://example.com/auth) and the rest of the platform.
`;

const XSS = [
  '<script>window.__xss = "script"; alert("script")</script>',
  '<img src=x onerror="window.__xss=\'img\';alert(1)">',
  '<svg onload="window.__xss=\'svg\';alert(2)"></svg>',
  '[javascript link](javascript:window.__xss="link";alert(3))',
  '[JaVaScRiPt link](  JAVASCRIPT:alert(4))',
  '![image](javascript:alert(5))',
  '<a href="javascript:alert(6)">raw anchor</a>',
  '<iframe src="javascript:alert(7)"></iframe>',
  '<details open ontoggle="alert(8)"><summary>x</summary></details>',
  '"><script>alert(9)</script>',
  "'-alert(10)-'",
  '<style>body{background:red}</style>',
  '[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxMSk8L3NjcmlwdD4=)',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(12)>',
  '{{ space.vars.x }} <body onload=alert(13)>',
].join('\n\n');

describe.skipIf(!hasChromium)('published sites in a browser', () => {
  let t: TestServer;
  let server: ServerType;
  let origin: string;
  let browser: Browser;
  let admin: TestUser;
  let orgId: string;
  let docs: { basename: string };
  let partner: { basename: string; shareKey: string };
  let portal: { id: string; basename: string; visitorAuth: { signingKey: string } };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: (req) => t.app.fetch(req), port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
    });
    origin = `http://127.0.0.1:${port}`;
    t = await TestServer.start({ publicUrl: origin });
    const org = await t.org();
    orgId = org.orgId;
    admin = org.admin;
    const space = async (title: string) => (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title })).body.id as string;
    const [v1, v2, api, xss] = [await space('Version 1'), await space('Version 2'), await space('API'), await space('Corpus')];
    await writePages(t.db, v1, [
      { title: 'Getting started', emoji: '🚀', description: 'Everything you need to ship your first docs site.', markdown: GUIDE },
      { title: 'Core concepts', type: 'group' },
      { title: 'Spaces', parentTitle: 'Core concepts', markdown: 'A space holds pages.\n\n## Pages\n\nPages nest.\n' },
      { title: 'Change requests', parentTitle: 'Core concepts', markdown: 'Propose edits and merge them.\n' },
      { title: 'Publishing', markdown: 'Publish a site in one click.\n\n## Custom domains\n\nPoint a CNAME at the server.\n' },
    ]);
    await writePages(t.db, v2, [
      {
        title: 'Getting started',
        description: 'Version two of the guide.',
        markdown: 'This is **version 2**, with the new hyperdrive.\n\n## Upgrade\n\nRun the migration.\n',
      },
      { title: 'Publishing', markdown: 'Publishing in version 2.\n' },
    ]);
    await writePages(t.db, api, [
      {
        title: 'API overview',
        markdown:
          'The REST API answers JSON.\n\n## Authentication\n\nSend `Authorization: Bearer <token>` with every request.\n\n## Rate limits\n\nSix thousand requests a minute.\n',
      },
      { title: 'Errors', markdown: 'Every error has a code and a message.\n' },
    ]);
    await writePages(t.db, xss, [
      { title: '<img src=x onerror=alert(0)> Corpus', markdown: XSS },
      { title: 'Editor corpus', document: xssDocument() as never },
    ]);

    const site = async (body: Record<string, unknown>) => (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, body)).body;
    docs = await site({ title: 'Acme Docs', spaces: [v1] });
    const base = `/v1/orgs/${orgId}/sites/${(docs as unknown as { id: string }).id}`;
    await t.post(`${base}/site-spaces`, admin.token, { spaceId: v2 });
    const ss = (await t.get(`${base}/site-spaces`, admin.token)).body.items as { id: string; space: { id: string } }[];
    await t.patch(`${base}/site-spaces/${ss.find((s) => s.space.id === v2)?.id}`, admin.token, { path: 'v2' });
    const apiSection = await t.post(`${base}/sections`, admin.token, { spaceId: api, title: 'API Reference' });
    const security = await t.post(`${base}/sections`, admin.token, { spaceId: xss, title: 'Security' });
    await t.post(`${base}/section-groups`, admin.token, { title: 'More', sections: [security.body.id] });
    const sections = (await t.get(`${base}/sections`, admin.token)).body.items as { id: string; title: string }[];
    await t.patch(`${base}/sections/${sections[0]?.id}`, admin.token, { title: 'Guides' });
    await t.put(`${base}/customization`, admin.token, {
      title: 'Acme Docs',
      favicon: { emoji: '📘' },
      styling: { ...(await t.get(`${base}/customization`, admin.token)).body.styling, primaryColor: { light: '#4f46e5', dark: '#a5b4fc' } },
      announcement: {
        enabled: true,
        message: 'Acme 2.0 is here: faster sync and a new editor.',
        style: 'info',
        link: { title: 'See what’s new', to: { kind: 'site-section', siteSection: apiSection.body.id } },
      },
      header: {
        links: [
          { title: 'Blog', to: { kind: 'url', url: 'https://example.com/blog' } },
          { title: 'Sign up', style: 'button-primary', to: { kind: 'url', url: 'https://example.com/signup' } },
        ],
      },
      footer: {
        groups: [
          {
            title: 'Product',
            links: [
              { title: 'Pricing', to: { kind: 'url', url: 'https://example.com/pricing' } },
              { title: 'Changelog', to: { kind: 'url', url: 'https://example.com/changelog' } },
            ],
          },
          { title: 'Company', links: [{ title: 'About', to: { kind: 'url', url: 'https://example.com/about' } }] },
        ],
        copyright: '© 2026 Acme Inc.',
      },
      themes: { default: 'light', toggeable: true },
    });
    await t.post(`${base}/publish`, admin.token);

    partner = await site({ title: 'Partner handbook', spaces: [v1], visibility: 'share-link' });
    await t.post(`/v1/orgs/${orgId}/sites/${(partner as unknown as { id: string }).id}/publish`, admin.token);
    portal = await site({ title: 'Customer portal', spaces: [api], visibility: 'visitor-auth' });
    await t.post(`/v1/orgs/${orgId}/sites/${portal.id}/publish`, admin.token);

    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await t?.close();
  });

  const url = (basename: string, path = '/') => `${origin}/s/${orgId}/${basename}${path}`;
  const newPage = async (width = 1440, height = 960): Promise<Page> => {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    return page;
  };

  it('navigates sections, variants and pages, searches and switches theme', async () => {
    const page = await newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(url(docs.basename));
    expect(await textOf(page.locator('h1.page-title'))).toMatch(/Getting started/);
    await page.screenshot({ path: join(ARTIFACTS, 'home-light.png'), fullPage: false });
    await page.screenshot({ path: join(ARTIFACTS, 'home-full.png'), fullPage: true });

    await page.locator('.tree a', { hasText: 'Spaces' }).click();
    await page.waitForURL(/core-concepts\/spaces$/);
    expect(await textOf(page.locator('h1.page-title'))).toBe('Spaces');
    expect(await textOf(page.locator('.tree a[aria-current=page]'))).toBe('Spaces');

    await page.locator('.tabs-row a', { hasText: 'API Reference' }).click();
    await page.waitForURL(/api-reference\/$/);
    expect(await textOf(page.locator('h1.page-title'))).toBe('API overview');
    expect((await page.locator('.outline a').allTextContents()).map((x) => x.trim())).toEqual(['Authentication', 'Rate limits']);
    await page.screenshot({ path: join(ARTIFACTS, 'api-section.png') });

    // A section group is a menu among the tabs.
    await page.locator('.tabs-row summary', { hasText: 'More' }).click();
    await page.screenshot({ path: join(ARTIFACTS, 'section-group.png') });
    await page.locator('.tabs-row .menu-items a', { hasText: 'Security' }).click();
    await page.waitForURL(/security\/$/);
    expect(await page.locator('.tabs-row details.current summary').textContent()).toBe('More');

    await page.locator('.tabs-row a', { hasText: 'Guides' }).click();
    await page.locator('.variant summary').click();
    await page.locator('.variant .menu-items a', { hasText: 'Version 2' }).click();
    await page.waitForURL(/\/v2\/$/);
    expect(await textOf(page.locator('.content'))).toContain('hyperdrive');

    // Search with the keyboard shortcut; the result names its section.
    await page.keyboard.press('Control+k');
    await page.locator('.search-dialog input').fill('authentication');
    const first = page.locator('.search-dialog .result').first();
    expect(await textOf(first)).toContain('API Reference');
    expect(await textOf(first)).toContain('Authentication');
    await page.screenshot({ path: join(ARTIFACTS, 'search.png') });
    await page.keyboard.press('Enter');
    await page.waitForURL(/api-reference\/#authentication$/);

    await page.goto(url(docs.basename));
    expect(await page.locator('html').getAttribute('data-theme')).toBe('light');
    await page.locator('[data-theme-toggle]').click();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.screenshot({ path: join(ARTIFACTS, 'home-dark.png') });
    // The choice is remembered and rendered by the server on the next page.
    await page.locator('.pager a.next').click();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(errors).toEqual([]);
  });

  it('works without JavaScript: search page and theme switch', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(url(docs.basename));
    await page.locator('.search input').fill('CNAME');
    await page.locator('.search input').press('Enter');
    await page.waitForURL(/~search\?q=CNAME/);
    expect(await textOf(page.locator('.result').first())).toContain('Publishing');
    await page.screenshot({ path: join(ARTIFACTS, 'search-no-js.png') });
    await page.goto(url(docs.basename));
    await page.locator('[data-theme-toggle]').click();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await context.close();
  });

  it('shows a phone layout', async () => {
    const page = await newPage(390, 844);
    await page.goto(url(docs.basename, '/publishing'));
    expect(await textOf(page.locator('h1.page-title'))).toBe('Publishing');
    await page.screenshot({ path: join(ARTIFACTS, 'phone.png') });
    // The header links, hidden in the narrow header, are in the menu with the page tree.
    await page.locator('.menu-toggle summary').click();
    await page.locator('.sidebar-links a', { hasText: 'Sign up' }).waitFor({ state: 'visible' });
    await page.screenshot({ path: join(ARTIFACTS, 'phone-menu.png') });
  });

  it('answers an unknown page with the site 404 page', async () => {
    const page = await newPage();
    const res = await page.goto(url(docs.basename, '/no/such/page'));
    expect(res?.status()).toBe(404);
    expect(await textOf(page.locator('main'))).toContain('Page not found');
    await expect(page.locator('.tabs-row a', { hasText: 'API Reference' }).count()).resolves.toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'not-found.png') });
  });

  it('refuses a share-link site without the key and opens it with the key', async () => {
    const page = await newPage();
    const refused = await page.goto(url(partner.basename));
    expect(refused?.status()).toBe(404);
    expect(await textOf(page.locator('body'))).not.toContain('Getting started');
    const opened = await page.goto(url(partner.basename, `/?shareKey=${partner.shareKey}`));
    expect(opened?.status()).toBe(200);
    expect(page.url()).toBe(url(partner.basename, '/'));
    expect(await textOf(page.locator('h1.page-title'))).toMatch(/Getting started/);
    await page.locator('.tree a', { hasText: 'Publishing' }).click();
    expect(await textOf(page.locator('h1.page-title'))).toBe('Publishing');
  });

  it('refuses a visitor-auth site without a token and opens it with one', async () => {
    const page = await newPage();
    const refused = await page.goto(url(portal.basename));
    expect(refused?.status()).toBe(401);
    expect(await textOf(page.locator('body'))).not.toContain('REST API');
    const jwt = await new SignJWT({ plan: 'pro' })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(portal.id)
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(portal.visitorAuth.signingKey));
    const opened = await page.goto(url(portal.basename, `/?jwt_token=${jwt}`));
    expect(opened?.status()).toBe(200);
    expect(page.url()).toBe(url(portal.basename, '/'));
    expect(await textOf(page.locator('.content'))).toContain('The REST API answers JSON.');
    await page.locator('.tree a', { hasText: 'Errors' }).click();
    expect(await textOf(page.locator('h1.page-title'))).toBe('Errors');
  });

  it('never runs script from an XSS corpus in page content', async () => {
    const page = await newPage();
    const dialogs: string[] = [];
    const violations: string[] = [];
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    page.on('console', (m) => /Content Security Policy/i.test(m.text()) && violations.push(m.text()));
    await page.goto(url(docs.basename, '/security/'));
    expect(await textOf(page.locator('h1.page-title'))).toContain('<img src=x onerror=alert(0)> Corpus');
    for (const link of await page.locator('.content a').all()) {
      const href = (await link.getAttribute('href')) ?? '';
      expect(href).not.toMatch(/^\s*(javascript|data|vbscript):/i);
    }
    // Clicking every link and toggling every details element runs nothing either.
    for (const d of await page.locator('.content details').all()) await d.evaluate((el) => el.toggleAttribute('open'));
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(violations).toEqual([]);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(255, 0, 0)');
    await page.screenshot({ path: join(ARTIFACTS, 'xss-corpus.png') });
    await page.goto(url(docs.basename, '/security/editor-corpus'));
    expect(await textOf(page.locator('h1.page-title'))).toBe('Editor corpus');
    for (const el of await page.locator('.content a, .content img').all()) {
      const target = (await el.getAttribute('href')) ?? (await el.getAttribute('src')) ?? '';
      expect(target).not.toMatch(/^\s*(javascript|data|vbscript):/i);
      await el.hover().catch(() => {});
    }
    await page.locator('.content .hint').hover();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(violations).toEqual([]);
  });
});
