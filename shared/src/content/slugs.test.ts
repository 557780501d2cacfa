import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { PageKey, pagesMap } from './layout';
import type { Page } from './pageRecord';
import { createPage, getPage } from './pages';
import { buildTreeIndex, pageTree, treeFromIndex } from './tree';
import { pageSlug, slugify, uniqueSlug } from './index';

describe('slugs', () => {
  it.each([
    ['Getting Started', 'getting-started'],
    ['  API: v2 / REST  ', 'api-v2-rest'],
    ['Café crème brûlée', 'cafe-creme-brulee'],
    ['C++ & C#', 'c-c'],
    ['Привет, мир', 'привет-мир'],
    ['한국어 문서', '한국어-문서'],
    ['???', ''],
  ])('slugify(%j) is %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('caps the length without a trailing dash', () => {
    const slug = slugify(`${'word '.repeat(40)}end`);
    expect(slug.length).toBeLessThanOrEqual(100);
    expect(slug.endsWith('-')).toBe(false);
  });

  it('numbers a taken slug', () => {
    expect(uniqueSlug('intro', new Set(['intro', 'intro-2']))).toBe('intro-3');
    expect(uniqueSlug('intro', new Set())).toBe('intro');
  });
});

describe('pageSlug', () => {
  it.each([
    ['getting-started', 'Anything', 'getting-started'],
    ['../../../../../tmp/x', 'Page', 'tmp-x'],
    ['/tmp/abs', 'Page', 'tmp-abs'],
    ['..\\..\\win', 'Page', 'win'],
    ['..', 'Install guide', 'install-guide'],
    ['.', '???', 'untitled'],
    ['', 'Café', 'cafe'],
    [null, '', 'untitled'],
    ['API Reference', 'x', 'api-reference'],
    ['привет-мир', 'x', 'привет-мир'],
  ])('reads %j (title %j) as %j', (stored, title, slug) => {
    expect(pageSlug(stored, title)).toBe(slug);
  });

  it('is one path segment whatever a client stored, and leaves what slugify wrote as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 140 }), fc.string({ maxLength: 40 }), (stored, title) => {
        const slug = pageSlug(stored, title);
        expect(slug).not.toMatch(/[/\\.\u0000-\u001f]/);
        expect(slug.length).toBeGreaterThan(0);
        expect(slug.length).toBeLessThanOrEqual(100);
        const written = slugify(stored);
        if (written) expect(pageSlug(written, title)).toBe(written);
      }),
      { numRuns: 1000 },
    );
  });

  it('is what a page read from the document and the tree of stored pages say', () => {
    const doc = new Y.Doc();
    const id = createPage(doc, { title: 'Guide' });
    (pagesMap(doc).get(id) as Y.Map<unknown>).set(PageKey.slug, '../../etc/passwd');
    expect(getPage(doc, id)?.slug).toBe('etc-passwd');
    expect(pageTree(doc)[0]?.path).toBe('etc-passwd');
    // Pages kept as they were read before (a stored revision) are read again on the way to a path.
    const stored = { ...(getPage(doc, id) as Page), slug: '/abs/../x' };
    expect(treeFromIndex(buildTreeIndex(new Map([[id, stored]])))[0]?.path).toBe('abs-x');
  });
});
