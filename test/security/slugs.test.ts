import { addFile, createPage, createReusableContent } from '@quire/shared/content/index';
import { pagesMap } from '@quire/shared/content/layout';
import { newId } from '@quire/shared/ids';
import { spaceRoom } from '@quire/shared/sync';
import { unzipSync, zipSync } from 'fflate';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { extract } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { acknowledged, synced, withBearer } from '../../sync-server/src/testing/syncClients';
import { World } from './world';

/**
 * Slugs are written by any editor over sync, straight into the document. Hostile ones
 * (`../../x`, `/abs`, `..\win`) must never become a path: not an archive entry of an
 * export, not a site link, llms.txt, sitemap or search result, not an MCP page list.
 */
const HOSTILE = ['../../../../../tmp/x', '/tmp/abs', '..\\..\\win', '..', '.', '%2e%2e/enc'];

let w: World;
let space: string;
let site: { id: string; basename: string };
let fileId: string;
let fixtures: Server;
let origin: string;
const served = new Map<string, Uint8Array>();

/** Every path-like string: a `..` segment (raw or encoded), a leading slash or a backslash. */
function escapes(path: string): boolean {
  const decoded = decodeURIComponent(path);
  return /(^|[/\\])\.\.?([/\\]|$)/.test(decoded) || /^[/\\]/.test(decoded) || decoded.includes('\\');
}

async function tarNames(bytes: Buffer): Promise<string[]> {
  const names: string[] = [];
  const ex = extract();
  const done = new Promise<void>((resolve, reject) => {
    ex.on('entry', (header, stream, next) => {
      names.push(header.name);
      stream.on('end', next);
      stream.resume();
    });
    ex.on('finish', resolve);
    ex.on('error', reject);
  });
  ex.end(gunzipSync(bytes));
  await done;
  return names;
}

async function download(path: string, token: string): Promise<Buffer> {
  const res = await fetch(`${w.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status, path).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

beforeAll(async () => {
  fixtures = createServer((req, res) => {
    const body = served.get(req.url ?? '');
    if (body) res.writeHead(200).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => fixtures.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(fixtures.address() as AddressInfo).port}`;
  w = await World.start({ QUIET_MS: '200', ALLOW_PRIVATE_FETCH: 'true' });
  space = await w.space(w.a, 'Hostile slugs');
  fileId = newId();
  const uploaded = await w.request('PUT', `/v1/spaces/${space}/content/files/${fileId}?name=..`, {
    token: w.a.writer.token,
    raw: 'not much',
    headers: { 'content-type': 'text/plain' },
  });
  expect(uploaded.status, uploaded.text).toBe(201);

  // A writer's own client, writing the keys of the layout as it pleases.
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(`${w.url.replace(/^http/, 'ws')}/v1/sync`, spaceRoom(space), doc, {
    WebSocketPolyfill: withBearer(w.a.writer.token) as never,
    disableBc: true,
  });
  await synced(provider);
  const setSlug = (id: string, slug: string) => (pagesMap(doc).get(id) as Y.Map<unknown>).set('slug', slug);
  doc.transact(() => {
    const home = createPage(doc, { title: 'Home', markdown: 'Welcome.\n' });
    for (const [i, slug] of HOSTILE.entries()) {
      const id = createPage(doc, { title: `Page ${i}`, markdown: `Body ${i}.\n` });
      setSlug(id, slug);
    }
    const parent = createPage(doc, { title: 'Parent', markdown: 'Parent.\n' });
    setSlug(parent, '../..');
    const child = createPage(doc, { title: 'Child', markdown: 'Child.\n', parent });
    setSlug(child, '/etc/passwd');
    setSlug(home, 'home');
    createReusableContent(doc, { id: '../../../../tmp/include', title: '???', markdown: 'Shared.\n' });
    addFile(doc, { id: fileId, name: '..', contentType: 'text/plain', size: 8 });
  });
  await acknowledged(provider);
  provider.destroy();
  doc.destroy();

  // Live edits reach REST reads once they go quiet.
  for (let i = 0; ; i++) {
    const pages = await w.get(`/v1/spaces/${space}/content/pages`, w.a.admin.token);
    if (JSON.stringify(pages.body).includes('/etc/passwd') || JSON.stringify(pages.body).includes('Child')) break;
    if (i > 200) throw new Error('the live edits never reached the REST reads');
    await new Promise((r) => setTimeout(r, 100));
  }
  const created = await w.post(`/v1/orgs/${w.a.orgId}/sites`, w.a.admin.token, { title: 'Docs', spaces: [space], visibility: 'public' });
  expect(created.status, created.text).toBe(200);
  site = created.body;
  expect((await w.post(`/v1/orgs/${w.a.orgId}/sites/${site.id}/publish`, w.a.admin.token)).status).toBe(200);
});
afterAll(async () => {
  await w?.stop();
  fixtures?.close();
});

describe('slugs written over sync', () => {
  it('are read as slugs by the REST API: the pages, their paths and search', async () => {
    const pages = await w.get(`/v1/spaces/${space}/content/pages`, w.a.admin.token);
    const flat: { slug: string; path: string; pages: unknown[] }[] = [];
    const walk = (list: { slug: string; path: string; pages: unknown[] }[]) => {
      for (const p of list) {
        flat.push(p);
        walk(p.pages as never);
      }
    };
    walk(pages.body.pages);
    expect(flat.length).toBe(HOSTILE.length + 3);
    for (const p of flat) {
      expect(p.slug).toMatch(/^[\p{L}\p{N}]+(-[\p{L}\p{N}]+)*$/u);
      expect(escapes(p.path), p.path).toBe(false);
    }
    expect(flat.map((p) => p.path)).toContain('tmp-x');

    const found = await w.get(`/v1/spaces/${space}/search?query=Body`, w.a.admin.token);
    expect(found.status).toBe(200);
    expect(found.body.items.length).toBeGreaterThan(0);
    for (const hit of found.body.items) expect(escapes(hit.path), hit.path).toBe(false);
  });

  it('never name an entry outside the archive of an export, zip or tar.gz', async () => {
    const zip = unzipSync(new Uint8Array(await download(`/v1/spaces/${space}/content/export?format=markdown`, w.a.admin.token)));
    const tgz = await tarNames(await download(`/v1/spaces/${space}/content/export?format=markdown&archive=tar.gz`, w.a.admin.token));
    for (const names of [Object.keys(zip), tgz]) {
      expect(names).toContain('SUMMARY.md');
      expect(names.filter((n) => n.startsWith('.gitbook/assets/'))).toHaveLength(1);
      expect(names.filter((n) => n.startsWith('.gitbook/includes/'))).toHaveLength(1);
      expect(names.filter(escapes)).toEqual([]);
      expect(names.filter((n) => n.split('/').some((segment) => segment === '' || segment === '.' || segment === '..'))).toEqual([]);
    }
    expect(Object.keys(zip)).toContain('tmp-x.md');
    const summary = new TextDecoder().decode(zip['SUMMARY.md']);
    for (const [, target] of summary.matchAll(/\]\(([^)]+)\)/g)) expect(escapes(target as string), target).toBe(false);
  });

  it("never leave the site's base: links, llms.txt, sitemap, search and ~mcp list_pages", async () => {
    const base = `/s/${w.a.orgId}/${site.basename}`;
    const home = await w.get(`${base}/`);
    expect(home.status).toBe(200);
    const links = [...home.text.matchAll(/href="([^"]+)"/g)].map((m) => m[1] as string).filter((h) => h.startsWith(`${base}/`));
    expect(links.length).toBeGreaterThan(HOSTILE.length);
    for (const link of links) expect(escapes(link.slice(base.length + 1)), link).toBe(false);
    expect(links).toContain(`${base}/tmp-x`);

    const pagePaths = (text: string) =>
      [...text.matchAll(/https?:\/\/[^\s)<"]+/g)].map((m) => new URL(m[0]).pathname).filter((p) => p.startsWith(`${base}/`));
    for (const doc of ['llms.txt', 'sitemap.xml']) {
      const res = await w.get(`${base}/${doc}`);
      expect(res.status, doc).toBe(200);
      const paths = pagePaths(res.text);
      expect(paths.length, doc).toBeGreaterThan(HOSTILE.length);
      for (const p of paths) expect(escapes(p.slice(base.length + 1)), `${doc}: ${p}`).toBe(false);
      expect(res.text, doc).not.toMatch(/\.\.|\\/);
    }

    const search = await w.get(`${base}/~search?q=Body`, undefined, { accept: 'application/json' });
    expect(search.body.results.length).toBeGreaterThan(0);
    for (const hit of search.body.results) expect(escapes(String(hit.url).replace(/^.*?\/s\/[^/]+\/[^/]+\//, '')), hit.url).toBe(false);

    const listed = await w.request('POST', `${base}/~mcp`, {
      raw: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_pages', arguments: {} } }),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    expect(listed.status, listed.text).toBe(200);
    const pages = listed.body.result.structuredContent.sections.flatMap((s: any) => s.variants.flatMap((v: any) => v.pages));
    expect(pages.length).toBe(HOSTILE.length + 3);
    for (const p of pages) {
      for (const url of [p.url, p.markdownUrl]) {
        const path = new URL(url).pathname;
        expect(path.startsWith(`${base}/`), url).toBe(true);
        expect(escapes(path.slice(base.length + 1)), url).toBe(false);
      }
    }
  });
});

describe('slugs from an import', () => {
  // The import makes slugs through the content model already; this keeps it so.
  it('are slugs whatever the archive names its files and anchors', async () => {
    const text = (t: string) => new TextEncoder().encode(t);
    served.set(
      '/hostile.zip',
      zipSync({
        'SUMMARY.md': text(
          '# Table of contents\n\n* [Home](README.md)\n* [Out](../../../../tmp/out.md)\n* [Back](..\\..\\back.md)\n\n## Group <a href="#../../grp" id="../../grp"></a>\n\n* [Deep](/etc/passwd.md)\n',
        ),
        'README.md': text('# Home\n\nHello.\n'),
        '../../../../tmp/out.md': text('# Out\n\nOut.\n'),
        '/etc/passwd.md': text('# Deep\n\nDeep.\n'),
      }),
    );
    const imported = await w.space(w.a, 'Imported');
    const res = await w.post(`/v1/spaces/${imported}/content/import`, w.a.admin.token, {
      source: 'markdown',
      url: `${origin}/hostile.zip`,
    });
    expect(res.status, res.text).toBe(201);
    const pages = await w.get(`/v1/spaces/${imported}/content/pages`, w.a.admin.token);
    const paths: string[] = [];
    const walk = (list: { path: string; slug: string; pages: never[] }[]) => {
      for (const p of list) {
        paths.push(p.path);
        expect(p.slug).toMatch(/^[\p{L}\p{N}]+(-[\p{L}\p{N}]+)*$/u);
        walk(p.pages);
      }
    };
    walk(pages.body.pages);
    expect(paths).toEqual(['home', 'out', 'back', 'grp', 'grp/passwd']);
  });
});
