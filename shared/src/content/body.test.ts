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
        { type: 'heading', attrs: { level: 3 }, content: [{ type: 'text', text: 'Deep heading' }] },
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
