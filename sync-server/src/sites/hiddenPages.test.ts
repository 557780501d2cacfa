import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, TestServer, type TestUser } from '../testing/harness';
import { call, listen, mcpClient } from '../testing/mcpClients';
import { writePages } from '../testing/testContent';

/**
 * A hidden page hides what sits below it: its children and their children are left out of
 * everything the published site lists, and answer at their own addresses as the hidden page
 * itself does.
 */

let t: TestServer;
let http: Awaited<ReturnType<typeof listen>>;
let orgId: string;
let admin: TestUser;
const clients: Client[] = [];

/** Words only the pages under the hidden one hold, and their titles. */
const BELOW = ['Hidden child', 'Hidden grandchild', 'childword', 'grandchildword'];
const CHILD = 'hidden-parent/hidden-child';
const GRANDCHILD = 'hidden-parent/hidden-child/hidden-grandchild';

async function publish(title: string, spaceId: string): Promise<string> {
  const created = await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title, spaces: [spaceId] });
  expect(created.status).toBe(200);
  expect((await t.post(`/v1/orgs/${orgId}/sites/${created.body.id}/publish`, admin.token)).status).toBe(200);
  return `/s/${orgId}/${created.body.basename}`;
}

async function space(title: string, pages: Parameters<typeof writePages>[2]): Promise<string> {
  const id = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title })).body.id as string;
  await writePages(t.db, id, pages);
  return id;
}

const below = [
  { title: 'Hidden parent', hidden: true, markdown: 'parentword lives here.\n' },
  { title: 'Hidden child', parentTitle: 'Hidden parent', markdown: 'childword lives here.\n' },
  { title: 'Hidden grandchild', parentTitle: 'Hidden child', markdown: 'grandchildword lives here.\n' },
];

let root: string;

beforeAll(async () => {
  t = await TestServer.start();
  http = await listen(t.app.fetch);
  const org = await t.org();
  orgId = org.orgId;
  admin = org.admin;
  const docs = await space('Docs', [
    { title: 'Welcome', markdown: 'Start here.\n' },
    ...below,
    { title: 'Visible after', markdown: 'visibleword lives here.\n' },
  ]);
  root = await publish('Hidden docs', docs);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await http?.close();
  await t?.close();
});

const get = (path: string): Promise<Answer<string>> => t.request('GET', path);
const searchJson = (q: string) => t.request('GET', `${root}/~search?q=${q}`, { headers: { accept: 'application/json' } });

function expectNothingBelow(text: string, where: string) {
  for (const word of [...BELOW, CHILD]) expect(text, `${word} in ${where}`).not.toContain(word);
}

describe('pages below a hidden page', () => {
  it('are left out of the navigation, the pager and every page', async () => {
    for (const path of ['/', '/welcome', '/visible-after', '/hidden-parent']) {
      const page = await get(`${root}${path}`);
      expect(page.status, path).toBe(200);
      expectNothingBelow(page.body, path);
    }
    // The pager goes from the page before the hidden one to the page after them all.
    expect((await get(`${root}/`)).body).toMatch(/rel="next"><small>Next<\/small><span>Visible after<\/span>/);
    expect((await get(`${root}/visible-after`)).body).toMatch(/rel="prev"><small>Previous<\/small><span>Welcome<\/span>/);
  });

  it('answer at their own address, as page and as markdown, as the hidden page does', async () => {
    const parent = await get(`${root}/hidden-parent`);
    const parentMd = await get(`${root}/hidden-parent.md`);
    for (const [path, word] of [
      [CHILD, 'childword'],
      [GRANDCHILD, 'grandchildword'],
    ] as const) {
      const page = await get(`${root}/${path}`);
      expect(page.status, path).toBe(parent.status);
      expect(page.body.includes(word), path).toBe(parent.body.includes('parentword'));
      const md = await get(`${root}/${path}.md`);
      expect(md.status, `${path}.md`).toBe(parentMd.status);
      expect(md.body.includes(word), `${path}.md`).toBe(parentMd.body.includes('parentword'));
    }
  });

  it('are left out of llms.txt, llms-full.txt and the sitemap', async () => {
    const llms = await get(`${root}/llms.txt`);
    expect(llms.body).toContain('Visible after');
    expectNothingBelow(llms.body, 'llms.txt');
    const full = await get(`${root}/llms-full.txt`);
    expect(full.body).toContain('visibleword');
    expectNothingBelow(full.body, 'llms-full.txt');
    expect(full.body).not.toContain('parentword');
    const sitemap = await get(`${root}/sitemap.xml`);
    expect(sitemap.body).toContain('/visible-after<');
    expectNothingBelow(sitemap.body, 'sitemap.xml');
    expect(sitemap.body).not.toContain('hidden-parent');
  });

  it('are never found by search', async () => {
    expect((await searchJson('visibleword')).body.results).toHaveLength(1);
    for (const q of ['parentword', 'childword', 'grandchildword', 'hidden']) {
      expect((await searchJson(q)).body.results, q).toEqual([]);
      const html = await get(`${root}/~search?q=${q}`);
      expect(html.status).toBe(200);
      expect(html.body, q).not.toContain(`${q} lives here`);
      expect(html.body, q).not.toContain(CHILD);
    }
  });

  it('are left out of the MCP server: list_pages, search_site, resources; read_page answers as for the hidden page', async () => {
    const client = await mcpClient(`${http.base}${root}/~mcp`);
    clients.push(client);
    const list = await call(client, 'list_pages');
    const titles = list.json.sections.flatMap((s: { variants: { pages: { title: string }[] }[] }) =>
      s.variants.flatMap((v) => v.pages.map((p) => p.title)),
    );
    expect(titles).toEqual(['Welcome', 'Visible after']);
    for (const q of ['parentword', 'childword', 'grandchildword']) {
      expect((await call(client, 'search_site', { query: q })).json.results, q).toEqual([]);
    }
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.name)).toEqual(['Welcome', 'Visible after']);

    const parent = await call(client, 'read_page', { page: '/hidden-parent' });
    for (const [path, word] of [
      [CHILD, 'childword'],
      [GRANDCHILD, 'grandchildword'],
    ] as const) {
      const read = await call(client, 'read_page', { page: `/${path}` });
      expect(read.isError, path).toBe(parent.isError);
      expect(read.text.includes(word), path).toBe(parent.text.includes('parentword'));
    }
  });

  it('never become the root page of the site', async () => {
    const hiddenFirst = await space('Hidden first', [...below, { title: 'First shown', markdown: 'shownword lives here.\n' }]);
    const otherRoot = await publish('Hidden first docs', hiddenFirst);
    const home = await get(`${otherRoot}/`);
    expect(home.status).toBe(200);
    expect(home.body).toContain('shownword');
    expectNothingBelow(home.body, 'the root page');
  });
});
