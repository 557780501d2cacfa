import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createPage, extractLinks, getPageDocument, getPageMarkdown, rewriteTargets, setPageMarkdown } from '../index';
import type { NodeJSON } from '../json';
import { bodySchema } from '../schema';
import { markdownToBody } from './parse';
import { bodyToMarkdown } from './serialize';

const fixturesDir = fileURLToPath(new URL('../fixtures', import.meta.url));
const fixtures = readdirSync(fixturesDir)
  .filter((name) => name.endsWith('.md'))
  .map((name) => ({ name, markdown: readFileSync(join(fixturesDir, name), 'utf8') }));

function roundTrip(markdown: string): string {
  const { doc, frontMatter } = markdownToBody(markdown);
  return bodyToMarkdown(doc, { frontMatter });
}

function collectTypes(node: NodeJSON, nodes: Set<string>, marks: Set<string>): void {
  nodes.add(node.type);
  for (const mark of node.marks ?? []) marks.add(mark.type);
  for (const child of node.content ?? []) collectTypes(child, nodes, marks);
}

describe('GitBook markdown fixtures', () => {
  it('has a corpus', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(5);
  });

  it.each(fixtures)('$name: markdown → body → markdown is identical', ({ markdown }) => {
    expect(roundTrip(markdown)).toBe(markdown);
  });

  it.each(fixtures)('$name: markdown → body → Y.XmlFragment → body → markdown is identical', ({ markdown }) => {
    const parsed = markdownToBody(markdown);
    const doc = new Y.Doc();
    const pageId = createPage(doc, { title: 'Fixture' });
    setPageMarkdown(doc, pageId, markdown);
    // through the wire, as another replica receives it
    const replica = new Y.Doc();
    Y.applyUpdate(replica, Y.encodeStateAsUpdate(doc));
    expect(getPageDocument(replica, pageId)).toEqual(parsed.doc);
    expect(getPageMarkdown(replica, pageId, { frontMatter: true })).toBe(markdown);
  });

  it('covers every node and mark of the schema', () => {
    const nodes = new Set<string>();
    const marks = new Set<string>();
    for (const { markdown } of fixtures) collectTypes(markdownToBody(markdown).doc, nodes, marks);
    expect([...nodes].sort()).toEqual(Object.keys(bodySchema.nodes).sort());
    expect([...marks].sort()).toEqual(Object.keys(bodySchema.marks).sort());
  });

  it('covers every attribute form GitBook writes', () => {
    const all = fixtures.map(({ markdown }) => JSON.stringify(markdownToBody(markdown).doc)).join('\n');
    for (const style of ['info', 'success', 'warning', 'danger']) expect(all).toContain(`"style":"${style}"`);
    for (const level of [1, 2, 3]) expect(all).toContain(`"level":${level}`);
    for (const fragment of [
      '"checked":true',
      '"checked":false',
      '"lineNumbers":true',
      '"wrap":true',
      '"title":"list-projects.js"',
      '"start":3',
      '"align":"center"',
      '"srcDark":"',
      '"width":"188"',
      '"fileId":"',
      '"caption":"A three minute tour',
    ]) {
      expect(all).toContain(fragment);
    }
  });
});

describe('markdown → body', () => {
  it('parses GitBook blocks into schema nodes', () => {
    const { doc } = markdownToBody(
      [
        '{% hint style="warning" %}',
        'Careful',
        '{% endhint %}',
        '',
        '{% code title="a.js" overflow="wrap" lineNumbers="true" %}',
        '```js',
        'run()',
        '```',
        '{% endcode %}',
        '',
        '{% content-ref url="setup.md" %}',
        '[Setup](setup.md)',
        '{% endcontent-ref %}',
      ].join('\n'),
    );
    expect(doc.content).toEqual([
      { type: 'hint', attrs: { style: 'warning' }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Careful' }] }] },
      {
        type: 'codeBlock',
        attrs: { language: 'js', title: 'a.js', lineNumbers: true, wrap: true },
        content: [{ type: 'text', text: 'run()' }],
      },
      { type: 'contentRef', attrs: { href: 'setup.md', title: 'Setup' } },
    ]);
  });

  it('returns front matter apart from the body', () => {
    const { doc, frontMatter } = markdownToBody(
      '---\ndescription: Hello\nicon: gear\nlayout:\n  width: wide\nhidden: true\n---\n\n# Title\n',
    );
    expect(frontMatter).toEqual({ description: 'Hello', icon: 'gear', layout: { width: 'wide' }, hidden: true });
    expect(doc.content?.[0]?.type).toBe('heading');
  });

  it('keeps the content of a block tag it does not know, without the tag, and says so with its line', () => {
    const { doc, unmapped } = markdownToBody('Intro\n\n{% tooltip text="x" %}\nHover **here**\n\n* item\n{% endtooltip %}\n');
    expect(bodyToMarkdown(doc)).toBe('Intro\n\nHover **here**\n\n* item\n');
    expect(unmapped).toEqual([
      { line: 3, source: '{% tooltip text="x" %}', reason: 'the block tag "tooltip" is not known; its content is kept without it' },
    ]);
  });

  it('reads an emoji given as a page icon as the page emoji', () => {
    expect(markdownToBody('---\nicon: 🚀\n---\n\ntext\n').frontMatter).toEqual({ emoji: '🚀' });
    expect(markdownToBody('---\nemoji: 🚀\nicon: rocket\n---\n\ntext\n').frontMatter).toEqual({ emoji: '🚀', icon: 'rocket' });
  });

  it('leaves front matter that is not a YAML mapping in the body', () => {
    const { doc, frontMatter } = markdownToBody('---\n: : [\n---\n\ntext\n');
    expect(frontMatter).toEqual({});
    expect(JSON.stringify(doc)).toContain('text');
  });

  it.each([
    ['- a\n- b\n', '* a\n* b\n'],
    ['__bold__ and *it*\n', '**bold** and _it_\n'],
    ['###### Deep\n', '#### Deep\n'],
    ['Setext\n======\n', '# Setext\n'],
    ['one\ntwo\n', 'one two\n'],
    ['line<br/>next\n', 'line\\\nnext\n'],
    ['    indented()\n', '```\nindented()\n```\n'],
    ['---\n', '***\n'],
    ['|  a  |  b  |\n|-----|:---:|\n|  1  |  2  |\n', '| a | b |\n| --- | :---: |\n| 1 | 2 |\n'],
    ['<figure><img src="x.png" alt=""><figcaption></figcaption></figure>\n', '![](x.png)\n'],
    ['{% embed url="https://x.dev/v" fullWidth="false" %}\n', '{% embed url="https://x.dev/v" %}\n'],
    ['[a][ref]\n\n[ref]: https://x.dev\n', '[a](https://x.dev)\n'],
    ['1) one\n2) two\n', '1. one\n2. two\n'],
    ['Text<strong>bold</strong>\n', 'Text**bold**\n'],
  ])('normalizes %j to its canonical form', (input, canonical) => {
    expect(roundTrip(input)).toBe(canonical);
    expect(roundTrip(canonical)).toBe(canonical);
  });
});

describe('as a git export writes it', () => {
  const gitSync = (markdown: string) => bodyToMarkdown(markdownToBody(markdown).doc, { figures: true });

  it('writes every block image as a figure, an empty caption kept as an empty figcaption', () => {
    const figure = '<figure><img src="x.png" alt="Shot"><figcaption></figcaption></figure>\n';
    expect(gitSync(figure)).toBe(figure);
    expect(gitSync('![Shot](x.png)\n')).toBe(figure);
    const captioned = '<figure><img src="x.png" alt=""><figcaption><p>The form</p></figcaption></figure>\n';
    expect(gitSync(captioned)).toBe(captioned);
  });

  it('keeps the image of an expandable summary, its srcset a target like any other', () => {
    const summary =
      '<summary><picture><source srcset="dark.png" media="(prefers-color-scheme: dark)"><img src="light.png" alt=""></picture> What it means</summary>';
    const markdown = `<details>\n\n${summary}\n\nA rocket.\n\n</details>\n`;
    const body = markdownToBody(markdown).doc;
    const details = body.content?.[0];
    expect(details?.content?.[0]).toMatchObject({ type: 'detailsSummary', attrs: { html: summary.slice(9, -10) } });
    expect(extractLinks(body).map((l) => [l.kind, l.target])).toEqual([
      ['image', 'dark.png'],
      ['image', 'light.png'],
    ]);
    expect(bodyToMarkdown(body)).toBe(`<details>\n\n${summary}\n\nA rocket.\n\n</details>\n`);
    const moved = bodyToMarkdown(rewriteTargets(body, (target) => `../assets/${target}`));
    expect(moved).toContain('<source srcset="../assets/dark.png"');
    expect(moved).toContain('<img src="../assets/light.png"');
  });
});

describe('untrusted markdown', () => {
  const nodeTypes = (doc: NodeJSON): string[] => {
    const nodes = new Set<string>();
    collectTypes(doc, nodes, new Set());
    return [...nodes];
  };

  it('keeps a <script> as HTML source for renderers to sanitize, never as a node that runs it', () => {
    const { doc } = markdownToBody('<script>alert(1)</script>\n\nAfter <script>alert(2)</script> inline\n');
    expect(nodeTypes(doc).every((type) => type in bodySchema.nodes)).toBe(true);
    expect(doc.content).toEqual([
      { type: 'htmlBlock', attrs: { html: '<script>alert(1)</script>' } },
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'After ' },
          { type: 'htmlInline', attrs: { html: '<script>alert(2)</script>' } },
          { type: 'text', text: ' inline' },
        ],
      },
    ]);
    const markdown = bodyToMarkdown(doc);
    expect(markdown).toBe('<script>alert(1)</script>\n\nAfter <script>alert(2)</script> inline\n');
    expect(markdownToBody(markdown).doc).toEqual(doc);
  });

  it('keeps event-handler HTML as HTML source, not as an image or text', () => {
    const { doc } = markdownToBody('<img src=x onerror="alert(1)">\n\n<div onclick="steal()">hi</div>\n');
    expect(JSON.stringify(doc)).not.toContain('"type":"image"');
    expect(doc.content).toEqual([
      { type: 'htmlBlock', attrs: { html: '<img src=x onerror="alert(1)">' } },
      { type: 'htmlBlock', attrs: { html: '<div onclick="steal()">hi</div>' } },
    ]);
  });

  it('never turns script URLs into links, images, embeds or figures', () => {
    const { doc } = markdownToBody(
      [
        '[click](javascript:alert(1)) ![x](JaVaScRiPt:alert(2)) <vbscript:msgbox(1)>',
        '',
        '{% embed url="javascript:alert(3)" %}',
        '',
        '<figure><img src="javascript:alert(4)" alt=""><figcaption></figcaption></figure>',
      ].join('\n'),
    );
    const json = JSON.stringify(doc);
    expect(json).not.toContain('"type":"link"');
    expect(json).not.toContain('"type":"inlineImage"');
    expect(json).not.toContain('"type":"embed"');
    expect(json).not.toContain('"type":"image"');
    expect(json).toContain('javascript:alert(3)');
  });
});
