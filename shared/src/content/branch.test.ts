import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  addFile,
  BranchMap,
  createPage,
  createReusableContent,
  deleteReusableContent,
  deleteVariable,
  getFile,
  getReusableContent,
  getReusableContentMarkdown,
  getVariables,
  listFiles,
  listReusableContents,
  readBranch,
  removeFile,
  renameReusableContent,
  replaceVariables,
  setReusableContentMarkdown,
  setVariable,
  updateFile,
} from './index';

describe('files', () => {
  it('records, lists, renames and removes files', () => {
    const doc = new Y.Doc();
    addFile(doc, { id: 'File0000000000000000002', name: 'b.png', contentType: 'image/png', size: 10, dimensions: { width: 4, height: 3 } });
    addFile(doc, { id: 'File0000000000000000001', name: 'a.pdf', contentType: 'application/pdf', size: 2048 });
    expect(listFiles(doc).map((file) => file.name)).toEqual(['a.pdf', 'b.png']);
    expect(getFile(doc, 'File0000000000000000002')?.dimensions).toEqual({ width: 4, height: 3 });
    expect(updateFile(doc, 'File0000000000000000001', { name: 'z.pdf' }).name).toBe('z.pdf');
    removeFile(doc, 'File0000000000000000002');
    expect(listFiles(doc).map((file) => file.id)).toEqual(['File0000000000000000001']);
    expect(getFile(doc, 'File0000000000000000002')).toBeNull();
    expect(() => addFile(doc, { id: 'x', name: 'n', contentType: 't', size: Number.NaN })).toThrow(/size/);
    expect(() => updateFile(doc, 'missing', { name: 'n' })).toThrow(expect.objectContaining({ code: 'not_found' }));
  });
});

describe('variables', () => {
  it('sets, replaces and deletes space variables', () => {
    const doc = new Y.Doc();
    setVariable(doc, 'version', '1.0');
    setVariable(doc, 'product', 'Acme');
    replaceVariables(doc, { version: '2.0', channel: 'beta' });
    expect(getVariables(doc)).toEqual({ channel: 'beta', version: '2.0' });
    deleteVariable(doc, 'channel');
    expect(getVariables(doc)).toEqual({ version: '2.0' });
    expect(() => setVariable(doc, 'not a name', 'x')).toThrow(/letters/);
  });
});

describe('reusable contents', () => {
  it('keeps a titled body that renders as markdown', () => {
    const doc = new Y.Doc();
    const id = createReusableContent(doc, {
      title: 'Support footer',
      markdown: '{% hint style="info" %}\nNeed help? Email us.\n{% endhint %}\n',
    });
    createReusableContent(doc, { title: 'A banner' });
    expect(listReusableContents(doc).map((item) => item.title)).toEqual(['A banner', 'Support footer']);
    renameReusableContent(doc, id, 'Footer');
    expect(getReusableContent(doc, id)).toEqual({ id, title: 'Footer' });
    setReusableContentMarkdown(doc, id, 'Call **us**.\n');
    expect(getReusableContentMarkdown(doc, id)).toBe('Call **us**.\n');
    deleteReusableContent(doc, id);
    expect(getReusableContent(doc, id)).toBeNull();
  });
});

describe('branch layout', () => {
  it('reads the whole branch but the bodies, from the documented top-level maps', () => {
    const doc = new Y.Doc();
    const page = createPage(doc, { title: 'Home' });
    addFile(doc, { id: 'File0000000000000000001', name: 'a.pdf', contentType: 'application/pdf', size: 1 });
    setVariable(doc, 'version', '3');
    createReusableContent(doc, { id: 'Reuse00000000000000000', title: 'Footer' });
    expect([BranchMap.pages, BranchMap.files, BranchMap.reusableContents, BranchMap.variables]).toEqual([
      'pages',
      'files',
      'reusableContents',
      'variables',
    ]);
    for (const name of Object.values(BranchMap)) expect(doc.share.get(name), name).toBeInstanceOf(Y.Map);
    // A page is a Y.Map of plain values around a Y.XmlFragment body; the rest are plain JSON values.
    const pageMap = doc.getMap('pages').get(page) as Y.Map<unknown>;
    expect(pageMap).toBeInstanceOf(Y.Map);
    expect(pageMap.get('body')).toBeInstanceOf(Y.XmlFragment);
    expect(pageMap.toJSON()).toMatchObject({ title: 'Home', type: 'document', parent: null, order: expect.any(String), slug: 'home' });
    expect(doc.getMap('files').get('File0000000000000000001')).toMatchObject({ name: 'a.pdf', contentType: 'application/pdf', size: 1 });
    expect(doc.getMap('variables').get('version')).toBe('3');
    const reusable = doc.getMap('reusableContents').get('Reuse00000000000000000') as Y.Map<unknown>;
    expect(reusable.get('title')).toBe('Footer');
    expect(reusable.get('body')).toBeInstanceOf(Y.XmlFragment);
    const branch = readBranch(doc);
    expect(branch.pages.map((node) => [node.id, node.path])).toEqual([[page, 'home']]);
    expect(branch.files).toHaveLength(1);
    expect(branch.reusableContents).toEqual([{ id: 'Reuse00000000000000000', title: 'Footer' }]);
    expect(branch.variables).toEqual({ version: '3' });
  });
});
