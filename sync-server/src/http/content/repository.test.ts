import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updatePage } from '@quire/shared/content/index';
import { packTarGz, packZip } from '../../core/content/export/archive';
import { editBranch } from '../../core/content/revisions';
import { readTarGz } from '../../core/content/import/archive';
import { TestServer } from '../../testing/harness';
import { handWrittenRepository } from '../../testing/docsRepository';

const REPO = handWrittenRepository();
let t: TestServer;
let fixtures: Server;
let origin: string;
const served = new Map<string, Uint8Array>();

beforeAll(async () => {
  t = await TestServer.start({ allowPrivateFetch: true });
  const files = new Map(Object.entries(REPO));
  for (const [path, bytes] of files) served.set(`/docs/${path}`, bytes);
  served.set('/docs.zip', packZip(new Map([...files].map(([p, b]) => [`acme-docs-main/${p}`, b]))));
  served.set('/docs.tar.gz', await packTarGz(files));
  fixtures = createServer((req, res) => {
    // a static file server: the path percent-decoded, as nginx or GitHub Pages serve it
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] as string);
    const body = served.get(path);
    if (!body) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => fixtures.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(fixtures.address() as AddressInfo).port}`;
});
afterAll(async () => {
  fixtures?.close();
  await t?.close();
});

interface TreePage {
  id: string;
  title: string;
  type: string;
  slug: string;
  href?: string;
  description?: string;
  icon?: string;
  hidden?: boolean;
  cover?: { ref: { kind: string; file?: string }; yPos: number };
  pages: TreePage[];
}
interface FileItem {
  id: string;
  name: string;
  downloadURL: string;
}

const outline = (pages: TreePage[]): unknown[] =>
  pages.map((p) => [p.type, p.title, p.slug, ...(p.pages.length ? [outline(p.pages)] : [])]);
const all = (pages: TreePage[]): TreePage[] => pages.flatMap((p) => [p, ...all(p.pages)]);

async function importInto(token: string, orgId: string, url: string) {
  const s = (await t.post(`/v1/orgs/${orgId}/spaces`, token, { title: 'Docs' })).body as { id: string };
  const res = await t.post(`/v1/spaces/${s.id}/content/import`, token, { source: 'markdown', url });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const content = (await t.get(`/v1/spaces/${s.id}/content`, token)).body as { pages: TreePage[]; files: FileItem[] };
  return { spaceId: s.id, result: res.body, ...content };
}

async function markdownOf(token: string, spaceId: string, pageId: string): Promise<string> {
  return (await t.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`, token)).body.markdown;
}

async function bytesOf(file: FileItem): Promise<Buffer> {
  return Buffer.from(await (await t.app.request(file.downloadURL)).arrayBuffer());
}

async function exported(token: string, path: string, archive: 'zip' | 'tar.gz'): Promise<Map<string, Uint8Array>> {
  const res = await t.app.request(`http://quire.test${path}/content/export?format=markdown&archive=${archive}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe(archive === 'zip' ? 'application/zip' : 'application/gzip');
  const bytes = new Uint8Array(await res.arrayBuffer());
  return archive === 'zip' ? new Map(Object.entries(unzipSync(bytes))) : readTarGz(bytes, 1 << 30);
}

const EXPECTED_TREE = [
  ['document', 'Introduction', 'introduction'],
  [
    'group',
    'Get Started',
    'getting-started',
    [
      ['document', 'Quickstart', 'quickstart'],
      ['document', 'Installation', 'installation', [['document', 'On Linux', 'linux']]],
      ['document', 'Account settings', 'settings', [['link', 'Billing', 'billing']]],
    ],
  ],
  [
    'group',
    'Git Sync & Backups',
    'git-sync',
    [
      ['document', 'Troubleshooting', 'troubleshooting'],
      ['document', 'Changelog', 'change-log'],
    ],
  ],
  ['link', 'Status page', 'status-page'],
];

describe('a documentation repository in the git sync layout', () => {
  it('arrives whole from a folder URL, a .zip and a .tar.gz: tree, blocks, links, files, front matter, includes', async () => {
    const { orgId, admin } = await t.org();
    const imports = [];
    for (const url of [`${origin}/docs/`, `${origin}/docs.zip`, `${origin}/docs.tar.gz`]) {
      imports.push(await importInto(admin.token, orgId, url));
    }
    for (const imported of imports) {
      const { spaceId, result, pages, files } = imported;
      const T = admin.token;
      // groups are titled by their text, slugged by their anchor; the anchor entry is a link, not a page
      expect(outline(pages)).toEqual(EXPECTED_TREE);
      const byTitle = new Map(all(pages).map((p) => [p.title, p]));
      const page = (title: string) => byTitle.get(title) as TreePage;
      expect(page('Billing').href).toBe(`page:${page('Account settings').id}#billing`);

      // every referenced file, whatever its name, is a space file with the same bytes
      const names = files.map((f) => f.name).sort();
      expect(names).toEqual(
        [
          'banner wide.png',
          'cover (1).png',
          'icon dark (1).svg',
          'icon_dark (1).svg',
          'icon_light.svg',
          'manual (v2).pdf',
          'openapi.yaml',
          'sign up (2).png',
        ].sort(),
      );
      for (const file of files) expect(await bytesOf(file)).toEqual(Buffer.from(REPO[`.gitbook/assets/${file.name}`] as Uint8Array));
      const fileId = (name: string) => (files.find((f) => f.name === name) as FileItem).id;

      // front matter
      expect(page('Introduction')).toMatchObject({
        description: 'Everything about Acme, from the first login to Git Sync.',
        icon: 'hand-wave',
      });
      expect(page('Introduction').cover).toEqual({ ref: { kind: 'file', file: fileId('cover (1).png') }, yPos: 40 });
      expect(page('On Linux')).toMatchObject({ hidden: true, emoji: '🐧' });

      // links with fragments are page references with their anchor; HTML and markdown images are files
      const intro = await markdownOf(T, spaceId, page('Introduction').id);
      expect(intro).toContain(`(page:${page('Troubleshooting').id}#duplicated-accounts)`);
      expect(intro).toContain(`(page:${page('Account settings').id}#billing)`);
      expect(intro).toContain(`<source srcset="file:${fileId('icon_dark (1).svg')}"`);
      expect(intro).toContain(`<img src="file:${fileId('icon_light.svg')}"`);
      const quick = await markdownOf(T, spaceId, page('Quickstart').id);
      expect(quick).toContain(`<a href="page:${page('Installation').id}" class="button primary">install the app</a>`);
      expect(quick).toContain(`<figure><img src="file:${fileId('sign up (2).png')}" alt="The sign-up form">`);
      expect(quick).toContain(`![Dark icon](file:${fileId('icon dark (1).svg')})`);
      expect(quick).toContain(`[manual](file:${fileId('manual (v2).pdf')})`);
      expect(quick).toContain(`{% file src="file:${fileId('manual (v2).pdf')}" %}`);
      expect(quick).toContain(`(page:${page('Account settings').id}#tokens)`);
      expect(quick).toContain('{% columns %}\n{% column width="50%" %}');
      expect(quick).toContain('| :--- | :---: | ---: |');
      expect(quick).toContain('{% tab title="npm" %}\n{% code title="install.sh" lineNumbers="true" %}');
      expect(quick).toContain('{% stepper %}');
      expect(quick).toContain('{% embed url="https://www.youtube.com/watch?v=dQw4w9WgXcQ" %}\nA three minute tour\n{% endembed %}');
      expect(quick).toContain(`{% content-ref url="page:${page('Installation').id}" %}`);
      const install = await markdownOf(T, spaceId, page('Installation').id);
      expect(install).toContain(`<div align="center"><img src="file:${fileId('banner wide.png')}" alt="Banner" width="600"></div>`);
      expect(install).toContain('<pre><code>&#x3C;acme-config>');
      expect(install).toContain('$$\nf(x) = x^2\n$$');
      const changelog = await markdownOf(T, spaceId, page('Changelog').id);
      expect(changelog).toContain('{% update date="2024-03-01" title="Git Sync 2" %}');
      expect(changelog).toContain(`{% openapi src="file:${fileId('openapi.yaml')}" path="/pets" method="get" %}`);

      // the include is reusable content
      const { reusableContents } = (await t.get(`/v1/spaces/${spaceId}/content`, T)).body;
      expect(reusableContents).toEqual([{ id: expect.any(String), title: 'Support contact' }]);
      const support = reusableContents[0];
      expect(quick).toContain(`{% include "reusable:${support.id}" %}`);

      // what could not be mapped is listed with its page and line
      expect(result.unmapped).toEqual([
        {
          page: 'getting-started/installation/linux.md',
          line: 10,
          source: '{% tooltip text="x" %}',
          reason: 'the block tag "tooltip" is kept as text',
        },
        {
          page: 'git-sync/troubleshooting.md',
          line: 7,
          source: '../.gitbook/assets/missing.png',
          reason: 'the referenced file was not found; the reference is kept as written',
        },
      ]);
      expect(result).toMatchObject({ totalResources: 20, importedResources: 19 });
      expect((await t.get(`/v1/spaces/${spaceId}/links`, T)).body.stats.broken.total).toBe(1);
    }
  });

  it('imports a single page with every image and file it shows', async () => {
    const { orgId, admin } = await t.org();
    const { pages, files, result } = await importInto(admin.token, orgId, `${origin}/docs/getting-started/quickstart.md`);
    expect(pages.map((p) => p.title)).toEqual(['Quickstart']);
    expect(files.map((f) => f.name).sort()).toEqual(['icon dark (1).svg', 'manual (v2).pdf', 'sign up (2).png']);
    for (const file of files) expect(await bytesOf(file)).toEqual(Buffer.from(REPO[`.gitbook/assets/${file.name}`] as Uint8Array));
    expect(result.unmapped).toEqual([
      {
        page: 'quickstart.md',
        line: 11,
        source: 'installation/',
        reason: 'links to a page this import does not hold; kept as written',
      },
      {
        page: 'quickstart.md',
        line: 22,
        source: '../account/settings.md#tokens',
        reason: 'links to a page this import does not hold; kept as written',
      },
    ]);
  });

  it('exports the same folder as .zip and .tar.gz, for a space and a change request; importing it gives the same space', async () => {
    const { orgId, admin } = await t.org();
    const T = admin.token;
    const first = await importInto(T, orgId, `${origin}/docs.zip`);
    const zip = await exported(T, `/v1/spaces/${first.spaceId}`, 'zip');
    const tar = await exported(T, `/v1/spaces/${first.spaceId}`, 'tar.gz');
    expect([...tar.keys()]).toEqual([...zip.keys()]);
    for (const [path, bytes] of zip) expect(Buffer.from(tar.get(path) as Uint8Array)).toEqual(Buffer.from(bytes));
    expect([...zip.keys()]).toContain('SUMMARY.md');
    // the first page is the root README, as git sync writes it; the emoji is front matter
    expect(new TextDecoder().decode(zip.get('README.md'))).toMatch(/^---\ndescription: Everything about Acme/);
    expect(new TextDecoder().decode(zip.get('SUMMARY.md'))).toContain('* [Introduction](README.md)');
    expect(new TextDecoder().decode(zip.get('getting-started/installation/linux.md'))).toContain('emoji: 🐧');
    expect([...zip.keys()]).toContain('getting-started/installation/README.md');
    expect([...zip.keys()]).toContain('.gitbook/assets/sign up (2).png');
    expect(Buffer.from(zip.get('.gitbook/assets/sign up (2).png') as Uint8Array)).toEqual(
      Buffer.from(REPO['.gitbook/assets/sign up (2).png'] as Uint8Array),
    );

    // import → export → import: the same tree, files and links
    served.set('/exported.zip', packZip(zip));
    const second = await importInto(T, orgId, `${origin}/exported.zip`);
    expect(outline(second.pages)).toEqual(outline(first.pages));
    expect(second.files.map((f) => f.name).sort()).toEqual(first.files.map((f) => f.name).sort());
    expect(second.result.unmapped).toHaveLength(2);
    // export → import → export: identical files
    const again = await exported(T, `/v1/spaces/${second.spaceId}`, 'zip');
    expect([...again.keys()]).toEqual([...zip.keys()]);
    for (const [path, bytes] of zip) expect(new TextDecoder().decode(again.get(path)), path).toBe(new TextDecoder().decode(bytes));

    // a change request exports its own content
    const cr = (await t.post(`/v1/spaces/${first.spaceId}/change-requests`, T, {})).body;
    const intro = first.pages[0] as TreePage;
    await t.db.transaction((tx) =>
      editBranch(tx, { spaceId: first.spaceId, changeRequestId: cr.id }, (doc) => updatePage(doc, intro.id, { title: 'Welcome' })),
    );
    const crFiles = await exported(T, `/v1/spaces/${first.spaceId}/change-requests/${cr.id}`, 'tar.gz');
    expect(new TextDecoder().decode(crFiles.get('SUMMARY.md'))).toContain('* [Welcome](');

    const reader = await t.member(orgId, 'read');
    expect((await t.get(`/v1/spaces/${first.spaceId}/content/export?format=markdown`, reader.token)).status).toBe(200);
    const bad = await t.get(`/v1/spaces/${first.spaceId}/content/export?format=docx`, T);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/format/);
    const doc = (await t.get('/v1/openapi.json')).body;
    expect(doc.paths['/v1/spaces/{spaceId}/content/export'].get['x-quire-extension']).toBe(true);
    expect(doc.paths['/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/export'].get).toBeDefined();
  });
});
