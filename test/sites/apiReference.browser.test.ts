import { mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processSpec } from '../../sync-server/src/core/openapi/process';
import { insertSpec } from '../../sync-server/src/store/openapiSpecs';
import { TestServer } from '../../sync-server/src/testing/harness';
import { writePages } from '../../sync-server/src/testing/testContent';
import { hasChromium, launchChromium } from '../chromium';
import { type LargeSpec, largeSpec } from './fixtures/largeSpec';

/**
 * A specification of over 300 operations published on a site, as readers get it: a page
 * per tag (and per operation in the tag that has many) in the sidebar, nested as the
 * spec says, internal parts absent, the spec's order kept, no page near a megabyte;
 * in Chromium, two columns on a wide screen, one on a phone without sideways scrolling,
 * and a "try it" console that sends the token it was given. Screenshots go to
 * SHOTS_DIR (default test-artifacts/sites/).
 */
const SHOTS = process.env.SHOTS_DIR ?? `${import.meta.dirname}/../../test-artifacts/sites`;

let t: TestServer;
let server: ServerType;
let api: Server;
let base: string;
let spec: LargeSpec;
const received: IncomingHttpHeaders[] = [];
/** Whether the API answers browsers of other origins. */
let cors = true;
let origin: string;
/** Bytes and time of the first (uncached) render of each reference page. */
const firstRenders = new Map<string, { bytes: number; ms: number }>();

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // The API the reference describes: it answers browsers from any origin, and records what it got.
  api = createServer((req, res) => {
    if (cors) {
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-allow-headers', 'authorization, content-type');
      res.setHeader('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE');
    }
    if (req.method !== 'OPTIONS') received.push(req.headers);
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  spec = largeSpec(`http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`);
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: (req) => t.app.fetch(req), port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
  });
  origin = `http://127.0.0.1:${port}`;
  // The API runs on this machine: the fetch guard lets the proxy reach it only so.
  t = await TestServer.start({ publicUrl: origin, allowPrivateFetch: true });
  const { orgId, admin } = await t.org();
  const row = await insertSpec(t.db, orgId, 'platform', { text: JSON.stringify(spec.document) });
  await processSpec(t.deps, row?.id as string);
  const spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Docs' })).body.id as string;
  await writePages(t.db, spaceId, [
    { title: 'Welcome', markdown: 'Start here.\n\n## Install\n\nRun the installer.' },
    {
      title: 'API reference',
      computed: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'platform' } } } },
    },
  ]);
  const site = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Platform', spaces: [spaceId] })).body as {
    id: string;
    basename: string;
  };
  await t.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`, admin.token);
  base = `${origin}/s/${orgId}/${site.basename}`;
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) => (api ? api.close(() => resolve()) : resolve()));
  await t?.close();
});

/** The sidebar as [depth, title, href] rows, in order. */
function sidebar(html: string): { depth: number; title: string; href: string }[] {
  const tree = html.slice(html.indexOf('class="tree'), html.indexOf('</nav>', html.indexOf('class="tree')));
  const out: { depth: number; title: string; href: string }[] = [];
  let depth = 0;
  for (const m of tree.matchAll(/<ul|<\/ul>|<a [^>]*href="([^"]*)"[^>]*>(?:<[^>]+>)*([^<]*)/g)) {
    if (m[0] === '<ul') depth++;
    else if (m[0] === '</ul>') depth--;
    else out.push({ depth, title: (m[2] as string).trim(), href: m[1] as string });
  }
  return out;
}

const get = async (href: string) => {
  const res = await fetch(new URL(href, base));
  expect(res.status).toBe(200);
  return res.text();
};
const hrefOf = async (title: string) => {
  const row = sidebar(await get(`${base}/api-reference`)).find((r) => r.title === title);
  expect(row, title).toBeDefined();
  return row?.href as string;
};
const unescape = (s: string) =>
  s
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

describe('a large API reference on a published site', () => {
  it('has a sidebar entry per tag, nested by x-parent, without internal parts, and no page of a megabyte', async () => {
    expect(Object.values(spec.document.paths as object).flatMap((item) => Object.keys(item)).length).toBeGreaterThanOrEqual(300);
    const rows = sidebar(await get(`${base}/api-reference`));
    const titles = rows.map((r) => r.title);
    const ref = rows.find((r) => r.title === 'API reference');
    expect(ref).toBeDefined();
    const top = spec.visible.filter((v) => !v.parent).map((v) => v.title);
    // Tags in the spec's order, right below the reference, with the x-page-title as title.
    expect(rows.filter((r) => r.depth === (ref?.depth ?? 0) + 1 && top.includes(r.title)).map((r) => r.title)).toEqual(top);
    expect(titles).toContain('Organizations API');
    expect(titles).not.toContain(spec.internalTag);
    // Nested: members and teams under organizations, change requests under revisions.
    const at = (title: string) => rows.findIndex((r) => r.title === title);
    const nested = spec.visible.filter((v) => v.parent);
    expect(nested.map((v) => v.tag)).toEqual(['members', 'teams', 'change-requests']);
    const titleOf = (tag: string | undefined) => spec.visible.find((v) => v.tag === tag)?.title as string;
    for (const [child, parent] of nested.map((v) => [v.title, titleOf(v.parent)] as const)) {
      expect(rows[at(child)]?.depth).toBe((rows[at(parent)]?.depth ?? 0) + 1);
      expect(rows[at(child)]?.href.startsWith(`${rows[at(parent)]?.href}/`)).toBe(true);
    }
    // The tag with many operations gives each its own entry; an internal operation has none.
    const spaces = spec.visible.find((v) => v.tag === 'spaces');
    for (const op of spaces?.operations ?? []) expect(titles).toContain(op.summary);
    expect(titles).not.toContain(spec.internalOperation);
    expect(titles).toContain(`${spec.internalOperation}0`);

    // Every page of the reference, overview included, stays far from a megabyte.
    const sizes: number[] = [];
    for (const r of rows.filter((x) => x.href.includes('/api-reference'))) {
      const started = performance.now();
      const html = await get(r.href);
      firstRenders.set(r.href, { bytes: Buffer.byteLength(html), ms: performance.now() - started });
      sizes.push(Buffer.byteLength(html));
      expect(Buffer.byteLength(html), r.href).toBeLessThan(1_000_000);
    }
    expect(sizes.length).toBeGreaterThanOrEqual(60);
  }, 240_000);

  it("keeps the spec's order of operations, methods within a path included, and writes placeholders in samples", async () => {
    for (const tag of spec.visible.filter((v) => v.tag !== 'spaces')) {
      const html = await get(
        `${base}/api-reference/${
          sidebar(await get(`${base}/api-reference`))
            .find((r) => r.title === tag.title)
            ?.href.split('/api-reference/')[1]
        }`,
      );
      const shown = [...html.matchAll(/<section class="api-operation"><h2[^>]*>(?:<span[^>]*>[A-Z]+<\/span>)?([^<]*)/g)].map((m) =>
        unescape(m[1] as string),
      );
      expect(shown, tag.tag).toEqual(tag.operations.map((o) => o.summary));
      expect(html).not.toContain(`>${spec.internalOperation}<`);
      if (tag.tag === 'sites') {
        const curl = unescape(html.replace(/<[^>]+>/g, ''));
        expect(curl).toContain(`/v1/orgs/{organizationId}/sites/v1/{sitesId}`);
        expect(curl).not.toMatch(/\/orgs\/string|\/string(\/|')/);
      }
    }
  });

  it('lets readers find a tag page by search and read it as markdown', async () => {
    const href = await hrefOf('Sites API');
    const md = await get(`${href}.md`);
    expect(md).toContain('Delete sites 0');
    expect(md).toContain('/orgs/{organizationId}/sites/v0');
    const res = await fetch(`${base}/~search?q=${encodeURIComponent('Delete sites 0')}`, { headers: { accept: 'application/json' } });
    const hits = ((await res.json()) as { results: { url: string }[] }).results;
    expect(hits.some((h) => h.url.startsWith(href))).toBe(true);
  });

  it("sends calls through the site only to the servers of a spec that allows it, without the reader's cookies", async () => {
    const apiBase = (spec.document.servers as { url: string }[])[0]?.url as string;
    const call = (body: unknown) =>
      fetch(`${base}/~api-proxy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: 'quire_theme=dark' },
        body: JSON.stringify(body),
      });
    const ok = await call({
      url: `${apiBase}/orgs/o1/sites/v0`,
      method: 'GET',
      headers: { Authorization: 'Bearer proxied-1', Cookie: 'x=1' },
    });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('{"ok":true}');
    expect(received.at(-1)?.authorization).toBe('Bearer proxied-1');
    expect(received.at(-1)?.cookie).toBeUndefined();
    // Anywhere else is refused: outside the server's path, the site's own server, another host.
    for (const url of [`${new URL(apiBase).origin}/admin`, `${origin}/v1/orgs`, 'http://169.254.169.254/latest/meta-data/'])
      expect((await call({ url, method: 'GET' })).status, url).toBe(403);
    expect((await call({ url: 'not a url', method: 'GET' })).status).toBe(400);
    expect((await call({ url: `${apiBase}/x`, method: 'TRACE' })).status).toBe(400);
    // The fetch guard still stands between the proxy and private addresses.
    t.deps.config.allowPrivateFetch = false;
    try {
      const refused = await call({ url: `${apiBase}/orgs/o1/sites/v0`, method: 'GET' });
      expect(refused.status).toBe(502);
      expect((await refused.json()).message).toMatch(/refused/);
    } finally {
      t.deps.config.allowPrivateFetch = true;
    }
  });
});

describe.skipIf(!hasChromium)('a large API reference in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  /** Opens a page of the reference by its title in the sidebar (or a path). */
  const open = async (title: string, width: number, height = 900): Promise<Page> => {
    const href = title.startsWith('/') ? `${base}${title}` : await hrefOf(title);
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    page.setDefaultTimeout(8_000);
    expect((await page.goto(new URL(href, base).href))?.status()).toBe(200);
    return page;
  };

  it('reads on a phone without sideways scrolling', async () => {
    for (const path of ['/api-reference', 'Sites API', 'Get spaces 0', 'Schemas']) {
      const page = await open(path, 390, 844);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
      if (path === 'Sites API') await page.screenshot({ path: `${SHOTS}/api-reference-phone.png` });
      if (path === 'Schemas') await page.screenshot({ path: `${SHOTS}/api-reference-schemas-phone.png`, fullPage: false });
      if (path === 'Get spaces 0') await page.screenshot({ path: `${SHOTS}/api-reference-operation-phone.png`, fullPage: true });
      await page.context().close();
    }
  });

  it('puts samples right of the parameters on a wide screen, and leaves out the console where the tag hides it', async () => {
    const page = await open('Sites API', 1280);
    const op = page.locator('.api-operation').first();
    const main = await op.locator('.api-main').boundingBox();
    const samples = await op.locator('.api-aside .api-samples').first().boundingBox();
    expect(main && samples && samples.x >= main.x + main.width).toBe(true);
    expect(samples && main && samples.y < main.y + 200).toBe(true);
    await page.screenshot({ path: `${SHOTS}/api-reference-desktop.png` });
    const billing = await open('billing', 1280);
    expect(await billing.locator('.api-operation').count()).toBeGreaterThan(0);
    expect(await billing.locator('.try-it').count()).toBe(0);
  });

  it('sends the bearer token it was given, kept in the tab only', async () => {
    const page = await open('Sites API', 1280);
    const box = page.locator('.api-operation').first().locator('.try-it.ready');
    await box.locator('summary').click();
    await box.locator('input[data-credential=bearer]').fill('secret-token-1');
    await box.locator('.send').click();
    await expect.poll(() => box.locator('pre').innerText()).toContain('200');
    expect(received.at(-1)?.authorization).toBe('Bearer secret-token-1');
    await box.screenshot({ path: `${SHOTS}/api-reference-try-it.png` });
    const stored = await page.evaluate(() => ({
      session: Object.entries(sessionStorage),
      local: Object.keys(localStorage).length,
      cookie: document.cookie,
    }));
    expect(stored.session.map(([, v]) => v)).toEqual(['secret-token-1']);
    expect(stored.local).toBe(0);
    expect(stored.cookie).not.toContain('secret-token-1');
    // Another operation of the same API in this tab finds it filled in; a new tab does not.
    const other = page.locator('.api-operation').nth(1).locator('.try-it.ready');
    await other.locator('summary').click();
    expect(await other.locator('input[data-credential=bearer]').inputValue()).toBe('secret-token-1');
    const fresh = await open('Sites API', 1280);
    await fresh.locator('.try-it.ready summary').first().click();
    expect(await fresh.locator('.try-it.ready input[data-credential=bearer]').first().inputValue()).toBe('');
  });

  it('explains a call the API refuses to browsers, and sends it through the site when asked', async () => {
    const page = await open('Sites API', 1280);
    const box = page.locator('.api-operation').first().locator('.try-it.ready');
    await box.locator('summary').click();
    await box.locator('input[data-credential=bearer]').fill('secret-token-2');
    cors = false;
    try {
      await box.locator('.send').click();
      await expect.poll(() => box.locator('.cors').innerText()).toContain('This API does not allow calls from this site');
      await box.locator('.proxy input').check();
      await box.locator('.send').click();
      await expect.poll(() => box.locator('pre').innerText()).toContain('{"ok":true}');
      expect(received.at(-1)?.authorization).toBe('Bearer secret-token-2');
    } finally {
      cors = true;
    }
  });

  it('renders the largest reference page about as fast as an ordinary page', async () => {
    const [href, largest] = [...firstRenders].sort((x, y) => y[1].bytes - x[1].bytes)[0] ?? ['', { bytes: 0, ms: 0 }];
    const started = performance.now();
    const ordinary = Buffer.byteLength(await get(`${base}/`));
    const ordinaryMs = performance.now() - started;
    const paint = async (url: string) => {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      await page.goto(new URL(url, base).href);
      const ms = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list) => {
              const fcp = list.getEntries().find((e) => e.name === 'first-contentful-paint');
              if (fcp) resolve(fcp.startTime);
            }).observe({ type: 'paint', buffered: true });
            setTimeout(() => resolve(-1), 5_000);
          }),
      );
      await page.context().close();
      return ms;
    };
    const apiPaint = await paint(href);
    const ordinaryPaint = await paint(`${base}/`);
    console.log(
      `first render on the server: largest reference page ${href} ${largest.bytes} B in ${largest.ms.toFixed(0)} ms, ordinary page ${ordinary} B in ${ordinaryMs.toFixed(0)} ms; ` +
        `first contentful paint (cached): ${apiPaint.toFixed(0)} ms vs ${ordinaryPaint.toFixed(0)} ms`,
    );
    expect(largest.ms).toBeLessThan(5_000);
  });
});
