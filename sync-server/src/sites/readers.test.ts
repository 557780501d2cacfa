import { parse } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IconSite, startIconSite } from '../testing/iconSite';
import { decoded, rawGet } from '../testing/rawHttp';

/**
 * What readers get from a site published from an imported repository, over real HTTP:
 * GitBook's icons drawn, answers compressed, the page's language and layout.
 */

let site: IconSite;
let origin: string;
let root: string;

beforeAll(async () => {
  site = await startIconSite();
  ({ origin, root } = site);
});
afterAll(async () => {
  await site?.close();
});

describe('icons', () => {
  let html: string;
  beforeAll(async () => {
    const res = await rawGet(`${origin}${root}/icons`);
    expect(res.status).toBe(200);
    html = res.body.toString('utf8');
  });

  it('draws known icons as inline SVG wherever they are written, and never shows a code as words', () => {
    const article = parse(html).querySelector('article.content');
    expect(article).toBeTruthy();
    const svgs = article?.querySelectorAll('svg.fa-icon') ?? [];
    // hand-pointer, code, globe (paragraph), rocket, gear, github (headings), globe, code, house (table)
    expect(svgs.length).toBe(9);
    for (const svg of svgs) {
      expect(svg.getAttribute('aria-hidden')).toBe('true');
      expect(svg.querySelector('path')?.getAttribute('d')).toMatch(/^M/);
    }
    const words = article?.text ?? '';
    for (const code of [
      'hand-pointer',
      ':globe:',
      ':rocket:',
      ':gear:',
      ':github:',
      ':house:',
      'no-such-icon',
      'unknown-thing',
      'not-real',
      'zz-not-an-icon',
    ]) {
      expect(words).not.toContain(code);
    }
    expect(html).not.toContain('<i class="fa-');
    // Text that only looks like a code, and code, stay as written.
    expect(words).toContain('10:30:00 and std::map');
    expect(article?.querySelector('code')?.text).toBe(':code:');
    // Each table cell keeps its words beside the icon.
    const cells = article?.querySelectorAll('td').map((c) => c.text.trim());
    expect(cells).toEqual(['Web', 'nowhere', 'API', 'home']);
  });

  it('keeps icons out of headings, their anchors and "On this page"', () => {
    const doc = parse(html);
    const headings = doc.querySelectorAll('article.content h2, article.content h3').map((h) => [h.id, h.text.replace('#', '').trim()]);
    expect(headings).toEqual([
      ['launch', 'Launch'],
      ['settings', 'Settings'],
      ['source', 'Source'],
      ['unknown', 'Unknown'],
    ]);
    const outline = doc.querySelector('aside.outline')?.text ?? '';
    expect(outline).toMatch(/Launch[\s\S]*Settings[\s\S]*Source[\s\S]*Unknown/);
    expect(outline).not.toMatch(/:[a-z-]+:|rocket|gear|github/);
  });

  it('links no icon stylesheet or font, on pages with icons or without', async () => {
    const home = (await rawGet(`${origin}${root}/`)).body.toString('utf8');
    for (const page of [html, home]) {
      const sheets = parse(page)
        .querySelectorAll('link[rel=stylesheet]')
        .map((l) => l.getAttribute('href'));
      expect(sheets).toHaveLength(1);
      expect(sheets[0]).toMatch(/\/~assets\/site\.[0-9a-f]+\.css$/);
    }
    expect(home).not.toContain('<svg class="fa-icon"');
  });

  it('serves the page as markdown with the source the repository wrote', async () => {
    const md = (await rawGet(`${origin}${root}/icons.md`)).body.toString('utf8');
    expect(md).toContain('<i class="fa-hand-pointer">:hand-pointer:</i>');
  });

  it('leaves icon codes out of search results', async () => {
    for (const q of ['world', 'settings']) {
      const res = await rawGet(`${origin}${root}/~search?q=${q}`, { accept: 'application/json' });
      const hits = JSON.parse(res.body.toString('utf8')).results as unknown[];
      expect(hits.length, q).toBeGreaterThan(0);
      expect(JSON.stringify(hits), q).not.toMatch(/:(rocket|gear|globe|house|hand-pointer):/);
    }
  });
});

describe('compression', () => {
  const plainOf = async (path: string, headers: Record<string, string>) => {
    const res = await rawGet(`${origin}${root}${path}`, headers);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    return res;
  };

  it('answers pages, assets, markdown, llms.txt, the sitemap and search JSON in brotli or gzip, as asked', async () => {
    const page = (await rawGet(`${origin}${root}/icons`)).body.toString('utf8');
    const css = /href="([^"]+\/~assets\/site\.[0-9a-f]+\.css)"/.exec(page)?.[1] as string;
    const js = /src="([^"]+\/~assets\/site\.[0-9a-f]+\.js)"/.exec(page)?.[1] as string;
    const paths = [
      '/icons',
      '/',
      css.slice(root.length),
      js.slice(root.length),
      '/icons.md',
      '/llms.txt',
      '/llms-full.txt',
      '/sitemap.xml',
      '/~search?q=sync%20server',
    ];
    for (const path of paths) {
      const accept: Record<string, string> = path.startsWith('/~search') ? { accept: 'application/json' } : {};
      const plain = await plainOf(path, accept);
      expect(plain.status, path).toBe(200);
      for (const coding of ['br', 'gzip'] as const) {
        const res = await rawGet(`${origin}${root}${path}`, {
          ...accept,
          'accept-encoding': coding === 'br' ? 'gzip, deflate, br' : 'gzip, deflate',
        });
        expect(res.status, path).toBe(200);
        expect(res.headers['content-encoding'], path).toBe(coding);
        expect(res.headers.vary, path).toMatch(/Accept-Encoding/i);
        // Search answers JSON or HTML by Accept: both still named.
        if (path.startsWith('/~search')) expect(res.headers.vary).toMatch(/\bAccept\s*(,|$)/);
        expect(Number(res.headers['content-length']), path).toBe(res.body.length);
        expect(res.body.length, path).toBeLessThan(plain.body.length);
        expect(decoded(res).equals(plain.body), path).toBe(true);
        expect(res.headers.etag, path).not.toBe(plain.headers.etag);
      }
    }
  });

  it('follows q-values, and leaves tiny bodies as they are', async () => {
    const gz = await rawGet(`${origin}${root}/icons`, { 'accept-encoding': 'br;q=0.5, gzip;q=0.9' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const none = await rawGet(`${origin}${root}/icons`, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(none.headers['content-encoding']).toBeUndefined();
    const identity = await rawGet(`${origin}${root}/icons`, { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    const robots = await rawGet(`${origin}${root}/robots.txt`, { 'accept-encoding': 'br, gzip' });
    expect(robots.body.length).toBeLessThan(1024);
    expect(robots.headers['content-encoding']).toBeUndefined();
  });

  it('answers a hot page from the cache with the same compressed bytes, and 304 to a reader who holds them', async () => {
    const first = await rawGet(`${origin}${root}/icons`, { 'accept-encoding': 'br' });
    const second = await rawGet(`${origin}${root}/icons`, { 'accept-encoding': 'br' });
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
    const again = await rawGet(`${origin}${root}/icons`, { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // The tag of the brotli bytes does not validate the plain ones.
    const plain = await rawGet(`${origin}${root}/icons`, { 'if-none-match': String(first.headers.etag) });
    expect(plain.status).toBe(200);
  });
});

describe('what the page says of itself', () => {
  it('names the language of the space it shows', async () => {
    const en = (await rawGet(`${origin}${root}/`)).body.toString('utf8');
    expect(en).toMatch(/^<!doctype html>\s*<html lang="en"/i);
    const fr = await rawGet(`${origin}${root}/fr/`);
    expect(fr.status).toBe(200);
    expect(fr.body.toString('utf8')).toMatch(/^<!doctype html>\s*<html lang="fr"/i);
  });

  it("follows the page's layout from front matter: cover shown, title and description hidden, no outline or pager", async () => {
    const html = (await rawGet(`${origin}${root}/landing`)).body.toString('utf8');
    const doc = parse(html);
    const cover = doc.querySelector('figure.page-cover img');
    expect(cover?.getAttribute('src')).toMatch(/\/~img\/[^/]+\/[^/]+\/\d+\.webp$|\/files\//);
    expect(cover?.getAttribute('width')).toBe('1200');
    // `coverY: -10` shows more of the image's lower part: 1200×400 drawn 780×260 in a 240 px band.
    expect(doc.querySelector('figure.page-cover')?.classList.contains('cover-y-85')).toBe(true);
    expect(doc.querySelector('h1.page-title')?.classList.contains('visually-hidden')).toBe(true);
    expect(doc.querySelector('.page-description')).toBeNull();
    expect(doc.querySelector('aside.outline a')).toBeNull();
    expect(doc.querySelector('.pager')).toBeNull();
    // A page without a layout keeps all of them.
    const icons = parse((await rawGet(`${origin}${root}/icons`)).body.toString('utf8'));
    expect(icons.querySelector('h1.page-title')?.classList.contains('visually-hidden')).toBe(false);
    expect(icons.querySelector('figure.page-cover')).toBeNull();
    expect(icons.querySelectorAll('aside.outline a').length).toBeGreaterThan(0);
  });

  it("gives a wide page the outline's column: no outline beside its text", async () => {
    const wide = parse((await rawGet(`${origin}${root}/topic-1`)).body.toString('utf8'));
    expect(wide.querySelector('article.content .heading')?.text).toContain('In depth');
    expect(wide.querySelector('div.layout')?.classList.contains('wide')).toBe(true);
    expect(wide.querySelector('aside.outline')).toBeNull();
    const plain = parse((await rawGet(`${origin}${root}/topic-2`)).body.toString('utf8'));
    expect(plain.querySelector('div.layout')?.classList.contains('wide')).toBe(false);
    expect(plain.querySelector('aside.outline')).toBeTruthy();
  });

  it("drops GitBook's Ask button, which does nothing here, and draws a button's icon", async () => {
    const doc = parse((await rawGet(`${origin}${root}/landing`)).body.toString('utf8'));
    const article = doc.querySelector('article.content');
    expect(article?.text).not.toContain('Ask');
    expect(article?.querySelector('button')).toBeNull();
    const start = article?.querySelector('a.button.primary');
    expect(start?.getAttribute('href')).toBe('https://example.com/start');
    expect(start?.querySelector('svg.fa-icon')).toBeTruthy();
    expect(start?.text.trim()).toBe('Get started');
  });
});
