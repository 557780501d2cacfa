import { mkdirSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packZip } from '../../sync-server/src/core/content/export/archive';
import { TestServer } from '../../sync-server/src/testing/harness';
import { imageRepository } from '../../sync-server/src/testing/imageRepository';
import { CHROMIUM, hasChromium, launchChromium } from '../chromium';

/**
 * A GitBook repository whose images are written as HTML (inline icons, figures, a
 * `<picture>` with a dark variant, a full-width frame, an expandable), imported and
 * published: in a real browser every image loads, in the light and the dark theme. The
 * screenshot goes to test-artifacts/sites/ for a person to look at.
 */
if (!hasChromium) console.warn(`Skipping imported-image browser tests: ${CHROMIUM} is missing (apt-get install -y chromium).`);

const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts/sites');

describe.skipIf(!hasChromium)('images of an imported repository in a browser', () => {
  let t: TestServer;
  let server: ServerType;
  let fixtures: Server;
  let browser: Browser;
  let pageUrl: string;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: (req) => t.app.fetch(req), port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
    });
    const origin = `http://127.0.0.1:${port}`;
    t = await TestServer.start({ publicUrl: origin, allowPrivateFetch: true });
    const zip = packZip(new Map(Object.entries(imageRepository())));
    fixtures = createServer((req, res) => {
      if (req.url === '/docs.zip') res.writeHead(200, { 'content-length': zip.length }).end(zip);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => fixtures.listen(0, '127.0.0.1', resolve));
    const { orgId, admin } = await t.org();
    const spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Acme' })).body.id;
    const url = `http://127.0.0.1:${(fixtures.address() as AddressInfo).port}/docs.zip`;
    expect((await t.post(`/v1/spaces/${spaceId}/content/import`, admin.token, { source: 'markdown', url })).status).toBe(201);
    const site = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Acme Docs', spaces: [spaceId] })).body;
    await t.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`, admin.token);
    pageUrl = `${origin}/s/${orgId}/${site.basename}/interface`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    fixtures?.close();
    server?.close();
    await t?.close();
  });

  it('loads every image the page shows, icons, figures, frames and the dark variant included', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: scheme });
      const page = await context.newPage();
      await page.goto(pageUrl);
      await page.locator('article details summary').click();
      // lazy images load once scrolled to
      for (const img of await page.locator('article img[src]').all()) await img.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => [...document.querySelectorAll('article img[src]')].every((i) => (i as HTMLImageElement).complete));
      const shown = await page.locator('article img').evaluateAll((imgs) =>
        imgs.map((i) => ({
          alt: i.getAttribute('alt'),
          width: (i as HTMLImageElement).naturalWidth,
          src: (i as HTMLImageElement).currentSrc,
        })),
      );
      const loaded = shown.filter((i) => i.width > 0).map((i) => i.alt);
      expect(loaded, scheme).toEqual([
        '',
        'Save',
        'Settings',
        'Save',
        'The dashboard',
        'Acme logo',
        'Release banner',
        'Chart',
        'Export menu',
        'the gear',
      ]);
      // interface icons stand in the line of text, at its height
      for (const alt of ['', 'Settings', 'the gear']) {
        const icon = await page.locator(`article img[alt="${alt}"]`).boundingBox();
        expect(icon?.height, `${scheme} ${alt}`).toBeLessThanOrEqual(24);
      }
      // the picture's source answers the scheme: its dark file in the dark theme
      const logo = shown.find((i) => i.alt === 'Acme logo');
      expect(logo?.src, scheme).toContain(scheme === 'dark' ? 'logo-dark.png' : 'logo-light.png');
      // GitBook's full-width frame spans the outline's column too, and its image is drawn wider than the text
      const text = await page.locator('article').boundingBox();
      const frame = await page.locator('article .html-block:has(> [data-full-width="true"])').boundingBox();
      const banner = await page.locator('article img[alt="Release banner"]').boundingBox();
      expect(frame?.width, scheme).toBeGreaterThan((text?.width ?? 0) + 200);
      expect(banner?.width, scheme).toBeGreaterThan((text?.width ?? 0) + 200);
      if (scheme === 'light') {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: join(ARTIFACTS, 'imported-images.png'), fullPage: true });
      }
      await context.close();
    }
  });

  it('keeps a full-width frame inside the screen of a phone', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    await page.goto(pageUrl);
    const banner = await page.locator('article img[alt="Release banner"]').boundingBox();
    expect(banner?.width).toBeGreaterThan(200);
    expect(banner?.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });
});
