import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownToBody } from '@quire/shared/content/index';
import type { NodeJSON } from '@quire/shared/content/json';
import { describe, expect, it } from 'vitest';
import { type LinkResolver, renderBody } from './body';

const links: LinkResolver = {
  page: (id, anchor) => `/docs/${id}${anchor ? `#${anchor}` : ''}`,
  file: (id) => `/files/${id}`,
  asset: (path) => (path.includes('banner') ? 'FileBanner' : undefined),
  image: (id) => ({ src: `/files/${id}`, srcSet: `/~img/r/${id}/480.webp 480w`, width: 1600, height: 400 }),
  externalTarget: 'self',
};

const html = (raw: string) => renderBody({ type: 'doc', content: [{ type: 'htmlBlock', attrs: { html: raw } }] } as NodeJSON, links).html;

describe('raw HTML of imported pages', () => {
  it('renders what documentation writes by hand, through the allow-list', () => {
    const out = html(
      '<table data-view="cards"><tr><td><a class="button primary" href="https://x.test/">Go</a></td></tr></table>' +
        '<div align="center"><figure><picture><source srcset="https://x.test/d.png" media="(prefers-color-scheme: dark)"><img src="https://x.test/l.png" alt="L"></picture><figcaption>Cap</figcaption></figure></div>' +
        '<p align="right"><mark>m</mark> <i class="fa-solid fa-rocket"></i> <button>b</button></p><h3 align="center">Hi</h3>' +
        '<pre><code>&lt;b&gt;x&lt;/b&gt;</code></pre><foo-widget>inner text</foo-widget>',
    );
    expect(out).toContain('<table data-view="cards" class="cards">');
    expect(out).toContain('<a class="button primary html-button" href="https://x.test/">Go</a>');
    expect(out).toContain(
      '<div align="center"><figure><picture><source srcset="https://x.test/d.png" media="(prefers-color-scheme: dark)">',
    );
    expect(out).toMatch(
      /<p align="right"><mark>m<\/mark> <svg class="fa-icon" viewBox="0 0 512 512" width="1em" height="1em" fill="currentColor" aria-hidden="true" focusable="false"><path d="M[^"]+"><\/path><\/svg> <button>b<\/button><\/p>/,
    );
    expect(out).toContain('<h3 align="center" id="hi">Hi</h3>');
    expect(out).toContain('<pre><code>&#x3C;b>x&#x3C;/b></code></pre>');
    expect(out).toContain('inner text');
    expect(out).not.toContain('foo-widget');
  });

  it('lets nothing hostile through', () => {
    const out = html(
      [
        '<script>alert(1)</script>',
        '<img src=x onerror=alert(2)>',
        '<a href="javascript:alert(3)">a</a>',
        '<a href=" JaVaScRiPt:alert(4)">b</a>',
        '<a href="data:text/html,<script>alert(5)</script>">c</a>',
        '<svg onload=alert(6)><circle/></svg>',
        '<iframe src="https://evil.test"></iframe>',
        '<style>body{display:none}</style>',
        '<div style="position:fixed" onclick="alert(7)" class="hint site-header math-slot" data-slot="0">d</div>',
        '<form action="https://evil.test"><input name=q></form>',
        '<object data="x.swf"></object><embed src="x.swf">',
        '<base href="https://evil.test/"><meta http-equiv="refresh" content="0;url=https://evil.test">',
        '<img srcset="javascript:alert(9) 1x">',
        '<a href="https://ok.test" target="_top" onmouseover="alert(10)">e</a>',
        // Unclosed: swallows the rest of the block, which is stripped with it.
        '<math><mtext><table><mglyph><style><img src=x onerror=alert(8)>',
      ].join(''),
    );
    expect(out).not.toMatch(
      /<script|onerror|onload|onclick|onmouseover|javascript:|data:text|<svg|<iframe|<style|style=|<form|<object|<embed|<base|<meta|alert\(8\)/i,
    );
    // Classes outside the allow-list cannot impersonate the renderer's own.
    expect(out).not.toMatch(/class="[^"]*(hint|site-header|math-slot)/);
    expect(out).toContain('<a href="https://ok.test" target="_top">e</a>');
  });

  it('points paths of the repository at the space files, resized', () => {
    const out = html(
      '<div align="center"><img src=".gitbook/assets/banner%20wide.png" alt="Banner" width="400"></div><a href="setup.md">Set up</a>',
    );
    expect(out).toContain('src="/files/FileBanner"');
    expect(out).toContain('srcset="/~img/r/FileBanner/480.webp 480w"');
    expect(out).toContain('width="400"');
    expect(out).toContain('height="100"');
    // A path to a page no import resolved does not become a dead link.
    expect(out).toContain('<a>Set up</a>');
  });

  it("shows an expandable summary's image beside its text, until the text is edited", () => {
    const written =
      '<picture><source srcset="file:FileDark" media="(prefers-color-scheme: dark)"><img src="file:FileLogo" alt=""></picture> What the logo means';
    const details = (summaryText: string) =>
      renderBody(
        {
          type: 'doc',
          content: [
            {
              type: 'details',
              content: [
                { type: 'detailsSummary', attrs: { html: written }, content: [{ type: 'text', text: summaryText }] },
                { type: 'detailsContent', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'A rocket.' }] }] },
              ],
            },
          ],
        } as NodeJSON,
        links,
      ).html;
    const out = details('What the logo means');
    expect(out).toContain(
      '<summary><picture><source srcset="/files/FileDark" media="(prefers-color-scheme: dark)"><img src="/files/FileLogo"',
    );
    expect(out).toContain('What the logo means</summary>');
    // Renamed in the editor: the text as written now, the old markup no longer describes it.
    expect(details('What the mark means')).toContain('<summary>What the mark means</summary>');
  });
});

describe('a page imported from a repository', () => {
  it('renders block tags, math, anchors and heading levels, never as source', () => {
    const md = readFileSync(join(import.meta.dirname, '../../../../shared/src/content/fixtures/layout-and-html.md'), 'utf8');
    const { html: out, outline } = renderBody(markdownToBody(md).doc, links);
    expect(out).not.toMatch(/\{%|\$\$\s*\\|&#x3C;mark|&#x3C;a /);
    expect(out).toContain('<h2 id="layout" class="heading">Layout and HTML<a href="#layout"');
    expect(out).toContain('<h3 id="getting-started"');
    expect(out).toContain('<div class="columns"><div class="column w-50"><h4 id="install"');
    expect(out).toContain('<img src="/files/FileBanner"');
    expect(out).toMatch(/<math[^>]*><semantics><mrow><mi>E<\/mi>/);
    expect(out).toContain('<time datetime="2024-02-01">2024-02-01</time>');
    expect(out).toContain('<figure class="diagram mermaid">');
    expect(outline.map((o) => [o.title, o.level])).toEqual([
      ['Layout and HTML', 1],
      ['Get started', 2],
      ['Install', 3],
      ['A deep heading', 4],
      ['Faster search', 1],
    ]);
  });

  it('highlights code on the server, with line numbers and a title', () => {
    const body = markdownToBody('{% code title="app.ts" lineNumbers="true" %}\n```ts\nconst a: number = 1;\n```\n{% endcode %}\n').doc;
    const { html: out } = renderBody(body, links);
    expect(out).toContain('<span class="code-title">app.ts</span>');
    expect(out).toContain('<pre class="code numbered" data-language="ts">');
    expect(out).toContain('<span class="hljs-keyword">const</span>');
  });
});

describe('an image block’s width', () => {
  const image = (width: unknown) =>
    renderBody({ type: 'doc', content: [{ type: 'image', attrs: { src: 'file:Pic', alt: 'A', width } }] } as NodeJSON, links).html;

  it('draws the width the editor stored (pixels) or markdown wrote (`width="400"`), the height in proportion', () => {
    expect(image(480)).toMatch(/<img [^>]*width="480" height="120"/);
    expect(image('400')).toMatch(/<img [^>]*width="400" height="100"/);
    // No width, or one the site cannot draw as pixels: the file's own size.
    expect(image(null)).toMatch(/<img [^>]*width="1600" height="400"/);
    expect(image('50%')).toMatch(/<img [^>]*width="1600" height="400"/);
  });
});
