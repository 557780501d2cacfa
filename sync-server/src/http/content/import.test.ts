import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer } from '../../testing/harness';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

const BOOK: Record<string, string | Buffer> = {
  'SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Introduction](README.md)',
    '* [Getting started](getting-started/README.md)',
    '  * [Install](getting-started/install.md)',
    '',
    '## Reference',
    '',
    '* [API](reference/api.md)',
    '* [Status page](https://status.example.com)',
    '',
    '***',
    '',
    '* [Changelog](changelog.md)',
    '',
  ].join('\n'),
  'README.md':
    '---\ndescription: The book\nicon: book\n---\n\n# Welcome\n\nStart with [install](getting-started/install.md#steps).\n\n![Logo](.gitbook/assets/logo.png)\n',
  'getting-started/README.md': '# Getting started\n\nOverview.\n',
  'getting-started/install.md':
    '# Install\n\n## Steps\n\nRun it. See the [API](../reference/api.md) and the [manual](../files/manual.pdf).\n\n{% file src="../files/manual.pdf" %}\nManual\n{% endfile %}\n',
  'reference/api.md': '# API\n\nBack to [the start](../README.md).\n',
  'changelog.md': '# Changelog\n\n* First release.\n',
  '.gitbook/assets/logo.png': PNG,
  'files/manual.pdf': Buffer.from('%PDF-1.4 fake manual'),
};

async function tarGz(files: Record<string, string | Buffer>): Promise<Buffer> {
  const p = pack();
  const chunks: Buffer[] = [];
  p.on('data', (c: unknown) => chunks.push(c as Buffer));
  const done = new Promise<void>((resolve) => p.on('end', resolve));
  for (const [name, data] of Object.entries(files))
    p.entry({ name: `book-main/${name}` }, typeof data === 'string' ? Buffer.from(data) : data);
  p.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

const SITE: Record<string, string> = {
  '/site/index.html':
    '<html><head><title>Acme docs | Acme</title></head><body><nav><a href="/site/nav-only.html">Nav</a></nav><main><h1>Acme docs</h1><p>Welcome to <strong>Acme</strong>. Read the <a href="guide.html">guide</a> or the <a href="api/ref.html#auth">API auth</a>.</p><p><a href="/other/out.html">Outside</a> <a href="https://example.com/">External</a></p><ul><li>One</li><li>Two</li></ul></main></body></html>',
  '/site/guide.html':
    '<html><head><title>Guide</title></head><body><article><h1>Guide</h1><h2>Setup</h2><pre><code class="language-sh">npm install acme</code></pre><p>Back <a href="index.html">home</a>.</p><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table></article></body></html>',
  '/site/api/ref.html':
    '<html><head><title>Reference</title></head><body><main><h1>Reference</h1><h2 id="auth">Auth</h2><p>Use a token.</p></main></body></html>',
  '/site/nav-only.html': '<html><body><main><h1>Never</h1></main></body></html>',
  '/other/out.html': '<html><body><main><h1>Outside</h1></main></body></html>',
  // A chain of pages, each linking to the next (and one more) page: for the crawl bounds.
  ...Object.fromEntries(
    ['a', 'b', 'c', 'd', 'e'].map((name, i, all) => [
      `/deep/${name}.html`,
      `<html><head><title>Deep ${name}</title></head><body><main><h1>Deep ${name}</h1><p>${all
        .slice(i + 1, i + 3)
        .map((n) => `<a href="${n}.html">to ${n}</a>`)
        .join(' ')}</p></main></body></html>`,
    ]),
  ),
};

let t: TestServer;
let fixtures: Server;
let origin: string;
const served: Record<string, { type: string; body: Buffer }> = {};

beforeAll(async () => {
  t = await TestServer.start({ allowPrivateFetch: true });
  for (const [path, html] of Object.entries(SITE)) served[path] = { type: 'text/html; charset=utf-8', body: Buffer.from(html) };
  for (const [name, data] of Object.entries(BOOK)) {
    served[`/book/${name}`] = {
      type: name.endsWith('.md') ? 'text/markdown' : 'application/octet-stream',
      body: typeof data === 'string' ? Buffer.from(data) : data,
    };
  }
  served['/book.zip'] = {
    type: 'application/zip',
    body: Buffer.from(zipSync(Object.fromEntries(Object.entries(BOOK).map(([k, v]) => [k, new Uint8Array(Buffer.from(v))])))),
  };
  served['/book.tar.gz'] = { type: 'application/gzip', body: await tarGz(BOOK) };
  served['/figure/page.md'] = {
    type: 'text/markdown',
    body: Buffer.from(
      '# Diagram\n\n<figure><picture><source srcset="dark.png" media="(prefers-color-scheme: dark)"><img src="light.png" alt="Flow"></picture><figcaption><p>The flow</p></figcaption></figure>\n',
    ),
  };
  served['/figure/light.png'] = { type: 'image/png', body: PNG };
  served['/figure/dark.png'] = { type: 'image/png', body: Buffer.concat([PNG, Buffer.from([0])]) };
  served['/loose.zip'] = {
    type: 'application/zip',
    body: Buffer.from(
      zipSync({
        'README.md': new TextEncoder().encode('# Home\n\nHi.\n'),
        'guide/setup.md': new TextEncoder().encode('# Setup\n\nSteps.\n'),
      }),
    ),
  };
  fixtures = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    if (path === '/slow.md') {
      setTimeout(() => res.end('# Late\n'), 1500).unref();
      return;
    }
    const f = served[path];
    if (!f) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': f.type, 'content-length': f.body.length }).end(f.body);
  });
  await new Promise<void>((resolve) => fixtures.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(fixtures.address() as AddressInfo).port}`;
});
afterAll(async () => {
  fixtures?.close();
  await t?.close();
});

async function space(token: string, orgId: string) {
  const res = await t.post(`/v1/orgs/${orgId}/spaces`, token, { title: 'Imported' });
  return res.body as { id: string; revision: string };
}

interface TreePage {
  id: string;
  title: string;
  type: string;
  path: string;
  href?: string;
  description?: string;
  icon?: string;
  git?: { oid: string; path: string };
  pages: TreePage[];
}

const titles = (pages: TreePage[]): unknown[] => pages.map((p) => (p.pages.length ? [p.title, titles(p.pages)] : p.title));

describe('import', () => {
  it('imports a SUMMARY.md book: nesting, groups, link pages, files and page references', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const res = await t.post(`/v1/spaces/${s.id}/content/import`, admin.token, { source: 'markdown', url: `${origin}/book/SUMMARY.md` });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: 9, totalResources: 9, unmapped: [] });
    const content = await t.get(`/v1/spaces/${s.id}/content`, admin.token);
    expect(content.body.id).toBe(res.body.revision);
    expect(content.body.type).toBe('import');
    const pages = content.body.pages as TreePage[];
    expect(titles(pages)).toEqual(['Introduction', ['Getting started', ['Install']], ['Reference', ['API', 'Status page']], 'Changelog']);
    const [intro, started, reference] = pages as [TreePage, TreePage, TreePage];
    expect(intro).toMatchObject({ description: 'The book', icon: 'book' });
    expect(reference.type).toBe('group');
    expect(reference.pages[1]).toMatchObject({ type: 'link', href: 'https://status.example.com' });
    const install = started.pages[0] as TreePage;
    expect(install.path).toBe('getting-started/install');

    expect(content.body.files.map((f: { name: string }) => f.name).sort()).toEqual(['logo.png', 'manual.pdf']);
    const logo = content.body.files.find((f: { name: string }) => f.name === 'logo.png');
    expect(logo).toMatchObject({ contentType: 'image/png', size: PNG.length, dimensions: { width: 1, height: 1 } });
    const download = await t.app.request(logo.downloadURL);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);
    expect((await t.app.request(logo.downloadURL.replace(/sig=.*/, 'sig=forged'))).status).toBe(403);
    const file = await t.get(`/v1/spaces/${s.id}/content/files/${logo.id}`, admin.token);
    expect(file.body).toEqual(logo);

    const introMd = (await t.get(`/v1/spaces/${s.id}/content/page/${intro.id}?format=markdown`, admin.token)).body.markdown as string;
    expect(introMd).not.toContain('# Welcome');
    expect(introMd).toContain(`[install](page:${install.id}#steps)`);
    expect(introMd).toContain(`file:${logo.id}`);
    const links = await t.get(`/v1/spaces/${s.id}/links`, admin.token);
    expect(links.body.stats.broken.total).toBe(0);
    const backlinks = await t.get(`/v1/spaces/${s.id}/content/files/${logo.id}/backlinks`, admin.token);
    expect(backlinks.body.items.map((i: { page: { id: string } }) => i.page.id)).toEqual([intro.id]);
    const files = await t.get(`/v1/spaces/${s.id}/content/files?limit=1`, admin.token);
    expect(files.body.count).toBe(2);
    expect(files.body.next).toBeDefined();

    // Git metadata: each page and file knows its path in the folder and its git blob id
    // (what `git hash-object` prints); metadata=false leaves it out of every read.
    const readmeGit = { oid: '55613bbfd3ad2d82a554f3c4743339e3d80cb29e', path: 'README.md' };
    const logoGit = { oid: '909c66db1740b7c1b41eb4db6c414a7ab5bb6a23', path: '.gitbook/assets/logo.png' };
    expect(intro.git).toEqual(readmeGit);
    expect(install.git?.path).toBe('getting-started/install.md');
    expect(logo.git).toEqual(logoGit);
    expect((await t.get(`/v1/spaces/${s.id}/content/page/${intro.id}`, admin.token)).body.git).toEqual(readmeGit);
    const S = `/v1/spaces/${s.id}`;
    const bare = {
      content: (await t.get(`${S}/content?metadata=false`, admin.token)).body,
      pages: (await t.get(`${S}/content/pages?metadata=false`, admin.token)).body,
      page: (await t.get(`${S}/content/page/${intro.id}?metadata=false`, admin.token)).body,
      files: (await t.get(`${S}/content/files?metadata=false`, admin.token)).body,
      file: (await t.get(`${S}/content/files/${logo.id}?metadata=false`, admin.token)).body,
    };
    expect(JSON.stringify(bare)).not.toContain('"git"');
    expect(bare.content.pages.map((p: TreePage) => p.id)).toEqual(pages.map((p) => p.id));
    expect(bare.file).toEqual({ ...logo, git: undefined, downloadURL: expect.any(String) });
  });

  it('imports the same book from .zip and .tar.gz archives, and a folder without SUMMARY.md', async () => {
    const { orgId, admin } = await t.org();
    for (const archive of ['book.zip', 'book.tar.gz']) {
      const s = await space(admin.token, orgId);
      const res = await t.post(`/v1/spaces/${s.id}/content/import`, admin.token, { source: 'markdown', url: `${origin}/${archive}` });
      expect(res.status).toBe(201);
      expect(res.body.importedResources).toBe(9);
      const pages = (await t.get(`/v1/spaces/${s.id}/content/pages`, admin.token)).body.pages as TreePage[];
      expect(titles(pages)).toEqual(['Introduction', ['Getting started', ['Install']], ['Reference', ['API', 'Status page']], 'Changelog']);
      expect(pages[0]?.git).toEqual({ oid: '55613bbfd3ad2d82a554f3c4743339e3d80cb29e', path: 'README.md' });
    }
    const s = await space(admin.token, orgId);
    const loose = await t.post(`/v1/spaces/${s.id}/content/import`, admin.token, { source: 'markdown', url: `${origin}/loose.zip` });
    expect(loose.status).toBe(201);
    const pages = (await t.get(`/v1/spaces/${s.id}/content/pages`, admin.token)).body.pages as TreePage[];
    expect(titles(pages)).toEqual(['Home', ['Guide', ['Setup']]]);
  });

  it('imports one markdown file into a change request only', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const cr = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, {});
    const res = await t.post(`/v1/spaces/${s.id}/change-requests/${cr.body.id}/content/import`, admin.token, {
      source: 'markdown',
      url: `${origin}/book/getting-started/install.md`,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ importedResources: 2, totalResources: 2 });
    const crPages = await t.get(`/v1/spaces/${s.id}/change-requests/${cr.body.id}/content/pages`, admin.token);
    expect(crPages.body.pages.map((p: TreePage) => p.title)).toEqual(['Install']);
    expect((await t.get(`/v1/spaces/${s.id}/content/pages`, admin.token)).body.pages).toEqual([]);
    // The file it points at is the change request's too: listed, read by id, with its backlinks.
    const CR = `/v1/spaces/${s.id}/change-requests/${cr.body.id}/content`;
    const files = await t.get(`${CR}/files`, admin.token);
    expect(files.body.items).toMatchObject([{ name: 'manual.pdf', contentType: 'application/pdf', git: { path: 'files/manual.pdf' } }]);
    const manual = files.body.items[0];
    // Paths are given from the folder holding both the page and the file it links to.
    expect(crPages.body.pages[0].git.path).toBe('getting-started/install.md');
    expect((await t.get(`${CR}/files/${manual.id}`, admin.token)).body).toEqual(manual);
    const backlinks = await t.get(`${CR}/files/${manual.id}/backlinks`, admin.token);
    expect(backlinks.body.items.map((i: { page: { id: string } }) => i.page.id)).toEqual([crPages.body.pages[0].id]);
    expect((await t.get(`/v1/spaces/${s.id}/content/files/${manual.id}`, admin.token)).status).toBe(404);
    expect((await t.get(`/v1/spaces/${s.id}/change-requests/${cr.body.id}`, admin.token)).body.revision).toBe(res.body.revision);
  });

  it("makes space files of a figure's light and dark (<source srcset>) images", async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const res = await t.post(`/v1/spaces/${s.id}/content/import`, admin.token, { source: 'markdown', url: `${origin}/figure/page.md` });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ importedResources: 3, totalResources: 3 });
    const content = await t.get(`/v1/spaces/${s.id}/content`, admin.token);
    const files = content.body.files as { id: string; name: string }[];
    expect(files.map((f) => f.name).sort()).toEqual(['dark.png', 'light.png']);
    const id = (name: string) => files.find((f) => f.name === name)?.id;
    const page = content.body.pages[0] as TreePage;
    const md = (await t.get(`/v1/spaces/${s.id}/content/page/${page.id}?format=markdown`, admin.token)).body.markdown as string;
    expect(md).toContain(`srcset="file:${id('dark.png')}"`);
    expect(md).toContain(`src="file:${id('light.png')}"`);
  });

  it('crawls a website: same-site pages, nested by URL, links between them as page references', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const res = await t.post(`/v1/spaces/${s.id}/content/import`, admin.token, { source: 'website', url: `${origin}/site/index.html` });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ importedResources: 3, totalResources: 3 });
    const pages = (await t.get(`/v1/spaces/${s.id}/content/pages`, admin.token)).body.pages as TreePage[];
    expect(titles(pages)).toEqual([['Acme docs', ['Guide', 'Reference']]]);
    const home = pages[0] as TreePage;
    const [guide, ref] = home.pages as [TreePage, TreePage];
    const md = (await t.get(`/v1/spaces/${s.id}/content/page/${home.id}?format=markdown`, admin.token)).body.markdown as string;
    expect(md).toContain('Welcome to **Acme**.');
    expect(md).toContain(`[guide](page:${guide.id})`);
    expect(md).toContain(`[API auth](page:${ref.id}#auth)`);
    expect(md).toContain('https://example.com/');
    expect(md).not.toContain('Nav');
    const guideMd = (await t.get(`/v1/spaces/${s.id}/content/page/${guide.id}?format=markdown`, admin.token)).body.markdown as string;
    expect(guideMd).toContain('```sh\nnpm install acme\n```');
    expect(guideMd).toContain('| A | B |');
  });

  it('bounds a crawl by depth and by page count', async () => {
    const { orgId, admin } = await t.org();
    const limits = t.deps.config.content;
    const saved = { ...limits };
    const crawl = async () => {
      const s = await space(admin.token, orgId);
      const res = await t.post(`/v1/spaces/${s.id}/content/import`, admin.token, { source: 'website', url: `${origin}/deep/a.html` });
      expect(res.status).toBe(201);
      const content = await t.get(`/v1/spaces/${s.id}/content`, admin.token);
      const all: string[] = [];
      const walk = (pages: TreePage[]) => pages.forEach((p) => (all.push(p.title), walk(p.pages)));
      walk(content.body.pages);
      return { result: res.body, titles: all.sort() };
    };
    try {
      limits.crawlMaxDepth = 1;
      const shallow = await crawl();
      // a links to b and c (depth 1); their links are not followed.
      expect(shallow.titles).toEqual(['Deep a', 'Deep b', 'Deep c']);
      expect(shallow.result).toMatchObject({ importedResources: 3, totalResources: 3 });
      limits.crawlMaxDepth = 10;
      expect((await crawl()).titles).toEqual(['Deep a', 'Deep b', 'Deep c', 'Deep d', 'Deep e']);
      limits.crawlMaxPages = 2;
      const few = await crawl();
      expect(few.titles).toEqual(['Deep a', 'Deep b']);
      expect(few.result.importedResources).toBe(2);
    } finally {
      Object.assign(limits, saved);
    }
  });

  it('refuses an import into a locked space or a change request that is merged or archived', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const url = `${origin}/book/changelog.md`;
    const merged = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, {});
    expect((await t.post(`/v1/spaces/${s.id}/change-requests/${merged.body.id}/merge`, admin.token)).status).toBe(200);
    const intoMerged = await t.post(`/v1/spaces/${s.id}/change-requests/${merged.body.id}/content/import`, admin.token, {
      source: 'markdown',
      url,
    });
    expect(intoMerged.status).toBe(409);
    expect(intoMerged.body.error.message).toBe('The change request is merged: its content cannot change any more.');
    const archived = await t.post(`/v1/spaces/${s.id}/change-requests`, admin.token, {});
    await t.patch(`/v1/spaces/${s.id}/change-requests/${archived.body.id}`, admin.token, { status: 'archived' });
    const intoArchived = await t.post(`/v1/spaces/${s.id}/change-requests/${archived.body.id}/content/import`, admin.token, {
      source: 'markdown',
      url,
    });
    expect(intoArchived.status).toBe(409);
    expect((await t.get(`/v1/spaces/${s.id}/change-requests/${archived.body.id}/content/pages`, admin.token)).body.pages).toEqual([]);

    await t.patch(`/v1/spaces/${s.id}`, admin.token, { editMode: 'locked' });
    const locked = await t.post(`/v1/spaces/${s.id}/content/import`, admin.token, { source: 'markdown', url });
    expect(locked.status).toBe(409);
    expect(locked.body.error.message).toBe('The space is locked: its content cannot be changed until it is live again.');
    expect((await t.get(`/v1/spaces/${s.id}/content/pages`, admin.token)).body.pages).toEqual([]);
  });

  it('answers a clear error for a failed fetch and changes nothing', async () => {
    const { orgId, admin, members } = await t.org(['read']);
    const s = await space(admin.token, orgId);
    const path = `/v1/spaces/${s.id}/content/import`;
    const missing = await t.post(path, admin.token, { source: 'markdown', url: `${origin}/book/nope.md` });
    expect(missing.status).toBe(422);
    expect(missing.body.error.message).toBe(`Fetching ${origin}/book/nope.md failed: the server answered 404. Nothing was imported.`);
    const html = await t.post(path, admin.token, { source: 'markdown', url: `${origin}/site/index.html` });
    expect(html.status).toBe(422);
    const notHtml = await t.post(path, admin.token, { source: 'website', url: `${origin}/book/README.md` });
    expect(notHtml.status).toBe(422);
    const closed = await t.post(path, admin.token, { source: 'website', url: 'http://127.0.0.1:9/' });
    expect(closed.status).toBe(502);

    const limits = t.deps.config.content;
    const saved = { ...limits };
    try {
      limits.importTimeoutMs = 300;
      const slow = await t.post(path, admin.token, { source: 'markdown', url: `${origin}/slow.md` });
      expect(slow.status).toBe(504);
      limits.importTimeoutMs = saved.importTimeoutMs;
      limits.importMaxBytes = 100;
      const big = await t.post(path, admin.token, { source: 'markdown', url: `${origin}/book.zip` });
      expect(big.status).toBe(413);
    } finally {
      Object.assign(limits, saved);
    }

    t.deps.config.allowPrivateFetch = false;
    try {
      const refused = await t.post(path, admin.token, { source: 'markdown', url: `${origin}/book/README.md` });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(
        `Invalid body field "url": fetching ${origin}/book/README.md was refused (loopback and private addresses are not fetched unless ALLOW_PRIVATE_FETCH=true).`,
      );
    } finally {
      t.deps.config.allowPrivateFetch = true;
    }

    const badSource = await t.post(path, admin.token, { source: 'docx', url: `${origin}/book/README.md` });
    expect(badSource.status).toBe(400);
    expect(badSource.body.error.message).toMatch(/^Invalid body field "source"/);
    const badUrl = await t.post(path, admin.token, { source: 'markdown', url: 'ftp://example.com/x.md' });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error.message).toBe('Invalid body field "url": must be an http or https URL.');
    const reader = await t.post(path, members[0]!.token, { source: 'markdown', url: `${origin}/book/README.md` });
    expect(reader.status).toBe(403);

    const after = await t.get(`/v1/spaces/${s.id}/content`, admin.token);
    expect(after.body).toMatchObject({ id: s.revision, pages: [], files: [] });
  });

  it('refuses an archive whose entries each fit under IMPORT_MAX_BYTES but together unpack to more, and changes nothing', async () => {
    const { orgId, admin } = await t.org();
    const s = await space(admin.token, orgId);
    const path = `/v1/spaces/${s.id}/content/import`;
    const LIMIT = 100_000;
    // Three chapters of 40 000 bytes each (120 000 together), compressing to a few hundred bytes.
    const chapters: Record<string, string> = {
      'SUMMARY.md': '# Table of contents\n\n* [One](one.md)\n* [Two](two.md)\n* [Three](three.md)\n',
    };
    for (const name of ['one', 'two', 'three']) chapters[`${name}.md`] = `# ${name}\n\n${'All work and no play. '.repeat(40_000 / 22)}\n`;
    for (const entry of Object.values(chapters)) expect(Buffer.byteLength(entry)).toBeLessThan(LIMIT);
    served['/big.tar.gz'] = { type: 'application/gzip', body: await tarGz(chapters) };
    served['/big.zip'] = {
      type: 'application/zip',
      body: Buffer.from(zipSync(Object.fromEntries(Object.entries(chapters).map(([k, v]) => [k, new TextEncoder().encode(v)])))),
    };

    const limits = t.deps.config.content;
    const saved = { ...limits };
    try {
      limits.importMaxBytes = LIMIT;
      for (const archive of ['big.tar.gz', 'big.zip']) {
        expect(served[`/${archive}`]!.body.length, archive).toBeLessThan(LIMIT);
        const refused = await t.post(path, admin.token, { source: 'markdown', url: `${origin}/${archive}` });
        expect([413, 422], archive).toContain(refused.status);
        expect(refused.body.error.message, archive).toMatch(/more than 100000 bytes.*Nothing was imported\.$/);
        const after = await t.get(`/v1/spaces/${s.id}/content`, admin.token);
        expect(after.body, archive).toMatchObject({ id: s.revision, pages: [], files: [] });
      }
      // The same archives fit a limit above what they unpack to.
      limits.importMaxBytes = 4 * LIMIT;
      for (const archive of ['big.tar.gz', 'big.zip']) {
        const other = await space(admin.token, orgId);
        const imported = await t.post(`/v1/spaces/${other.id}/content/import`, admin.token, {
          source: 'markdown',
          url: `${origin}/${archive}`,
        });
        expect(imported.status, archive).toBe(201);
        const pages = (await t.get(`/v1/spaces/${other.id}/content/pages`, admin.token)).body.pages as TreePage[];
        expect(titles(pages), archive).toEqual(['One', 'Two', 'Three']);
      }
    } finally {
      Object.assign(limits, saved);
    }
  });
});
