import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createPage, getPage, getPageDocument, getPageMarkdown, setPageDocument, setPageMarkdown } from './index';
import { PageKey, requirePageMap } from './layout';

describe('page bodies in Yjs', () => {
  it('stores the body as y-prosemirror does: elements with attributes, marks on Y.XmlText', () => {
    const doc = new Y.Doc();
    const id = createPage(doc, { title: 'Page', markdown: '## Setup\n\nRun **now** or see [docs](https://x.dev).\n' });
    const body = requirePageMap(doc, id).get(PageKey.body) as Y.XmlFragment;
    const [heading, paragraph] = body.toArray() as Y.XmlElement[];
    expect(heading?.nodeName).toBe('heading');
    expect(heading?.getAttribute('level')).toBe(2);
    expect(paragraph?.nodeName).toBe('paragraph');
    const text = paragraph?.toArray()[0] as Y.XmlText;
    expect(text.toDelta()).toEqual([
      { insert: 'Run ' },
      { insert: 'now', attributes: { bold: {} } },
      { insert: ' or see ' },
      { insert: 'docs', attributes: { link: { href: 'https://x.dev', title: null } } },
      { insert: '.' },
    ]);
  });

  it('names every documented node and mark as y-prosemirror does, with numeric heading levels', () => {
    const doc = new Y.Doc();
    const markdown = [
      '## Setup',
      '',
      'Some **bold**, _italic_, `code`, ~~strike~~ and [a link](https://x.dev).',
      '',
      '* one',
      '',
      '1. first',
      '',
      '```js',
      'let a = 1;',
      '```',
      '',
      '> quoted',
      '',
      '{% hint style="warning" %}',
      'Careful.',
      '{% endhint %}',
      '',
      '| A | B |',
      '| - | - |',
      '| 1 | 2 |',
      '',
    ].join('\n');
    const id = createPage(doc, { title: 'Page', markdown });
    const elements = new Map<string, Record<string, unknown>>();
    const marks = new Map<string, unknown>();
    const walk = (node: Y.XmlElement | Y.XmlFragment | Y.XmlText): void => {
      if (node instanceof Y.XmlText) {
        for (const op of node.toDelta() as { attributes?: Record<string, unknown> }[]) {
          for (const [name, value] of Object.entries(op.attributes ?? {})) marks.set(name, value);
        }
        return;
      }
      if (node instanceof Y.XmlElement && !elements.has(node.nodeName)) elements.set(node.nodeName, node.getAttributes());
      for (const child of node.toArray()) walk(child as Y.XmlElement | Y.XmlText);
    };
    walk(requirePageMap(doc, id).get(PageKey.body) as Y.XmlFragment);
    for (const name of ['paragraph', 'heading', 'bulletList', 'orderedList', 'listItem', 'codeBlock', 'blockquote', 'hint', 'table']) {
      expect(elements.has(name), name).toBe(true);
    }
    expect(elements.get('heading')?.level).toBe(2);
    expect(elements.get('codeBlock')?.language).toBe('js');
    expect(elements.get('hint')?.style).toBe('warning');
    expect(Object.fromEntries(marks)).toEqual({
      bold: {},
      italic: {},
      code: {},
      strike: {},
      link: { href: 'https://x.dev', title: null },
    });
  });

  it('reads a body another ProseMirror client wrote with the documented names, a bare `link: {href}` included', () => {
    const doc = new Y.Doc();
    const id = createPage(doc, { title: 'Page' });
    const body = requirePageMap(doc, id).get(PageKey.body) as Y.XmlFragment;
    const element = (name: string, attrs: Record<string, unknown>, children: (Y.XmlElement | Y.XmlText)[]) => {
      const el = new Y.XmlElement(name);
      for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value as string);
      el.insert(0, children);
      return el;
    };
    const text = (insert: string, attributes?: Record<string, unknown>) => {
      const t = new Y.XmlText();
      t.insert(0, insert, attributes);
      return t;
    };
    doc.transact(() => {
      body.delete(0, body.length);
      const linked = new Y.XmlText();
      linked.insert(0, 'Read ');
      linked.insert(5, 'the docs', { link: { href: 'https://x.dev' } });
      linked.insert(13, ' now', { italic: {} });
      body.insert(0, [
        element('heading', { level: 2 }, [text('Title')]),
        element('paragraph', {}, [linked]),
        element('bulletList', {}, [element('listItem', {}, [element('paragraph', {}, [text('item', { strike: {} })])])]),
        element('codeBlock', { language: 'sh' }, [text('npm test')]),
        element('hint', { style: 'danger' }, [
          element('paragraph', {}, [text('Stop', { bold: {} }), text(' '), text('here', { code: {} })]),
        ]),
      ]);
    });
    expect(getPageMarkdown(doc, id)).toBe(
      [
        '## Title',
        '',
        'Read [the docs](https://x.dev) _now_',
        '',
        '* ~~item~~',
        '',
        '```sh',
        'npm test',
        '```',
        '',
        '{% hint style="danger" %}',
        '**Stop** `here`',
        '{% endhint %}',
        '',
      ].join('\n'),
    );
  });

  it('reads a body written by an editor with another schema without losing text', () => {
    const doc = new Y.Doc();
    const id = createPage(doc, { title: 'Page' });
    const body = requirePageMap(doc, id).get(PageKey.body) as Y.XmlFragment;
    doc.transact(() => {
      body.delete(0, body.length);
      const callout = new Y.XmlElement('callout');
      callout.setAttribute('tone', 'purple');
      const heading = new Y.XmlElement('heading');
      heading.setAttribute('level', '6');
      heading.setAttribute('textAlign', 'center');
      heading.insert(0, [new Y.XmlText('Deep heading')]);
      const text = new Y.XmlText();
      text.insert(0, 'stray text', { highlight: { color: 'yellow' }, bold: {} });
      callout.insert(0, [heading, text]);
      body.insert(0, [callout]);
    });
    expect(getPageDocument(doc, id)).toEqual({
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 4, id: null }, content: [{ type: 'text', text: 'Deep heading' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'stray text', marks: [{ type: 'bold' }] }] },
      ],
    });
  });

  it('rewrites only what changed, so a concurrent edit elsewhere in the page survives', () => {
    const left = new Y.Doc();
    const id = createPage(left, { title: 'Page', markdown: 'First paragraph.\n\nSecond paragraph.\n' });
    const right = new Y.Doc();
    Y.applyUpdate(right, Y.encodeStateAsUpdate(left));
    setPageMarkdown(left, id, 'First paragraph, edited.\n\nSecond paragraph.\n');
    const second = ((requirePageMap(right, id).get(PageKey.body) as Y.XmlFragment).get(1) as Y.XmlElement).get(0) as Y.XmlText;
    second.insert(second.length - 1, ' with more');
    Y.applyUpdate(right, Y.encodeStateAsUpdate(left));
    Y.applyUpdate(left, Y.encodeStateAsUpdate(right));
    expect(getPageMarkdown(left, id)).toBe('First paragraph, edited.\n\nSecond paragraph with more.\n');
    expect(getPageMarkdown(right, id)).toBe(getPageMarkdown(left, id));
  });

  it('sets page fields from front matter and writes them back on request', () => {
    const doc = new Y.Doc();
    const id = createPage(doc, { title: 'Page' });
    const markdown = '---\ndescription: All about it\nicon: book\nlayout:\n  width: wide\n---\n\n# Page\n';
    expect(setPageMarkdown(doc, id, markdown).frontMatter).toEqual({
      description: 'All about it',
      icon: 'book',
      layout: { width: 'wide' },
    });
    expect(getPage(doc, id)).toMatchObject({ description: 'All about it', icon: 'book', layout: { width: 'wide' } });
    expect(getPageMarkdown(doc, id)).toBe('# Page\n');
    expect(getPageMarkdown(doc, id, { frontMatter: true })).toBe(markdown);
  });

  it('creates the body of a page that a minimal client stored without one', () => {
    const doc = new Y.Doc();
    const id = createPage(doc, { title: 'Page' });
    requirePageMap(doc, id).delete(PageKey.body);
    expect(getPageDocument(doc, id)).toEqual({ type: 'doc', content: [{ type: 'paragraph' }] });
    setPageDocument(doc, id, { type: 'doc', content: [{ type: 'horizontalRule' }] });
    expect(getPageMarkdown(doc, id)).toBe('***\n');
  });

  it('resolves targets while writing markdown, for git exports', () => {
    const doc = new Y.Doc();
    const other = createPage(doc, { title: 'Other' });
    const id = createPage(doc, { title: 'Page', markdown: `See [other](page:${other}#usage) and ![logo](file:LogoFile0000000000001)\n` });
    const paths: Record<string, string> = {
      [`page:${other}#usage`]: 'other.md#usage',
      'file:LogoFile0000000000001': '.gitbook/assets/logo.png',
    };
    expect(getPageMarkdown(doc, id, { resolveTarget: (target) => paths[target] ?? target })).toBe(
      'See [other](other.md#usage) and ![logo](.gitbook/assets/logo.png)\n',
    );
  });

  it('refuses unknown pages with a not_found ContentError', () => {
    const doc = new Y.Doc();
    expect(() => getPageDocument(doc, 'nope-nope-nope-nope-00')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });
});
