import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { PageKey, pagesMap } from './layout';
import { createPage, getPage, titleText, updatePage } from './pages';
import { pageTree } from './tree';

function sync(a: Y.Doc, b: Y.Doc) {
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
}

describe('page titles', () => {
  it('are Y.Text, so two people typing in one title merge character by character', () => {
    const a = new Y.Doc();
    const id = createPage(a, { title: 'Install' });
    const b = new Y.Doc();
    sync(a, b);
    updatePage(a, id, { title: 'Install on Linux' });
    updatePage(b, id, { title: 'How to Install' });
    sync(a, b);
    expect(getPage(a, id)?.title).toBe('How to Install on Linux');
    expect(getPage(b, id)?.title).toBe('How to Install on Linux');
    expect(pagesMap(a).get(id)).toBeInstanceOf(Y.Map);
    expect((pagesMap(a).get(id) as Y.Map<unknown>).get(PageKey.title)).toBeInstanceOf(Y.Text);
  });

  it('are still read when stored as a plain string, and become Y.Text on the first edit', () => {
    const doc = new Y.Doc();
    const id = createPage(doc, { title: 'x' });
    const map = pagesMap(doc).get(id) as Y.Map<unknown>;
    map.set(PageKey.title, 'Written by an older client');
    expect(getPage(doc, id)?.title).toBe('Written by an older client');
    expect(pageTree(doc)[0]?.title).toBe('Written by an older client');
    updatePage(doc, id, { title: 'Written by an older client, edited' });
    expect(map.get(PageKey.title)).toBeInstanceOf(Y.Text);
    expect(getPage(doc, id)?.title).toBe('Written by an older client, edited');
    expect(titleText(doc, id).toString()).toBe('Written by an older client, edited');
  });

  it('keep emoji whole when an edit touches one', () => {
    const doc = new Y.Doc();
    const id = createPage(doc, { title: 'Go 🚀' });
    updatePage(doc, id, { title: 'Go 🚁' });
    expect(getPage(doc, id)?.title).toBe('Go 🚁');
    updatePage(doc, id, { title: '🚁' });
    expect(getPage(doc, id)?.title).toBe('🚁');
  });
});
