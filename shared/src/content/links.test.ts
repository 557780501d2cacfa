import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createPage, extractLinks, findBacklinks, isSafeUrl, markdownToBody, parseTarget, rewriteTargets, setPageDocument } from './index';
import { isFilePathText } from './targets';

const { doc } = markdownToBody(
  [
    'See [the guide](page:Guide00000000000000001#setup), [above](#intro), [**npm** docs](https://docs.npmjs.com) and [](empty.md).',
    '',
    '![logo](file:LogoFile0000000000001) ![badge](https://ci.dev/badge.svg)',
    '',
    '<figure><picture><source srcset="dark.png" media="(prefers-color-scheme: dark)"><img src="light.png" alt="Chart"></picture><figcaption><p>Usage</p></figcaption></figure>',
    '',
    '{% file src="file:Report0000000000000001" %}',
    'Q3 report',
    '{% endfile %}',
    '',
    '{% file src="../assets/manual.pdf" %}',
    '',
    '{% content-ref url="setup/README.md" %}',
    '[Setup](setup/README.md)',
    '{% endcontent-ref %}',
    '',
    '{% embed url="https://youtu.be/abc" %}',
  ].join('\n'),
);

describe('link extraction', () => {
  it('finds every target with its kind and text, in document order', () => {
    expect(extractLinks(doc)).toEqual([
      { kind: 'link', target: 'page:Guide00000000000000001#setup', text: 'the guide' },
      { kind: 'link', target: '#intro', text: 'above' },
      { kind: 'link', target: 'https://docs.npmjs.com', text: 'npm docs' },
      { kind: 'image', target: 'file:LogoFile0000000000001', text: 'logo' },
      { kind: 'image', target: 'https://ci.dev/badge.svg', text: 'badge' },
      { kind: 'image', target: 'light.png', text: 'Chart' },
      { kind: 'image', target: 'dark.png', text: 'Chart' },
      { kind: 'file', target: 'file:Report0000000000000001', text: 'Q3 report' },
      { kind: 'file', target: '../assets/manual.pdf', text: null },
      { kind: 'contentRef', target: 'setup/README.md', text: 'Setup' },
      { kind: 'embed', target: 'https://youtu.be/abc', text: null },
    ]);
  });

  it('classifies targets', () => {
    expect(parseTarget('page:Guide00000000000000001#setup')).toEqual({ kind: 'page', pageId: 'Guide00000000000000001', anchor: 'setup' });
    expect(parseTarget('file:LogoFile0000000000001')).toEqual({ kind: 'file', fileId: 'LogoFile0000000000001' });
    expect(parseTarget('#intro')).toEqual({ kind: 'anchor', anchor: 'intro' });
    expect(parseTarget('mailto:a@b.c')).toEqual({ kind: 'url', url: 'mailto:a@b.c' });
    expect(parseTarget('../setup/README.md#install')).toEqual({ kind: 'path', path: '../setup/README.md', anchor: 'install' });
  });

  it('tells script URLs apart, however they are disguised', () => {
    for (const bad of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\tscript:x',
      'vbscript:x',
      'data:text/html,<b>',
      'file:///etc/passwd',
    ]) {
      expect(isSafeUrl(bad), bad).toBe(false);
    }
    for (const good of ['https://x.dev', 'page:abc', 'file:abc', '#top', '../a.md', 'data:image/png;base64,AAAA', 'mailto:a@b.c']) {
      expect(isSafeUrl(good), good).toBe(true);
    }
  });

  it('rewrites targets, turning a resolved file path into a file reference', () => {
    const rewritten = rewriteTargets(doc, (target) => {
      if (target === '../assets/manual.pdf') return 'file:Manual0000000000000001';
      if (target === 'setup/README.md') return 'page:Setup00000000000000001';
      return target;
    });
    const links = extractLinks(rewritten).map((link) => link.target);
    expect(links).toContain('file:Manual0000000000000001');
    expect(links).toContain('page:Setup00000000000000001');
    expect(JSON.stringify(rewritten)).toContain('"fileId":"Manual0000000000000001","src":null');
    expect(extractLinks(doc).map((link) => link.target)).toContain('../assets/manual.pdf');
  });

  it('finds the pages that link to a page or use a file', () => {
    const ydoc = new Y.Doc();
    const target = createPage(ydoc, { title: 'Target' });
    const linking = createPage(ydoc, { title: 'Linking', markdown: `[go](page:${target}#x) and [again](page:${target})\n` });
    const using = createPage(ydoc, { title: 'Using' });
    setPageDocument(ydoc, using, markdownToBody('{% file src="file:Sheet000000000000000001" %}\n').doc);
    expect(findBacklinks(ydoc, { pageId: target })).toEqual([
      {
        pageId: linking,
        links: [
          { kind: 'link', target: `page:${target}#x`, text: 'go' },
          { kind: 'link', target: `page:${target}`, text: 'again' },
        ],
      },
    ]);
    expect(findBacklinks(ydoc, { fileId: 'Sheet000000000000000001' }).map((hit) => hit.pageId)).toEqual([using]);
  });
});

describe('link text that is only a file path', () => {
  it('is told apart from words, so readers see the page title instead', () => {
    for (const text of [
      'quickstart.md',
      'README.md',
      'getting-started/quickstart.md',
      '../guides/setup.md#tokens',
      'guides/',
      ' notes.markdown ',
    ])
      expect(isFilePathText(text), text).toBe(true);
    for (const text of ['the quickstart', 'Quickstart', 'see quickstart.md', 'guides', 'diagram.png', 'https://example.com/a.md', ''])
      expect(isFilePathText(text), text).toBe(false);
  });
});
