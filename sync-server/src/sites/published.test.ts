import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import { type HTMLElement, parse } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TestDnsServer } from '../testing/dnsServer';
import { call } from '../testing/mcpClients';
import { type Answer, TestServer, type TestUser } from '../testing/harness';
import { rewritePage, writePages, xssDocument } from '../testing/testContent';

let t: TestServer;
let orgId: string;
let admin: TestUser;
let guides: string;
let guidesV2: string;
let api: string;
let site: { id: string; basename: string; shareKey: string; visitorAuth: { signingKey: string } };
let root: string;
let apiSectionId: string;
let welcomeId: string;

const XSS_TITLE = '<img src=x onerror=alert(1)>Tricky';

let dns: TestDnsServer;

beforeAll(async () => {
  dns = await TestDnsServer.start();
  t = await TestServer.start({ hostnameDnsServers: [dns.address] });
  const org = await t.org();
  orgId = org.orgId;
  admin = org.admin;
  const space = async (title: string) => (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title })).body.id as string;
  guides = await space('Guides v1');
  guidesV2 = await space('Guides v2');
  api = await space('API');
  [welcomeId] = (await writePages(t.db, guides, [
    {
      title: 'Welcome',
      description: 'Start here',
      markdown:
        '# Overview\n\nQuire keeps **docs** close.\n\n## Install\n\nRun `npm install quire`.\n\n{% hint style="warning" %}\nBack up first.\n{% endhint %}\n',
    },
    { title: 'Install guide', markdown: 'Download the zeppelin package.\n\n## Linux\n\nUse apt.\n' },
    { title: 'Advanced', type: 'group' },
    { title: 'Tuning', parentTitle: 'Advanced', markdown: 'Tune the flux capacitor.\n' },
    { title: 'Secret plans', hidden: true, markdown: 'hidden zeppelin text\n' },
    { title: 'Draft notes', noIndex: true, markdown: 'Not for robots.\n' },
    {
      title: XSS_TITLE,
      markdown: [
        '<script>alert("body")</script>',
        '',
        '[click me](javascript:alert(1)) and [fine](https://example.com)',
        '',
        '![x](javascript:alert(2))',
        '',
        '<img src=x onerror=alert(3)>',
        '',
        '"><svg onload=alert(4)>',
      ].join('\n'),
    },
    { title: 'Editor corpus', document: xssDocument() as never },
  ])) as [string];
  await writePages(t.db, guidesV2, [
    { title: 'Welcome', markdown: 'Version two of the zeppelin guide.\n' },
    { title: 'Install guide', markdown: 'v2 install\n' },
  ]);
  await writePages(t.db, api, [{ title: 'API overview', markdown: 'The REST API.\n\n## Authentication\n\nSend a bearer token.\n' }]);

  const created = await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Acme Docs', spaces: [guides] });
  site = created.body;
  const base = `/v1/orgs/${orgId}/sites/${site.id}`;
  await t.post(`${base}/site-spaces`, admin.token, { spaceId: guidesV2 });
  apiSectionId = (await t.post(`${base}/sections`, admin.token, { spaceId: api, title: 'API Reference' })).body.id;
  const ss = (await t.get(`${base}/site-spaces`, admin.token)).body.items;
  await t.patch(`${base}/site-spaces/${ss.find((x: { space: { id: string } }) => x.space.id === guidesV2).id}`, admin.token, {
    path: 'v2',
  });
  await t.put(`${base}/customization`, admin.token, {
    title: 'Acme <b>Docs</b>',
    favicon: { emoji: '📘' },
    announcement: {
      enabled: true,
      message: 'Version 2 <i>is</i> out',
      style: 'success',
      link: { title: 'Read more', to: { kind: 'site-section', siteSection: apiSectionId } },
    },
    header: {
      links: [
        { title: 'Status', to: { kind: 'url', url: 'https://status.example.com' } },
        { title: 'Pro only', to: { kind: 'url', url: 'https://pro.example.com' }, condition: 'visitor.claims.plan == "pro"' },
      ],
    },
    footer: {
      groups: [{ title: 'Company', links: [{ title: 'About us', to: { kind: 'url', url: 'https://acme.example.com/about' } }] }],
      copyright: '© Acme Inc.',
    },
  });
  await t.post(`${base}/redirects`, admin.token, {
    source: '/old-api',
    destination: { kind: 'site-section', siteSectionId: apiSectionId },
  });
  await t.post(`${base}/publish`, admin.token);
  root = `/s/${orgId}/${site.basename}`;
});
afterAll(async () => {
  dns?.close();
  await t?.close();
});

const get = (path: string, headers: Record<string, string> = {}) => t.request('GET', path, { headers });
const cookieOf = (res: Answer) => (res.headers.get('set-cookie') ?? '').split(';')[0] as string;

describe('published site pages', () => {
  it('serves the first page of the default variant at the root, with a strict CSP and escaped text', async () => {
    const res = await get(`${root}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') as string;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]{44}'/);
    expect(csp).not.toContain('unsafe-inline');
    const html = res.body as string;
    expect(html).toContain(`<script src="${root}/~assets/site.`);
    // The CSP's hash is that of the page's one inline style: no other inline style runs.
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] as string;
    expect(csp).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(html).toContain('<h1 class="page-title">Welcome</h1>');
    expect(html).toContain('Acme &lt;b&gt;Docs&lt;/b&gt;');
    expect(html).not.toContain('<b>Docs</b>');
    expect(html).toContain('Version 2 &lt;i&gt;is&lt;/i&gt; out');
    expect(html).toContain('<h2 id="overview" class="heading">');
    expect(html).toContain('class="hint hint-warning"');
    expect(html).toContain('href="https://status.example.com"');
    expect(html).not.toContain('pro.example.com');
    expect(html).toContain('© Acme Inc.');
    expect(html).toContain('<meta property="og:title"');
    expect(html).toContain(`href="${root}/welcome.md"`);
    // Sections as tabs, the variant switcher, the page tree with groups, hidden pages left out.
    expect(html).toContain(`href="${root}/api-reference/"`);
    expect(html).toContain(`href="${root}/v2/"`);
    expect(html).toContain('<div class="group-title">Advanced</div>');
    expect(html).not.toContain('Secret plans');
    expect(html).toMatch(/rel="next"><small>Next<\/small><span>Install guide<\/span>/);
    // The cached page answers the same bytes and policy again.
    const again = await get(`${root}/`);
    expect(again.headers.get('content-security-policy')).toBe(csp);
    expect(again.body).toBe(html);
  });

  it('serves every page at its slug path, other sections and variants at theirs, and markdown at .md', async () => {
    const page = await get(`${root}/install-guide`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('zeppelin package');
    expect(page.body).toMatch(/rel="prev"><small>Previous<\/small><span>Welcome<\/span>/);
    const nested = await get(`${root}/advanced/tuning`);
    expect(nested.body).toContain('flux capacitor');
    expect(nested.body).toContain('<p class="breadcrumb">Acme Docs <span aria-hidden="true">/</span> Advanced</p>');
    const hidden = await get(`${root}/secret-plans`);
    expect(hidden.status).toBe(200);
    const section = await get(`${root}/api-reference/`);
    expect(section.body).toContain('Send a bearer token');
    expect(section.body).toMatch(/<a href="[^"]*api-reference\/" aria-current="page">API Reference<\/a>/);
    const variant = await get(`${root}/v2/install-guide`);
    expect(variant.body).toContain('v2 install');
    const md = await get(`${root}/welcome.md`);
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(md.body).toContain('# Welcome\n\n> Start here\n\n# Overview');
    expect(md.body).toContain('{% hint style="warning" %}');
    expect((await get(`${root}/api-reference/api-overview.md`)).body).toContain('Send a bearer token.');
  });

  it('never lets script from page content through', async () => {
    const res = await get(`${root}/img-src-x-onerror-alert-1-tricky`);
    expect(res.status).toBe(200);
    const html = res.body as string;
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;Tricky');
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(html).not.toMatch(/<svg[^>]*onload/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).not.toMatch(/src="javascript:/i);
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('href="https://example.com"');
    // A body written by an editor, with script in every attribute: parsed as a browser would.
    const editor = parse((await get(`${root}/editor-corpus`)).body as string);
    const main = editor.querySelector('main') as HTMLElement;
    expect(main.querySelector('h3')?.textContent).toBe('<script>alert("heading")</script>#');
    expect(main.querySelectorAll('script')).toHaveLength(0);
    for (const node of main.querySelectorAll('*')) {
      for (const [name, value] of Object.entries(node.attributes)) {
        expect(name, node.outerHTML).not.toMatch(/^on/i);
        if (name === 'href' || name === 'src') expect(value.trim()).not.toMatch(/^(javascript|vbscript|data):/i);
      }
    }
    expect(main.querySelector('img')?.getAttribute('alt')).toBe('"><script>alert(8)</script>');
    expect(main.querySelector('.hint')?.getAttribute('class')).toBe('hint hint-info');
    const md = (await get(`${root}/img-src-x-onerror-alert-1-tricky.md`)).body as string;
    // Written back as escaped text, which no markdown reader turns into a link.
    expect(md).not.toMatch(/(?<!\\)\]\(javascript:/i);
  });

  it('answers a real 404 page, and 404 for unknown or unpublished sites', async () => {
    const res = await get(`${root}/does/not/exist`);
    expect(res.status).toBe(404);
    expect(res.body).toContain('Page not found');
    expect(res.body).toContain('class="site-header"');
    expect((await get(`/s/${orgId}/nope/`)).status).toBe(404);
    const draft = await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Draft site', spaces: [guides] });
    const unpublished = await get(`/s/${orgId}/${draft.body.basename}/`);
    expect(unpublished.status).toBe(404);
    expect(unpublished.body).not.toContain('Welcome');
    expect((await get(`/s/${orgId}/${site.basename}`)).status).toBe(308);
    // Paths no site could have are a plain 404 too, never a server error.
    for (const path of [
      '/s/%ZZ/docs/',
      `/s/${orgId}/%ZZ/`,
      `/s/${orgId}/a%00b/`,
      `/s/${'o'.repeat(300)}/docs/`,
      `${root}/%ZZ`,
      `${root}/%00`,
    ]) {
      expect((await get(path)).status, path).toBe(404);
    }
  });

  it('stops serving a site once it is deleted', async () => {
    const doomed = await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Short lived', spaces: [guides] });
    await t.post(`/v1/orgs/${orgId}/sites/${doomed.body.id}/publish`, admin.token);
    const r = `/s/${orgId}/${doomed.body.basename}`;
    expect((await get(`${r}/install-guide`)).status).toBe(200);
    expect((await t.delete(`/v1/orgs/${orgId}/sites/${doomed.body.id}`, admin.token)).status).toBe(204);
    for (const path of ['/install-guide', '/welcome.md', '/sitemap.xml', '/llms.txt']) {
      const res = await get(`${r}${path}`);
      expect(res.status, path).toBe(404);
      expect(String(res.body)).not.toContain('zeppelin');
    }
  });

  it('redirects with 301 (308 keeping a method) and resolves the same through the API', async () => {
    const res = await get(`${root}/old-api`);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`${root}/api-reference/`);
    const post = await t.request('POST', `${root}/old-api`);
    expect(post.status).toBe(308);
    expect((await t.request('POST', `${root}/`)).status).toBe(405);
  });

  it('lists pages in sitemap.xml, robots.txt, llms.txt and llms-full.txt, leaving hidden and noIndex pages out', async () => {
    const sitemap = (await get(`${root}/sitemap.xml`)).body as string;
    expect(sitemap).toContain(`<loc>http://quire.test${root}/</loc>`);
    expect(sitemap).toContain(`<loc>http://quire.test${root}/install-guide</loc>`);
    expect(sitemap).toContain(`<loc>http://quire.test${root}/v2/install-guide</loc>`);
    expect(sitemap).toContain(`<loc>http://quire.test${root}/api-reference/</loc>`);
    expect(sitemap).not.toContain('secret-plans');
    expect(sitemap).not.toContain('draft-notes');
    const robots = (await get(`${root}/robots.txt`)).body as string;
    expect(robots).toContain(`Disallow: ${root}/draft-notes`);
    expect(robots).toContain(`Sitemap: http://quire.test${root}/sitemap.xml`);
    const noindex = await get(`${root}/draft-notes`);
    expect(noindex.body).toContain('<meta name="robots" content="noindex">');
    expect(noindex.headers.get('x-robots-tag')).toBe('noindex');
    const llms = (await get(`${root}/llms.txt`)).body as string;
    expect(llms).toMatch(/^# Acme Docs\n/);
    expect(llms).toContain(`- [Install guide](http://quire.test${root}/install-guide.md)`);
    expect(llms).toContain('## API Reference');
    expect(llms).not.toContain('Secret plans');
    const full = (await get(`${root}/llms-full.txt`)).body as string;
    expect(full).toContain('Send a bearer token.');
    expect(full).not.toContain('hidden zeppelin text');
  });

  it('searches the whole site (JSON for the script, HTML without it), showing the section', async () => {
    const json = await t.request('GET', `${root}/~search?q=zeppelin`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(200);
    const results = json.body.results as { title: string; section: string; url: string; snippet: string }[];
    expect(results.map((r) => r.url).sort()).toEqual([`${root}/install-guide`, `${root}/v2/`].sort());
    // The section is named after the site (it gathered the site's first spaces), then the variant.
    expect(results.find((r) => r.url === `${root}/v2/`)?.section).toBe('Acme Docs · Guides v2');
    const heading = await t.request('GET', `${root}/~search?q=authentication`, { headers: { accept: 'application/json' } });
    expect(heading.body.results[0]).toMatchObject({
      title: 'API overview',
      heading: 'Authentication',
      section: 'API Reference',
      url: `${root}/api-reference/#authentication`,
    });
    const page = await get(`${root}/~search?q=${encodeURIComponent('<script>zeppelin')}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('&lt;script&gt;zeppelin');
  });

  it('shows content and customization changes on the next request', async () => {
    await rewritePage(t.db, guides, welcomeId, 'Brand new intro text.\n');
    expect((await get(`${root}/`)).body).toContain('Brand new intro text.');
    await t.patch(
      `/v1/orgs/${orgId}/sites/${site.id}/site-spaces/${(await t.get(`/v1/orgs/${orgId}/sites/${site.id}/site-spaces?default=true`, admin.token)).body.items[0].id}/customization`,
      admin.token,
      {
        announcement: { message: 'Overridden banner' },
      },
    );
    expect((await get(`${root}/`)).body).toContain('Overridden banner');
    // The site's own settings, read back and written whole (a client's read-modify-write).
    const settings = `/v1/orgs/${orgId}/sites/${site.id}/customization`;
    const current = (await t.get(settings, admin.token)).body;
    const changed = await t.put(settings, admin.token, { ...current, footer: { ...current.footer, copyright: '© Acme 2031' } });
    expect(changed.status).toBe(200);
    expect((await get(`${root}/install-guide`)).body).toContain('© Acme 2031');
    expect((await t.put(settings, admin.token, current)).status).toBe(200);
    expect((await get(`${root}/install-guide`)).body).toContain('© Acme Inc.');
    // The structure: a section renamed shows renamed on the next request.
    const section = `/v1/orgs/${orgId}/sites/${site.id}/sections/${apiSectionId}`;
    await t.patch(section, admin.token, { title: 'REST API' });
    expect((await get(`${root}/install-guide`)).body).toMatch(/<a href="[^"]*api-reference\/"[^>]*>REST API<\/a>/);
    await t.patch(section, admin.token, { title: 'API Reference' });
    expect((await get(`${root}/install-guide`)).body).not.toContain('REST API');
  });

  it('serves the site at its own hostname once its DNS names the site', async () => {
    await t.patch(`/v1/orgs/${orgId}/sites/${site.id}`, admin.token, { hostname: 'docs.acme-example.com' });
    // Not proven yet: the name is not served, the site stays under its organization's path.
    expect((await t.request('GET', '/install-guide', { headers: { host: 'docs.acme-example.com' } })).status).toBe(404);
    dns.prove('docs.acme-example.com', site.id);
    await t.patch(`/v1/orgs/${orgId}/sites/${site.id}`, admin.token, { hostname: 'docs.acme-example.com' });
    const res = await t.request('GET', '/install-guide', { headers: { host: 'docs.acme-example.com' } });
    expect(res.status).toBe(200);
    expect(res.body).toContain('zeppelin package');
    expect(res.body).toContain('<link rel="canonical" href="http://docs.acme-example.com/install-guide">');
    expect((await t.request('GET', '/v1/orgs', { headers: { host: 'docs.acme-example.com' } })).status).toBe(401);
    expect((await t.request('GET', '/install-guide', { headers: { host: 'other.example.com' } })).status).toBe(404);

    // its MCP server answers at the hostname's root too, with the site's own links
    const client = new Client({ name: 'quire-test', version: '1.0.0' });
    const viaApp = async (url: string | URL, init?: RequestInit) => {
      const req = new Request(url, init);
      req.headers.set('host', new URL(req.url).host);
      return t.app.fetch(req);
    };
    await client.connect(new StreamableHTTPClientTransport(new URL('http://docs.acme-example.com/~mcp'), { fetch: viaApp }));
    const found = (await call(client, 'search_site', { query: 'zeppelin package' })).json;
    expect(found.results[0]).toMatchObject({ title: 'Install guide', url: 'http://docs.acme-example.com/install-guide' });
    await client.close();
  });
});

describe('unlisted sites', () => {
  it('open to anyone but kept from search engines; logo, favicon, social image and a fixed theme', async () => {
    const created = await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Handbook', spaces: [guides], visibility: 'unlisted' });
    const base = `/v1/orgs/${orgId}/sites/${created.body.id}`;
    const put = await t.put(`${base}/customization`, admin.token, {
      favicon: { icon: { light: 'https://cdn.example.com/fav.png', dark: 'https://cdn.example.com/fav-dark.png' } },
      header: { logo: { light: 'https://cdn.example.com/logo.svg' }, links: [] },
      socialPreview: { url: 'https://cdn.example.com/card.png' },
      themes: { default: 'dark', toggeable: false },
    });
    expect(put.body.error?.message).toBeUndefined();
    await t.post(`${base}/publish`, admin.token);
    const r = `/s/${orgId}/${created.body.basename}`;
    const page = await get(`${r}/install-guide`, { cookie: 'quire_theme=light' });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-robots-tag')).toBe('noindex');
    const doc = parse(page.body as string);
    expect(doc.querySelector('html')?.getAttribute('data-theme')).toBe('dark');
    expect(doc.querySelector('[data-theme-toggle]')).toBeNull();
    expect(doc.querySelector('.brand img.logo-light')?.getAttribute('src')).toBe('https://cdn.example.com/logo.svg');
    expect(doc.querySelectorAll('link[rel=icon]').map((l) => l.getAttribute('href'))).toEqual([
      'https://cdn.example.com/fav.png',
      'https://cdn.example.com/fav-dark.png',
    ]);
    expect(doc.querySelector('meta[property="og:image"]')?.getAttribute('content')).toBe('https://cdn.example.com/card.png');
    expect(doc.querySelector('meta[name="twitter:card"]')?.getAttribute('content')).toBe('summary_large_image');
    expect((await get(`${r}/robots.txt`)).body).toBe('User-agent: *\nDisallow: /\n');
    expect((await get(`${r}/sitemap.xml`)).body).not.toContain('<loc>');
    expect((await get(`${r}/llms.txt`)).status).toBe(200);
    // Agents kept out: no llms.txt or llms-full.txt.
    await t.patch(base, admin.token, { agentsContext: 'excluded' });
    expect((await get(`${r}/llms.txt`)).status).toBe(404);
    expect((await get(`${r}/llms-full.txt`)).status).toBe(404);
  });
});

describe('share-link sites', () => {
  it('refuses everything without the key, then opens with ?shareKey= and a cookie', async () => {
    const created = await t.post(`/v1/orgs/${orgId}/sites`, admin.token, {
      title: 'Partner docs',
      spaces: [guides],
      visibility: 'share-link',
    });
    await t.post(`/v1/orgs/${orgId}/sites/${created.body.id}/publish`, admin.token);
    const r = `/s/${orgId}/${created.body.basename}`;
    for (const path of ['/', '/install-guide', '/welcome.md', '/sitemap.xml', '/llms.txt', '/llms-full.txt', '/~search?q=zeppelin']) {
      const res = await get(`${r}${path}`);
      expect(res.status, path).toBe(404);
      expect(String(res.body)).not.toContain('zeppelin');
      expect(String(res.body)).not.toContain('Partner');
    }
    expect((await get(`${r}/robots.txt`)).body).toBe('User-agent: *\nDisallow: /\n');
    expect((await get(`${r}/?shareKey=wrong`)).status).toBe(404);
    const open = await get(`${r}/install-guide?shareKey=${created.body.shareKey}`);
    expect(open.status).toBe(302);
    expect(open.headers.get('location')).toBe(`${r}/install-guide`);
    expect(open.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);
    const cookie = cookieOf(open);
    const page = await get(`${r}/install-guide`, { cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('zeppelin package');
    expect(page.headers.get('x-robots-tag')).toBe('noindex');
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    const search = await t.request('GET', `${r}/~search?q=zeppelin`, { headers: { cookie, accept: 'application/json' } });
    expect(search.body.results.length).toBeGreaterThan(0);
  });
});

describe('visitor-auth sites', () => {
  let r: string;
  let key: Uint8Array;
  let siteId: string;
  beforeAll(async () => {
    const created = await t.post(`/v1/orgs/${orgId}/sites`, admin.token, {
      title: 'Customer portal',
      spaces: [guides],
      visibility: 'visitor-auth',
    });
    siteId = created.body.id;
    key = new TextEncoder().encode(created.body.visitorAuth.signingKey);
    const base = `/v1/orgs/${orgId}/sites/${siteId}`;
    const pro = await t.post(`${base}/sections`, admin.token, { spaceId: api, title: 'Pro API' });
    await t.patch(`${base}/sections/${pro.body.id}`, admin.token, { condition: 'visitor.claims.plan in ["pro", "team"]' });
    await t.put(`${base}/adaptive-schema`, admin.token, { jsonSchema: { type: 'object', properties: { plan: { type: 'string' } } } });
    await t.post(`${base}/publish`, admin.token);
    r = `/s/${orgId}/${created.body.basename}`;
  });

  const token = (claims: Record<string, unknown>, opts: { alg?: string; aud?: string; exp?: string | number; key?: Uint8Array } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: opts.alg ?? 'HS256' })
      .setAudience(opts.aud ?? siteId)
      .setExpirationTime(opts.exp ?? '1h')
      .sign(opts.key ?? key);

  it('refuses visitors without a valid token, leaking nothing', async () => {
    for (const path of ['/', '/welcome.md', '/sitemap.xml', '/llms.txt', '/~search?q=zeppelin']) {
      const res = await get(`${r}${path}`);
      expect(res.status, path).toBe(401);
      expect(String(res.body)).not.toContain('zeppelin');
    }
    const refused = async (jwt: string) => (await get(`${r}/?jwt_token=${jwt}`)).status;
    expect(await refused(await token({ plan: 'pro' }, { exp: Math.floor(Date.now() / 1000) - 60 }))).toBe(401);
    expect(await refused(await token({ plan: 'pro' }, { alg: 'HS512' }))).toBe(401);
    expect(await refused(await token({ plan: 'pro' }, { aud: 'another-site' }))).toBe(401);
    expect(await refused(await token({ plan: 'pro' }, { key: new TextEncoder().encode('not-the-site-key-at-all-0123456789') }))).toBe(401);
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify({ aud: siteId, exp: 9999999999 })).toString('base64url')}.`;
    expect(await refused(unsigned)).toBe(401);
    const noExp = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setAudience(siteId).sign(key);
    expect(await refused(noExp)).toBe(401);
    expect(
      (await get(`${r}/`, { cookie: `quire_visitor_${siteId}=${await token({}, { exp: Math.floor(Date.now() / 1000) - 60 })}` })).status,
    ).toBe(401);
  });

  it('opens with a token, and its claims decide adaptive content on the server', async () => {
    const open = await get(`${r}/?jwt_token=${await token({ plan: 'free' })}`);
    expect(open.status).toBe(302);
    expect(open.headers.get('location')).toBe(`${r}/`);
    const free = cookieOf(open);
    const page = await get(`${r}/`, { cookie: free });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Brand new intro text.');
    expect(page.body).not.toContain('Pro API');
    expect((await get(`${r}/pro-api/`, { cookie: free })).status).toBe(404);
    const llmsFree = (await get(`${r}/llms.txt`, { cookie: free })).body;
    expect(llmsFree).not.toContain('API overview');
    const pro = cookieOf(await get(`${r}/?jwt_token=${await token({ plan: 'pro' })}`));
    const proPage = await get(`${r}/`, { cookie: pro });
    expect(proPage.body).toContain('Pro API');
    expect((await get(`${r}/pro-api/`, { cookie: pro })).body).toContain('Send a bearer token');
    const search = await t.request('GET', `${r}/~search?q=bearer`, { headers: { cookie: pro, accept: 'application/json' } });
    expect(search.body.results[0].section).toBe('Pro API');
    const searchFree = await t.request('GET', `${r}/~search?q=bearer`, { headers: { cookie: free, accept: 'application/json' } });
    expect(searchFree.body.results).toEqual([]);
  });
});
