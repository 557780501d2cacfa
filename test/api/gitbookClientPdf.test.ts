import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GitBookAPI } from '@gitbook/api';
import { newId } from '@quire/shared';
import { addFile, createPage, createReusableContent } from '@quire/shared/content/index';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solidPng } from '../../sync-server/src/testing/pdfContent';
import { editLive } from '../../sync-server/src/testing/testEdits';
import { linkSpaceFile, putBlob } from '../../sync-server/src/store/files';
import { LiveServer } from '../../sync-server/src/testing/syncClients';
import { clientFor, refusal, templatedSpace } from './clientHarness';

/**
 * A space's PDF as an integration asks for it through the public client (`getSpacePdf`):
 * a URL that serves the whole space, or one page, with the space's images, file links and
 * OpenAPI operations in it.
 */

let s: LiveServer;
let api: GitBookAPI;
let reader: GitBookAPI;
let orgId: string;
const dir = mkdtempSync(join(tmpdir(), 'quire-space-pdf-'));

beforeAll(async () => {
  s = await LiveServer.start();
  const fixture = await s.t.org(['read']);
  orgId = fixture.orgId;
  api = clientFor(s, fixture.admin.token);
  reader = clientFor(s, fixture.members[0]!.token);
});
afterAll(async () => s?.close());

const PETSTORE = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Petstore', version: '1.0.0' },
  paths: {
    '/pets': { get: { summary: 'List pets', description: 'Every pet in the store.', responses: { '200': { description: 'OK' } } } },
  },
});

/** The links carry the server's public address (`PUBLIC_URL`); the test reaches it on its port. */
const local = (url: unknown) => String(url).replace(/^http:\/\/[^/]+/, `http://127.0.0.1:${s.running.port}`);

async function fetchPdf(url: unknown): Promise<{ file: string; text: string; raw: string }> {
  const res = await fetch(local(url));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const bytes = Buffer.from(await res.arrayBuffer());
  const file = join(dir, `${newId()}.pdf`);
  writeFileSync(file, bytes);
  return { file, text: execFileSync('pdftotext', [file, '-']).toString(), raw: bytes.toString('latin1') };
}

describe('space PDF', () => {
  it('serves the space as a PDF with its images, file links and API operations, and one page alone', async () => {
    await api.orgs.createOpenApiSpec(orgId, { slug: 'petstore', source: { text: PETSTORE } });
    for (let i = 0; i < 200; i++) {
      const { data } = await api.orgs.getOpenApiSpecBySlug(orgId, 'petstore');
      if ((data as { lastProcessedAt?: string }).lastProcessedAt) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Handbook' });
    const png = solidPng(30, 30, [10, 120, 200]);
    const hash = await putBlob(s.db, png, 'image/png');
    const imageId = newId();
    const guideId = newId();
    await linkSpaceFile(s.db, space.id, imageId, hash);
    await linkSpaceFile(s.db, space.id, guideId, await putBlob(s.db, Buffer.from('%PDF-1.4'), 'application/pdf'));
    const ids = await editLive(s.db, { spaceId: space.id }, (doc) => {
      addFile(doc, { id: imageId, name: 'diagram.png', contentType: 'image/png', size: png.length });
      addFile(doc, { id: guideId, name: 'guide.pdf', contentType: 'application/pdf', size: 8 });
      const intro = createPage(doc, {
        title: 'Introduction',
        markdown: `Welcome. See [the API](https://api.example.com).\n\n![Architecture](file:${imageId})\n\n{% file src="file:${guideId}" %}\nThe guide\n{% endfile %}\n`,
      });
      const api = createPage(doc, {
        title: 'API reference',
        computed: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } } },
      } as Parameters<typeof createPage>[1]);
      createPage(doc, { title: 'Internal notes', hidden: true, markdown: 'Not for customers.' });
      const support = createReusableContent(doc, { title: 'Support', markdown: 'Write to support@acme.test.' });
      createPage(doc, {
        title: 'Help',
        document: {
          type: 'doc',
          content: [
            { type: 'reusableContent', attrs: { reusableContentId: support, src: null } },
            { type: 'reusableContent', attrs: { reusableContentId: 'AAAAAAAAAAAAAAAAAAAAAA', src: 'includes/gone.md' } },
          ],
        },
      });
      return { intro, api };
    });

    const { data: whole } = await reader.spaces.getSpacePdf(space.id);
    expect(String(whole.url)).toMatch(new RegExp(`^http://quire\\.test/exports/spaces/${space.id}/revisions/.+\\.pdf\\?.*sig=`));
    const pdf = await fetchPdf(whole.url);
    expect(pdf.text).toContain('Handbook');
    expect(pdf.text).toContain('Welcome. See the API.');
    expect(pdf.text).toContain('Architecture');
    expect(pdf.text).toContain('The guide');
    // The API reference page shows its operations, not a placeholder.
    expect(pdf.text).toContain('List pets');
    expect(pdf.text).toContain('GET /pets');
    expect(pdf.text).toContain('Every pet in the store.');
    expect(pdf.text).not.toContain('Not for customers.');
    // Reusable content prints as the blocks it holds; a deleted one as its reference.
    expect(pdf.text).toContain('Write to support@acme.test.');
    expect(pdf.text).toContain('Reusable content: includes/gone.md');
    expect(pdf.raw).toContain('/Subtype /Image');
    expect(pdf.raw).toContain('(https://api.example.com)');
    expect(pdf.raw).toMatch(new RegExp(`\\(http://quire\\.test/files/${space.id}/${guideId}/guide\\.pdf\\?[^)]*sig=`));

    const { data: one } = await reader.spaces.getSpacePdf(space.id, { page: ids.intro, only: true });
    const single = await fetchPdf(one.url);
    expect(single.text).toContain('Welcome.');
    expect(single.text).not.toContain('List pets');

    expect((await refusal(reader.spaces.getSpacePdf(space.id, { only: true }))).code).toBe(400);
    expect((await refusal(reader.spaces.getSpacePdf(space.id, { page: 'AAAAAAAAAAAAAAAAAAAAAA' }))).code).toBe(404);
    expect((await refusal(reader.spaces.getSpacePdf('AAAAAAAAAAAAAAAAAAAAAA'))).code).toBe(404);
    const tampered = await fetch(local(whole.url).replace(/sig=[^&]+/, 'sig=AAAA'));
    expect(tampered.status).toBe(403);
  }, 120_000);

  it('embeds SVG, GIF and WebP space files and keeps the server network out of reach of web images', async () => {
    const { data: space } = await api.orgs.createSpace(orgId, { title: 'Gallery' });
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="40"><rect width="80" height="40" fill="#0b57d0"/></svg>',
    );
    const frame = sharp({ create: { width: 40, height: 20, channels: 3, background: '#c82828' } });
    const files = [
      { name: 'chart.svg', type: 'image/svg+xml', bytes: svg },
      { name: 'loop.gif', type: 'image/gif', bytes: await frame.clone().gif().toBuffer() },
      { name: 'photo.webp', type: 'image/webp', bytes: await frame.clone().webp().toBuffer() },
    ];
    const ids: string[] = [];
    for (const f of files) {
      const id = newId();
      await linkSpaceFile(s.db, space.id, id, await putBlob(s.db, f.bytes, f.type));
      ids.push(id);
    }
    await editLive(s.db, { spaceId: space.id }, (doc) => {
      files.forEach((f, i) => addFile(doc, { id: ids[i] as string, name: f.name, contentType: f.type, size: f.bytes.length }));
      createPage(doc, {
        title: 'Pictures',
        markdown: `${ids.map((id, i) => `![Picture ${i}](file:${id})`).join('\n\n')}\n\n![Internal](http://127.0.0.1:${s.running.port}/healthz)\n`,
      });
    });
    const { data } = await reader.spaces.getSpacePdf(space.id);
    const pdf = await fetchPdf(data.url);
    const images = (pdf.raw.match(/\/Subtype \/Image/g) ?? []).length - (pdf.raw.match(/\/SMask \d+ 0 R/g) ?? []).length;
    expect(images).toBe(3);
    expect(pdf.text).not.toMatch(/Picture \d \(/);
    // A web image on the server's own address is refused by the fetch guard: a card says so.
    expect(pdf.text).toContain('Internal (not reachable, not embedded)');
  }, 60_000);

  it('links a published site to its PDF when the site turns PDF export on', async () => {
    const space = await templatedSpace(api, orgId, 'Published handbook');
    const { data: site } = await api.orgs.createSite(orgId, { title: 'Public docs', spaces: [space.id] });
    await api.orgs.publishSite(orgId, site.id);
    const page = async () => (await fetch(local((await api.orgs.getSiteById(orgId, site.id)).data.urls.published))).text();
    expect(await page()).not.toContain('Download PDF');

    const { data: settings } = await api.orgs.getSiteCustomizationById(orgId, site.id);
    await api.orgs.updateSiteCustomizationById(orgId, site.id, { ...settings, pdf: { enabled: true } } as typeof settings);
    await api.orgs.publishSite(orgId, site.id);
    const html = await page();
    const href = /<a href="([^"]+)" type="application\/pdf">Download PDF<\/a>/.exec(html)?.[1];
    expect(href).toBeDefined();
    const pdf = await fetchPdf(href!.replace(/&amp;/g, '&'));
    expect(pdf.text).toContain('Published handbook');
    expect(pdf.text).toContain('Welcome');
    expect(pdf.text).toContain('Quickstart');
    // The site's readers opening it are counted among the site's insights; links handed to tokens are not.
    await s.t.flushInsights();
    expect(await s.db.query("SELECT site_id, space_id FROM insights_events WHERE type = 'pdf_request'")).toEqual([
      { site_id: site.id, space_id: space.id },
    ]);
  }, 120_000);
});
