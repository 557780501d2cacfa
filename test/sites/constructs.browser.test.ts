import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import type { NodeJSON } from '@quire/shared/content/json';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../chromium';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processSpec } from '../../sync-server/src/core/openapi/process';
import { type PublishedPage, revisionContentSource, type SpaceSnapshot } from '../../sync-server/src/sites/contentSource';
import { setContentSource } from '../../sync-server/src/sites/context';
import { writePages } from '../../sync-server/src/testing/testContent';
import { linkSpaceFile, putBlob } from '../../sync-server/src/store/files';
import { insertSpec } from '../../sync-server/src/store/openapiSpecs';
import { TestServer } from '../../sync-server/src/testing/harness';

/**
 * What readers of imported documentation see, in Chromium at desktop and phone widths:
 * a page with every construct of real repositories (HTML blocks, block tags, math,
 * diagrams, cards, files, images), a deep page tree, and API reference pages. Bodies come
 * from a content source standing in for the space (the content model's JSON, as an
 * import writes it). Screenshots go to test-artifacts/sites/.
 */
const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts/sites');

const t_ = (text: string, marks?: unknown[]) => ({ type: 'text', text, ...(marks ? { marks } : {}) });
const p = (...content: unknown[]) => ({ type: 'paragraph', content }) as NodeJSON;
const h = (level: number, text: string, id?: string) =>
  ({ type: 'heading', attrs: { level, id: id ?? null }, content: [t_(text)] }) as NodeJSON;
const LONG_URL = `https://example.com/${'very-long-path-segment-'.repeat(8)}end`;

function constructs(targetId: string): NodeJSON {
  return <NodeJSON>{
    type: 'doc',
    content: [
      p(t_('Everything a documentation repository writes by hand.')),
      h(1, 'Cards and HTML', 'cards'),
      {
        type: 'htmlBlock',
        attrs: {
          html: '<table data-view="cards"><thead><tr><th></th><th></th></tr></thead><tbody><tr><td><strong>Quickstart</strong></td><td>Ship in five minutes</td></tr><tr><td><strong>Guides</strong></td><td>Every feature</td></tr><tr><td><strong>API</strong></td><td>Endpoints</td></tr></tbody></table>',
        },
      },
      {
        type: 'htmlBlock',
        attrs: {
          html: '<div align="center"><figure><img src="https://example.com/logo.png" alt="Logo"><figcaption>Our logo</figcaption></figure></div><p align="center"><a class="button primary" href="https://example.com/start">Get started</a> <button>Click</button> <mark>new</mark> <i class="fa-solid fa-rocket"></i></p><h3 align="center">Centered heading</h3>',
        },
      },
      p(
        t_('Inline '),
        { type: 'htmlInline', attrs: { html: '<mark>highlight</mark>' } },
        t_(' and a long link '),
        t_(LONG_URL, [{ type: 'link', attrs: { href: LONG_URL } }]),
      ),
      h(2, 'Sub heading'),
      h(3, 'Third level'),
      {
        type: 'columns',
        content: [
          { type: 'column', attrs: { width: 50 }, content: [p(t_('Left column'))] },
          { type: 'column', attrs: { width: 50 }, content: [p(t_('Right column'))] },
        ],
      },
      {
        type: 'updates',
        content: [{ type: 'update', attrs: { date: '2024-05-01', title: 'May release' }, content: [p(t_('Faster sync.'))] }],
      },
      { type: 'math', attrs: { tex: 'E = mc^2' } },
      p(t_('Inline math '), { type: 'mathInline', attrs: { tex: '\\alpha + \\beta' } }),
      { type: 'codeBlock', attrs: { language: 'mermaid' }, content: [t_('graph TD\n  A[Checkout] --> B[Payment]')] },
      { type: 'codeBlock', attrs: { language: 'mermaid' }, content: [t_('pie title Pets\n  "Dogs" : 386\n  "Cats" : 85')] },
      {
        type: 'codeBlock',
        attrs: { language: 'js', title: 'app.js', lineNumbers: true },
        content: [t_('const answer = 42;\nconsole.log(answer);')],
      },
      { type: 'hint', attrs: { style: 'warning' }, content: [p(t_('Mind the gap.'))] },
      { type: 'contentRef', attrs: { href: `page:${targetId}`, title: 'inline.md' } },
      { type: 'embed', attrs: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', caption: 'Intro video' } },
      { type: 'file', attrs: { fileId: 'FileReport', caption: null } },
      { type: 'image', attrs: { src: 'file:FileHero', alt: 'Hero', caption: 'A wide image' } },
      { type: 'image', attrs: { src: 'file:FileAnim', alt: 'Animation' } },
      { type: 'image', attrs: { src: 'file:FileChart', alt: 'Chart' } },
      { type: 'openapiOperation', attrs: { spec: 'shop', path: '/orders/{orderId}', method: 'post', src: null } },
      { type: 'mysteryBlock', content: [p(t_('Unknown block content'))] },
      {
        type: 'htmlBlock',
        attrs: {
          html: '<script>window.__xss=1</script><img src=x onerror="window.__xss=2"><a href="javascript:window.__xss=3">bad</a><style>body{display:none}</style>',
        },
      },
    ],
  };
}

/** A spec of 20 operations whose order is neither alphabetical nor by method. */
function shopSpec() {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = ['Orders', 'Customers', 'Billing'];
  for (let i = 0; i < 20; i++) {
    const path = i === 0 ? '/orders/{orderId}' : `/${['zeta', 'alpha', 'mid', 'beta'][i % 4]}/${20 - i}`;
    paths[path] = {
      [i % 3 === 0 ? 'post' : 'get']: {
        operationId: `op${String(20 - i).padStart(2, '0')}`,
        summary: `Operation ${String.fromCharCode(90 - i)}`,
        tags: [tags[i % 3]],
        parameters: i === 0 ? [{ name: 'orderId', in: 'path', required: true, schema: { type: 'string' } }] : [],
        responses: {
          '200': {
            description: 'OK',
            headers: { 'X-Rate-Limit': { description: 'Requests left', schema: { type: 'integer' } } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } },
          },
        },
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Shop API', version: '2.1.0', description: 'Sell things.' },
    servers: [{ url: 'https://api.shop.example/v2' }],
    tags: tags.map((name) => ({ name, description: `${name} endpoints` })),
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A token from the dashboard' } },
      schemas: {
        // Field order is the author's: not alphabetical.
        Order: {
          type: 'object',
          required: ['zid'],
          properties: { zid: { type: 'string' }, customer: { $ref: '#/components/schemas/Customer' }, amount: { type: 'number' } },
        },
        Customer: {
          type: 'object',
          properties: { name: { type: 'string' }, orders: { type: 'array', items: { $ref: '#/components/schemas/Order' } } },
        },
      },
    },
  };
}

describe.skipIf(!hasChromium)('real documentation constructs in a browser', () => {
  let t: TestServer;
  let server: ServerType;
  let browser: Browser;
  let base: string;
  let spec: ReturnType<typeof shopSpec>;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: (req) => t.app.fetch(req), port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
    });
    const origin = `http://127.0.0.1:${port}`;
    t = await TestServer.start({ publicUrl: origin });
    const { orgId, admin } = await t.org();
    const spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Docs' })).body.id as string;
    await writePages(t.db, spaceId, [{ title: 'Placeholder', markdown: 'x' }]);
    const hero = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#4f46e5' } })
      .png()
      .toBuffer();
    await linkSpaceFile(t.db, spaceId, 'FileHero', await putBlob(t.db, new Uint8Array(hero), 'image/png'));
    const frame = (color: string) =>
      sharp({ create: { width: 1000, height: 500, channels: 3, background: color } })
        .png()
        .toBuffer();
    const anim = await sharp([await frame('#dc2626'), await frame('#2563eb')], { join: { animated: true } })
      .gif()
      .toBuffer();
    await linkSpaceFile(t.db, spaceId, 'FileAnim', await putBlob(t.db, new Uint8Array(anim), 'image/gif'));
    const chart = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150"><rect width="300" height="150" fill="#16a34a"/></svg>',
    );
    await linkSpaceFile(t.db, spaceId, 'FileChart', await putBlob(t.db, new Uint8Array(chart), 'image/svg+xml'));
    await linkSpaceFile(t.db, spaceId, 'FileReport', await putBlob(t.db, new Uint8Array(Buffer.alloc(2048 * 3)), 'application/pdf'));

    spec = shopSpec();
    for (const [slug, text] of [
      ['shop', JSON.stringify(spec)],
      ['broken', 'openapi: 3.0.0\ninfo: [unclosed'],
    ]) {
      const row = await insertSpec(t.db, orgId, slug as string, { text });
      await processSpec(t.deps, row?.id as string);
    }

    const page = (id: string, title: string, extra: Partial<PublishedPage> = {}): PublishedPage => ({
      id,
      title,
      emoji: null,
      icon: null,
      description: '',
      type: 'document',
      href: null,
      hidden: false,
      noIndex: false,
      path: extra.path ?? title.toLowerCase().replace(/\W+/g, '-'),
      children: [],
      ...extra,
    });
    const deep = (n: number, prefix: string): PublishedPage[] =>
      Array.from({ length: n }, (_, i) =>
        page(`${prefix}${i}`, `${prefix} topic ${i}`, {
          path: `${prefix}/t${i}`,
          children: [page(`${prefix}${i}c`, `${prefix} detail ${i}`, { path: `${prefix}/t${i}/d` })],
        }),
      );
    const pages: PublishedPage[] = [
      page('constructs', 'Every construct', { description: 'HTML, block tags, media.' }),
      page('target', 'Target page', { description: 'Where the card leads.', path: 'target' }),
      page('api', 'API reference', { openapiSpec: 'shop', path: 'api' }),
      page('broken', 'Broken API', { openapiSpec: 'broken', path: 'broken' }),
      page('guides', 'Guides', { children: deep(12, 'guides') }),
      page('more', 'More', { children: deep(12, 'more') }),
    ];
    const bodies: Record<string, NodeJSON> = { constructs: constructs('target') };
    setContentSource({
      async snapshot(_db, revisionId): Promise<SpaceSnapshot> {
        return {
          revisionId,
          pages,
          files: {
            FileHero: { id: 'FileHero', name: 'hero.png', contentType: 'image/png', size: hero.length },
            FileAnim: { id: 'FileAnim', name: 'anim.gif', contentType: 'image/gif', size: anim.length },
            FileChart: { id: 'FileChart', name: 'chart.svg', contentType: 'image/svg+xml', size: chart.length },
            FileReport: { id: 'FileReport', name: 'report.pdf', contentType: 'application/pdf', size: 6144 },
          },
          body: async (id) =>
            bodies[id] ?? ({ type: 'doc', content: [p(t_(`Body of ${id}.`)), h(1, 'Overview'), p(t_('Text.'))] } as NodeJSON),
        };
      },
    });
    const site = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Acme Docs', spaces: [spaceId] })).body as {
      id: string;
      basename: string;
    };
    await t.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`, admin.token);
    base = `${origin}/s/${orgId}/${site.basename}`;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    setContentSource(revisionContentSource);
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await t?.close();
  });

  const open = async (path: string, width: number, height: number, js = true): Promise<Page> => {
    const page = await (await browser.newContext({ viewport: { width, height }, javaScriptEnabled: js })).newPage();
    const res = await page.goto(`${base}${path}`);
    expect(res?.status()).toBe(200);
    return page;
  };

  /** The page title is in the first screen and nothing scrolls sideways. */
  const readable = async (page: Page, width: number, height: number) => {
    const box = await page.locator('h1.page-title').boundingBox();
    expect(box && box.y + box.height).toBeLessThan(height);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  };

  it('renders every construct of a real repository at desktop width', async () => {
    const page = await open('/', 1280, 900);
    await readable(page, 1280, 900);
    const text = await page.locator('article.content').innerText();
    expect(text).not.toMatch(/<\/?(table|div|figure|mark|button|a |i )|\{%|\$\$/);
    expect(await page.locator('table.cards tbody tr').count()).toBe(3);
    expect(await page.locator('table.cards').evaluate((e) => getComputedStyle(e.querySelector('tbody') as Element).display)).toBe('grid');
    expect(await page.locator('a.html-button.primary').getAttribute('href')).toBe('https://example.com/start');
    expect(await page.locator('.content mark').count()).toBe(2);
    // Icons are inline SVG, a line's height, with no font or stylesheet to load.
    const icon = await page.locator('p[align=center] svg.fa-icon').boundingBox();
    expect(icon?.height).toBeGreaterThan(10);
    expect(await page.evaluate(() => [...document.fonts].some((f) => /Font Awesome/.test(f.family)))).toBe(false);
    expect(await page.locator('div[align=center] figure figcaption').innerText()).toBe('Our logo');
    // Headings: the anchor id from the source, levels as the source platform maps them, all in the outline.
    expect(await page.locator('h2#cards').innerText()).toContain('Cards and HTML');
    expect(await page.locator('h3#sub-heading').count()).toBe(1);
    expect(await page.locator('h4#third-level').count()).toBe(1);
    expect(await page.locator('.outline a').allInnerTexts()).toEqual(
      expect.arrayContaining(['Cards and HTML', 'Centered heading', 'Sub heading', 'Third level', 'May release']),
    );
    expect(await page.locator('.columns .column').count()).toBe(2);
    expect(await page.locator('.columns').evaluate((e) => getComputedStyle(e).display)).toBe('flex');
    expect(await page.locator('.update time').getAttribute('datetime')).toBe('2024-05-01');
    expect(await page.locator('.math-block math').count()).toBe(1);
    expect(await page.locator('p math').count()).toBe(1);
    expect(await page.locator('figure.mermaid.drawn img.diagram-light').count()).toBe(1);
    expect(await page.locator('pre.numbered .hljs-keyword').first().innerText()).toBe('const');
    expect(await page.locator('.code-title').first().innerText()).toBe('app.js');
    expect(await page.locator('.hint-warning .hint-icon').count()).toBe(1);
    expect(await page.locator('.content-ref-title').innerText()).toBe('Target page');
    expect(await page.locator('.content-ref-description').innerText()).toBe('Where the card leads.');
    expect(await page.locator('.embed-provider').innerText()).toBe('YouTube');
    expect(await page.locator('.file-name').innerText()).toBe('report.pdf');
    expect(await page.locator('.file-meta').innerText()).toContain('6.0 KB');
    expect(await page.locator('.content .api-operation .method-post, .content .api-operation .method-get').count()).toBeGreaterThan(0);
    expect(text).toContain('Unknown block content');
    // Hostile HTML in a block: nothing ran, nothing leaked.
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('.content a[href^="javascript"]').count()).toBe(0);
    expect(text).not.toContain('display:none');
    // Images: resized variants, intrinsic size set, the variant served as WebP.
    const hero = page.locator('img[alt=Hero]');
    expect(await hero.getAttribute('width')).toBe('2400');
    expect(await hero.getAttribute('height')).toBe('1200');
    const srcset = (await hero.getAttribute('srcset')) ?? '';
    expect(srcset).toMatch(/\/~img\/[^ ]+\/800\.webp 800w/);
    const variant = await page.request.get(new URL(srcset.split(' ')[0] as string, base).href);
    expect(variant.headers()['content-type']).toBe('image/webp');
    expect((await sharp(await variant.body()).metadata()).width).toBe(480);
    // An animated GIF keeps every frame in its variants; an SVG gets its size (it needs no variants).
    const animSet = (await page.locator('img[alt=Animation]').getAttribute('srcset')) ?? '';
    const animVariant = await page.request.get(new URL(animSet.split(' ')[0] as string, base).href);
    expect((await sharp(await animVariant.body(), { animated: true }).metadata()).pages).toBe(2);
    const chartImg = page.locator('img[alt=Chart]');
    expect([await chartImg.getAttribute('width'), await chartImg.getAttribute('height')]).toEqual(['300', '150']);
    expect(await chartImg.getAttribute('srcset')).toBeNull();
    // The sidebar: branches outside the current path are closed.
    expect(await page.locator('.tree details[open]').count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'constructs-desktop.png'), fullPage: true });
    await page.goto(`${base}/?theme=dark`);
    await page.screenshot({ path: join(ARTIFACTS, 'constructs-dark.png'), fullPage: true });

    const deep = await open('/more/t11/d', 1280, 900);
    expect(await deep.locator('.tree details[open]').count()).toBe(2);
    expect(await deep.locator('.tree a[aria-current=page]').isVisible()).toBe(true);
    // Scrolled into view inside the sidebar.
    const box = await deep.locator('.tree a[aria-current=page]').boundingBox();
    expect(box && box.y > 0 && box.y < 900).toBe(true);
    await deep.screenshot({ path: join(ARTIFACTS, 'sidebar-deep.png') });
  });

  it('draws Mermaid diagrams as SVG images that follow the theme, with the source readable without script', async () => {
    for (const js of [true, false]) {
      const page = await open('/', 1280, 900, js);
      const figure = page.locator('figure.mermaid.drawn');
      const drawing = figure.locator('img.diagram-light');
      await drawing.scrollIntoViewIfNeeded();
      await expect.poll(() => drawing.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(50);
      expect(await drawing.isVisible()).toBe(true);
      expect(await figure.locator('img.diagram-dark').isVisible()).toBe(false);
      const svg = await page.request.get(new URL((await drawing.getAttribute('src')) as string, base).href);
      expect(svg.headers()['content-type']).toContain('image/svg+xml');
      const text = await svg.text();
      expect(text).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(text).toContain('>Checkout</text>');
      expect(text).not.toMatch(/var\(|@import|<script/);
      // The source stays one click away, with or without script.
      expect(await figure.locator('pre').isVisible()).toBe(false);
      await figure.locator('summary').click();
      expect(await figure.locator('pre').innerText()).toContain('A[Checkout] --> B[Payment]');
      // A kind the server does not draw reads as its source.
      expect(await page.locator('figure.mermaid:not(.drawn) pre').innerText()).toContain('"Dogs" : 386');
      await figure.screenshot({ path: join(ARTIFACTS, `diagram-${js ? 'script' : 'no-script'}.png`) });
    }
    const dark = await open('/?theme=dark', 1280, 900);
    const drawing = dark.locator('figure.mermaid.drawn img.diagram-dark');
    await drawing.scrollIntoViewIfNeeded();
    await expect.poll(() => drawing.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(50);
    expect(await dark.locator('figure.mermaid.drawn img.diagram-light').isVisible()).toBe(false);
    await dark.locator('figure.mermaid.drawn').screenshot({ path: join(ARTIFACTS, 'diagram-dark.png') });
  });

  it('reads on a phone: title first, no sideways scrolling, a drawer menu and a search icon that opens search', async () => {
    for (const path of ['/', '/target', '/api', '/broken', '/more/t11/d']) {
      const page = await open(path, 390, 844);
      await readable(page, 390, 844);
      await page.context().close();
    }
    const page = await open('/', 390, 844);
    await page.screenshot({ path: join(ARTIFACTS, 'constructs-phone.png') });
    await page.locator('.menu-toggle summary').click();
    const drawer = page.locator('.sidebar-body');
    const box = await drawer.boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0 });
    expect(box && box.width).toBeLessThan(390);
    await page.screenshot({ path: join(ARTIFACTS, 'phone-drawer.png') });
    await page.locator('.drawer-backdrop').click({ position: { x: 370, y: 400 } });
    expect(await drawer.isVisible()).toBe(false);
    await page.locator('.header-row .search-icon').click();
    await page.locator('.search-dialog.open').waitFor();
    const close = await page.locator('.search-close').boundingBox();
    expect(close && close.x + close.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(ARTIFACTS, 'phone-search.png') });
    await page.locator('.search-close').click();
    expect(await page.locator('.search-dialog.open').count()).toBe(0);
    await page.goto(`${base}/api`);
    await page.screenshot({ path: join(ARTIFACTS, 'api-phone.png') });
  });

  it('shows an API reference in the spec order, grouped by tag, with schemas, samples and a console', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const res = await page.goto(`${base}/api`);
    // The console may call the spec's server, and only this page may.
    expect(res?.headers()['content-security-policy']).toMatch(/connect-src 'self' https:\/\/api\.shop\.example(;|$)/);
    expect(res?.headers()['content-security-policy']).not.toContain('unsafe-inline');
    await readable(page, 1280, 900);
    expect(await page.locator('h1.page-title').innerText()).toBe('Shop API');
    expect(await page.title()).toContain('Shop API');
    expect(await page.locator('.content h2').allInnerTexts()).toEqual(
      ['Authentication', 'Endpoints'].map((s) => expect.stringContaining(s)),
    );
    expect(await page.locator('.api-securities').innerText()).toContain('bearer');
    // Each tag has its page, listed on the overview and in the sidebar, in the spec's order.
    expect(await page.locator('.api-tags .content-ref-title').allInnerTexts()).toEqual(
      ['Orders', 'Customers', 'Billing', 'Schemas'].slice(0, 3),
    );
    expect(
      await page.locator('.tree a[href$="/api/orders"], .tree a[href$="/api/customers"], .tree a[href$="/api/billing"]').allInnerTexts(),
    ).toEqual(['Orders', 'Customers', 'Billing']);
    const expected = ['Orders', 'Customers', 'Billing'].map((tag) =>
      Object.values(spec.paths)
        .map((item) => Object.values(item)[0] as { summary: string; tags: string[] })
        .filter((op) => op.tags[0] === tag)
        .map((op) => op.summary),
    );
    const shown: string[][] = [];
    for (const tag of ['orders', 'customers', 'billing']) {
      await page.goto(`${base}/api/${tag}`);
      shown.push((await page.locator('.api-operation > h2').allInnerTexts()).map((s) => s.replace(/#$/, '').trim()));
    }
    expect(shown).toEqual(expected);
    await page.goto(`${base}/api/orders`);
    // Field order is the author's (zid, customer, amount), expandable through references.
    const op = page.locator('.api-operation').first();
    expect(await op.locator('.api-path').innerText()).toContain('/orders/{orderId}');
    expect(
      await op
        .locator('.api-response-body > .api-props > li > .prop-head > .prop-name')
        .evaluateAll((els) => els.map((e) => e.textContent).slice(1)),
    ).toEqual(['zid', 'customer', 'amount']);
    expect(await op.locator('details.api-children details.api-children').count()).toBeGreaterThan(0);
    expect(await op.locator('.api-children a[href$="/api/schemas#schema-order"]').count()).toBeGreaterThan(0);
    expect(await op.locator('.api-response').innerText()).toContain('X-Rate-Limit');
    expect(await op.locator('.api-samples').first().innerText()).toContain("curl -X POST 'https://api.shop.example/v2/orders/{orderId}'");
    expect(await op.locator('.api-samples').first().innerText()).toContain('Authorization: Bearer <token>');
    expect(await op.locator('.try-it.ready summary').innerText()).toBe('Try it');
    await page.screenshot({ path: join(ARTIFACTS, 'api-desktop.png') });

    // Without script the reference reads whole; the console is simply absent.
    const still = await open('/api/orders', 1280, 900, false);
    expect(await still.locator('.api-operation').count()).toBe(7);
    expect(await still.locator('.try-it').first().isVisible()).toBe(false);

    const broken = await open('/broken', 1280, 900);
    expect(await broken.locator('.hint-danger').innerText()).toContain('could not be loaded');
    await broken.screenshot({ path: join(ARTIFACTS, 'api-failed.png') });
  });
});
