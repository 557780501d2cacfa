import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { type HTMLElement, parse } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packZip } from '../core/content/export/archive';
import { TestServer } from '../testing/harness';
import { writePages } from '../testing/testContent';
import { IMAGE_ASSETS, INTERFACE_MD, imageRepository } from '../testing/imageRepository';

/**
 * A GitBook repository whose images are written as HTML, imported through the markdown
 * import, published: every image shows on the site, in `.md`, in the export and in the
 * PDF, and links written as file names read as the linked page's title.
 */

let t: TestServer;
let fixtures: Server;
let token: string;
let spaceId: string;
let root: string;
let imported: { unmapped: { page: string; line: number; source: string; reason: string }[] };
let pageIds: Record<string, string>;

beforeAll(async () => {
  t = await TestServer.start({ allowPrivateFetch: true });
  const zip = packZip(new Map(Object.entries(imageRepository())));
  fixtures = createServer((req, res) => {
    if (req.url === '/docs.zip') res.writeHead(200, { 'content-length': zip.length }).end(zip);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => fixtures.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(fixtures.address() as AddressInfo).port}`;
  const { orgId, admin } = await t.org();
  token = admin.token;
  spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, token, { title: 'Acme' })).body.id;
  const res = await t.post(`/v1/spaces/${spaceId}/content/import`, token, { source: 'markdown', url: `${origin}/docs.zip` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  imported = res.body;
  const content = (await t.get(`/v1/spaces/${spaceId}/content`, token)).body as { pages: { id: string; title: string }[] };
  pageIds = Object.fromEntries(content.pages.map((p) => [p.title, p.id]));
  const site = (await t.post(`/v1/orgs/${orgId}/sites`, token, { title: 'Acme Docs', spaces: [spaceId] })).body;
  expect((await t.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`, token)).status).toBe(200);
  root = `/s/${orgId}/${site.basename}`;
});
afterAll(async () => {
  fixtures?.close();
  await t?.close();
});

/** Bytes and type of what a URL on this server answers (absolute or rooted). */
async function fetched(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await t.app.request(url.startsWith('/') ? `http://quire.test${url}` : url);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The URLs of a `srcset`, descriptors dropped. */
const srcsetUrls = (value: string) =>
  value
    .split(/,\s+/)
    .map((c) => c.trim().replace(/\s+\d+(?:\.\d+)?[wx]$/, ''))
    .filter(Boolean);

async function expectImage(url: string, asset: string) {
  const got = await fetched(url);
  expect(got.status, `${asset}: ${url}`).toBe(200);
  expect(got.bytes.equals(IMAGE_ASSETS[asset] as Buffer), `${asset}: ${url}`).toBe(true);
}

const ALT_TO_ASSET: Record<string, string> = {
  '': 'gear.png',
  Settings: 'gear.png',
  'the gear': 'gear.png',
  Save: 'save icon.png',
  'The dashboard': 'dashboard.png',
  'Acme logo': 'logo-light.png',
  'Release banner': 'wide banner.png',
  Chart: 'chart.png',
  'Export menu': 'export.png',
};

describe('images a repository writes as HTML', () => {
  it('each show on the published page with a src (and srcset entries) answering the image bytes', async () => {
    const res = await t.get(`${root}/interface`);
    expect(res.status).toBe(200);
    const article = parse(res.body as string).querySelector('article') as HTMLElement;
    const images = article.querySelectorAll('img');
    const shown = images.filter((img) => img.getAttribute('alt') !== 'Gone');
    // two icons in the text, two in the table, five figures and frames, one icon in the expandable
    expect(shown.map((img) => img.getAttribute('alt'))).toEqual([
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
    for (const img of shown) {
      const asset = ALT_TO_ASSET[img.getAttribute('alt') ?? ''] as string;
      const src = img.getAttribute('src');
      expect(src, `src of ${asset}`).toBeTruthy();
      await expectImage(src as string, asset);
      for (const url of srcsetUrls(img.getAttribute('srcset') ?? '')) {
        const got = await fetched(url);
        expect(got.status, url).toBe(200);
        expect(got.type, url).toMatch(/^image\//);
      }
    }
    // the density candidate of a hand-written srcset keeps its own file
    const chart = shown.find((img) => img.getAttribute('alt') === 'Chart') as HTMLElement;
    expect(srcsetUrls(chart.getAttribute('srcset') ?? '')).toHaveLength(2);
    await expectImage(srcsetUrls(chart.getAttribute('srcset') as string)[1] as string, 'chart@2x.png');
    // the dark variant of the logo
    const sources = article.querySelectorAll('picture source');
    expect(sources.length).toBe(1);
    const dark = srcsetUrls(sources[0]?.getAttribute('srcset') ?? '');
    expect(dark).toHaveLength(1);
    await expectImage(dark[0] as string, 'logo-dark.png');
    // captions and frames survive
    expect(article.text).toContain('The dashboard after sign-in');
    expect(article.querySelector('details summary')?.text).toBe('Where is the export button?');
  });

  it('each show in the page as markdown, at addresses that answer the image', async () => {
    const res = await t.get(`${root}/interface.md`);
    expect(res.status).toBe(200);
    const md = res.body as string;
    expect(md).not.toMatch(/file:|src="#"|srcset="#"/);
    const urls = [...md.matchAll(/\b(src|srcset)="([^"]+)"/g)].flatMap((m) => (m[1] === 'srcset' ? srcsetUrls(m[2] as string) : [m[2]]));
    // ten images, the chart's two candidates, the dark logo; the missing file stays as written
    expect(urls.filter((u) => u?.startsWith('http://quire.test/'))).toHaveLength(13);
    expect(md).toContain('![Gone](../.gitbook/assets/missing.png)');
    for (const url of urls) {
      const got = await fetched(url as string);
      expect(got.status, url).toBe(200);
      expect(got.type, url).toBe('image/png');
    }
  });

  it('are written back as repository paths in the export, with their files', async () => {
    const res = await t.app.request(`http://quire.test/v1/spaces/${spaceId}/content/export?format=markdown&archive=zip`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    for (const [name, bytes] of Object.entries(IMAGE_ASSETS)) {
      expect(Buffer.from(files[`.gitbook/assets/${name}`] ?? []).equals(bytes), name).toBe(true);
    }
    // A page keeps the path it was imported from; its images point at the assets from its folder.
    const page = new TextDecoder().decode(files['guides/interface.md']);
    expect(page).not.toContain('file:');
    expect(page).toContain('<img src="../.gitbook/assets/gear.png" alt="" data-size="line">');
    expect(page).toContain('<img src="../.gitbook/assets/save icon.png" alt="Save" data-size="line">');
    expect(page).toContain('<source srcset="../.gitbook/assets/logo-dark.png"');
    expect(page).toContain('srcset="../.gitbook/assets/chart.png 1x, ../.gitbook/assets/chart@2x.png 2x"');
    expect(page).toContain('<img src="../.gitbook/assets/wide banner.png" alt="Release banner">');
    expect(page).toContain('../.gitbook/assets/export.png');
  });

  it('each print in the PDF of the page', async () => {
    const link = await t.get(`/v1/spaces/${spaceId}/pdf?only=true&page=${pageIds['Interface tour']}`, token);
    expect(link.status).toBe(200);
    const pdf = await fetched(link.body.url);
    expect(pdf.status).toBe(200);
    const file = join(mkdtempSync(join(tmpdir(), 'quire-images-pdf-')), 'interface.pdf');
    writeFileSync(file, pdf.bytes);
    // `pdfimages -list`: page num type width height …, two header lines
    const sizes = execFileSync('pdfimages', ['-list', file])
      .toString()
      .split('\n')
      .slice(2)
      .filter((l) => / image /.test(l))
      .map((l) => l.trim().split(/\s+/).slice(3, 5).join('x'));
    // every image of the page: two icons in the text, two in the table, one in the expandable, the figures
    expect(sizes.filter((s) => s === '48x48')).toHaveLength(3);
    expect(sizes.filter((s) => s === '18x18')).toHaveLength(2);
    for (const size of ['640x240', '320x90', '900x120', '200x100', '300x120']) expect(sizes, size).toContain(size);
    // a figure written in HTML prints its caption under it, once, and not its alt text as well
    const text = execFileSync('pdftotext', [file, '-']).toString();
    expect(text.match(/A full-width banner/g)).toHaveLength(1);
    expect(text).not.toContain('Release banner');
  });

  it('the import reports by page and path when its file is missing, in HTML or not', () => {
    expect(imported.unmapped).toEqual([
      {
        page: 'getting-started/quickstart.md',
        line: 3,
        source: '../.gitbook/assets/old%20gear.png',
        reason: 'the referenced file was not found; the reference is kept as written',
      },
      {
        page: 'guides/interface.md',
        line: INTERFACE_MD.findIndex((l) => l.includes('missing.png')) + 1,
        source: '../.gitbook/assets/missing.png',
        reason: 'the referenced file was not found; the reference is kept as written',
      },
    ]);
  });
});

describe('images an editor or git sync wrote as repository paths', () => {
  it('show on the site, in markdown and in the PDF as the space file imported from that path', async () => {
    const [pageId] = await writePages(t.db, spaceId, [
      {
        title: 'By path',
        markdown:
          'Press <img src="../.gitbook/assets/save%20icon.png" alt="Save by path" data-size="line"> now.\n\n<div align="center"><picture><source srcset=".gitbook/assets/logo-dark.png" media="(prefers-color-scheme: dark)"><img src=".gitbook/assets/dashboard.png" alt="Dashboard by path"></picture></div>\n',
      },
    ]);
    const article = parse((await t.get(`${root}/by-path`)).body as string).querySelector('article') as HTMLElement;
    const icon = article.querySelector('img[alt="Save by path"]') as HTMLElement;
    await expectImage(icon.getAttribute('src') as string, 'save icon.png');
    const dashboard = article.querySelector('img[alt="Dashboard by path"]') as HTMLElement;
    await expectImage(dashboard.getAttribute('src') as string, 'dashboard.png');
    await expectImage(srcsetUrls(article.querySelector('picture source')?.getAttribute('srcset') ?? '')[0] as string, 'logo-dark.png');

    const md = (await t.get(`${root}/by-path.md`)).body as string;
    const urls = [...md.matchAll(/\b(?:src|srcset)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(urls).toHaveLength(3);
    for (const url of urls) expect((await fetched(url)).status, url).toBe(200);

    const link = await t.get(`/v1/spaces/${spaceId}/pdf?only=true&page=${pageId}`, token);
    const file = join(mkdtempSync(join(tmpdir(), 'quire-paths-pdf-')), 'paths.pdf');
    writeFileSync(file, (await fetched(link.body.url)).bytes);
    const list = execFileSync('pdfimages', ['-list', file]).toString();
    expect(list).toMatch(/ image\s+18\s+18 /);
    expect(list).toMatch(/ image\s+640\s+240 /);
  });
});

describe('links written as file names', () => {
  it("read as the linked page's title on the site; other link text stays", async () => {
    const welcome = parse((await t.get(`${root}/`)).body as string).querySelector('article') as HTMLElement;
    expect(welcome.querySelectorAll('.content-ref-title').map((e) => e.text)).toEqual(['Quickstart guide', 'Interface tour']);
    expect(welcome.querySelectorAll('p a').map((a) => a.text)).toEqual(['Quickstart guide', 'Quickstart guide', 'the tour']);
    expect(welcome.text).not.toContain('.md');
    const quick = parse((await t.get(`${root}/quickstart`)).body as string).querySelector('article') as HTMLElement;
    expect(quick.querySelectorAll('p a').map((a) => a.text)).toEqual(['Welcome']);
  });

  it('keep their source in markdown', async () => {
    const md = (await t.get(`${root}/welcome.md`)).body as string;
    expect(md).toContain('[quickstart.md](http://quire.test');
    expect(md).toContain('[getting-started/quickstart.md](http://quire.test');
  });

  it("print as the linked page's title in the PDF", async () => {
    const link = await t.get(`/v1/spaces/${spaceId}/pdf?only=true&page=${pageIds.Welcome}`, token);
    const pdf = await fetched(link.body.url);
    const file = join(mkdtempSync(join(tmpdir(), 'quire-links-pdf-')), 'welcome.pdf');
    writeFileSync(file, pdf.bytes);
    const text = execFileSync('pdftotext', [file, '-']).toString();
    expect(text).toContain('Quickstart guide');
    expect(text).toContain('Interface tour');
    expect(text).not.toMatch(/page:|quickstart\.md|interface\.md/);
  });
});
