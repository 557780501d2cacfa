import { parse } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer } from '../testing/harness';
import { writePages } from './testContent';

/**
 * Text that lands inside an attribute (a page title in `<meta>`, an image's alt, a stored
 * link) must never close that attribute, and a hostile URL written straight into the
 * database, past the API's validation, must still render inert.
 */
let t: TestServer;
let html: string;

const TITLE = 'Quotes" onload="alert(1)" data-x="';
const DESCRIPTION = 'It\'s " onfocus="alert(2)';
const ALT = 'logo" onerror="alert(3)';

beforeAll(async () => {
  t = await TestServer.start();
  const { orgId, admin } = await t.org();
  const spaceId = (await t.post(`/v1/orgs/${orgId}/spaces`, admin.token, { title: 'Docs' })).body.id as string;
  await writePages(t.db, spaceId, [
    { title: TITLE, description: DESCRIPTION, markdown: `![${ALT}](https://example.com/logo.png)\n\n[home](https://example.com)\n` },
  ]);
  const site = (await t.post(`/v1/orgs/${orgId}/sites`, admin.token, { title: 'Site', spaces: [spaceId] })).body;
  await t.put(`/v1/orgs/${orgId}/sites/${site.id}/customization`, admin.token, {
    favicon: {},
    header: {
      logo: { light: 'https://example.com/light.png' },
      links: [{ title: 'Status', to: { kind: 'url', url: 'https://status.example.com' } }],
    },
  });
  // A stored setting that the API would refuse: rendering must not trust the database.
  await t.db.query(
    `UPDATE sites SET customization = jsonb_set(jsonb_set(customization, '{header,logo,light}', to_jsonb($2::text)),
       '{header,links,0,to,url}', to_jsonb($3::text)) WHERE id = $1`,
    [site.id, 'javascript:alert(4)', ' java\tscript:alert(5)'],
  );
  await t.post(`/v1/orgs/${orgId}/sites/${site.id}/publish`, admin.token);
  const res = await t.request('GET', `/s/${orgId}/${site.basename}/`);
  expect(res.status).toBe(200);
  html = res.body as string;
});
afterAll(async () => t?.close());

describe('published page attributes', () => {
  it('keeps quotes in titles, descriptions and alt text inside their attributes', () => {
    const doc = parse(html);
    const handlers = doc.querySelectorAll('*').flatMap((el) => Object.keys(el.attributes).filter((a) => /^on/i.test(a)));
    expect(handlers).toEqual([]);
    expect(doc.querySelector('meta[property="og:title"]')?.getAttribute('content')).toContain(TITLE);
    expect(doc.querySelector('meta[name="twitter:title"]')?.getAttribute('content')).toContain(TITLE);
    expect(doc.querySelector('meta[name="description"]')?.getAttribute('content')).toBe(DESCRIPTION);
    expect(doc.querySelector('main img, article img')?.getAttribute('alt')).toBe(ALT);
    expect(doc.querySelectorAll('[data-x]')).toHaveLength(0);
  });

  it('renders hostile stored URLs inert', () => {
    const doc = parse(html);
    const urls = doc
      .querySelectorAll('[href], [src]')
      .map((el) => (el.getAttribute('href') ?? el.getAttribute('src') ?? '').replace(/\s/g, '').toLowerCase());
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.filter((u) => u.startsWith('javascript:'))).toEqual([]);
    expect(html).not.toContain('alert(4)');
    expect(html).not.toContain('alert(5)');
  });
});
