import { getPageMarkdown } from '@quire/shared/content/body';
import { type FileInfo, addFile, listFiles } from '@quire/shared/content/files';
import { bodyFragment, pagesMap } from '@quire/shared/content/layout';
import { createPage } from '@quire/shared/content/pages';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { fileIdOf, uploadingIdOf, uploadingRef } from '../common/fileRefs';
import { pointAtUploadedFiles, uploadingFileIds } from './fileBlocks';

/**
 * A file inserted on this machine is referred to as `upload:<id>` until the server has its
 * bytes; then, in one transaction, the branch records the file and its blocks point at
 * `file:<id>` (images by `src`, file blocks by `fileId`), so the server never shows a block
 * of a file it does not have. Only the files the server acknowledged are rewritten.
 */
const info = (id: string): FileInfo => ({ id, name: `${id}.png`, contentType: 'image/png', size: 3 });

function attributesOf(doc: Y.Doc, nodeName: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const walk = (node: Y.XmlFragment | Y.XmlElement) => {
    for (const child of node.toArray()) {
      if (!(child instanceof Y.XmlElement)) continue;
      if (child.nodeName === nodeName) out.push(child.getAttributes());
      walk(child);
    }
  };
  for (const page of pagesMap(doc).values()) {
    const body = page instanceof Y.Map ? bodyFragment(page, false) : null;
    if (body) walk(body);
  }
  return out;
}

function branch() {
  const doc = new Y.Doc();
  const a = createPage(doc, {
    title: 'A',
    markdown:
      'Inline ![a](upload:img1) here\n\n![b](upload:img2)\n\n{% file src="upload:doc1" %}\nThe manual\n{% endfile %}\n\n![c](file:done)\n',
  });
  const b = createPage(doc, { title: 'B', markdown: '![again](upload:img2)\n\n![other](https://example.com/upload:img3)\n' });
  return { doc, a, b };
}

describe('file addresses', () => {
  it('names a file by its server address or its address while uploading, nothing else', () => {
    expect(uploadingRef('abc')).toBe('upload:abc');
    expect(fileIdOf('file:abc')).toBe('abc');
    expect(fileIdOf('upload:abc')).toBe('abc');
    expect(uploadingIdOf('upload:abc')).toBe('abc');
    expect(uploadingIdOf('file:abc')).toBeNull();
    for (const bad of [
      'xfile:abc',
      'file:abc ',
      'file:abc/x',
      ['file:abc'],
      ['upload:abc'],
      'upload:',
      'upload:a/b',
      'xupload:abc',
      'upload:abc ',
      `upload:${'a'.repeat(65)}`,
      'https://h/upload:abc',
      42,
      null,
    ]) {
      expect(uploadingIdOf(bad), String(bad)).toBeNull();
      expect(fileIdOf(bad), String(bad)).toBeNull();
    }
    expect(fileIdOf(`file:${'a'.repeat(64)}`)).toBe('a'.repeat(64));
    expect(fileIdOf('file:a-b_C9')).toBe('a-b_C9');
  });
});

describe('pointing blocks at uploaded files', () => {
  it('lists each file still uploading once, across pages and block kinds', () => {
    const { doc } = branch();
    expect(uploadingFileIds(doc).sort()).toEqual(['doc1', 'img1', 'img2']);
  });

  it('rewrites only the blocks of acknowledged files, recording each file once', () => {
    const { doc, a, b } = branch();
    expect(pointAtUploadedFiles(doc, [info('img2')])).toBe(2);
    expect(getPageMarkdown(doc, a)).toContain('![b](file:img2)');
    expect(getPageMarkdown(doc, b)).toContain('![again](file:img2)');
    expect(getPageMarkdown(doc, a)).toContain('![a](upload:img1)');
    expect(uploadingFileIds(doc).sort()).toEqual(['doc1', 'img1']);
    expect(listFiles(doc).map((f) => f.id)).toEqual(['img2']);
    // The link that only looks like one is no block of a file.
    expect(getPageMarkdown(doc, b)).toContain('https://example.com/upload:img3');
  });

  it('points a file block at its file by id, its address cleared, and an inline image by its source', () => {
    const { doc } = branch();
    expect(pointAtUploadedFiles(doc, [info('doc1'), info('img1')])).toBe(2);
    const files = attributesOf(doc, 'file');
    expect(files).toHaveLength(1);
    expect(files[0]?.fileId).toBe('doc1');
    expect(files[0]).not.toHaveProperty('src');
    const images = [...attributesOf(doc, 'image'), ...attributesOf(doc, 'inlineImage')].map((x) => x.src);
    expect(images).toContain('file:img1');
    expect(images).not.toContain('upload:img1');
    expect(
      listFiles(doc)
        .map((f) => f.id)
        .sort(),
    ).toEqual(['doc1', 'img1']);
  });

  it('rewrites the dark-mode source of an image too', () => {
    const { doc } = branch();
    const images: Y.XmlElement[] = [];
    const walk = (node: Y.XmlFragment | Y.XmlElement) => {
      for (const child of node.toArray()) {
        if (!(child instanceof Y.XmlElement)) continue;
        if (child.nodeName === 'image') images.push(child);
        walk(child);
      }
    };
    for (const page of pagesMap(doc).values()) if (page instanceof Y.Map) walk(bodyFragment(page, false) as Y.XmlFragment);
    images[0]?.setAttribute('srcDark', 'upload:dark1');
    expect(uploadingFileIds(doc)).toContain('dark1');
    expect(pointAtUploadedFiles(doc, [info('dark1')])).toBe(1);
    expect(images[0]?.getAttribute('srcDark')).toBe('file:dark1');
  });

  it('changes nothing by looking for uploads', () => {
    const doc = new Y.Doc();
    createPage(doc, { title: 'Empty' });
    createPage(doc, { title: 'With', markdown: '![a](upload:img1)\n' });
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    expect(uploadingFileIds(doc)).toEqual(['img1']);
    expect(updates).toHaveLength(0);
  });

  it('does it in one transaction, and nothing at all when there is nothing to do', () => {
    const { doc } = branch();
    let transactions = 0;
    doc.on('afterTransaction', () => transactions++);
    pointAtUploadedFiles(doc, [info('img1'), info('img2'), info('doc1')]);
    expect(transactions).toBe(1);
    expect(uploadingFileIds(doc)).toEqual([]);
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    expect(pointAtUploadedFiles(doc, [info('img1'), info('img2'), info('doc1')])).toBe(0);
    expect(pointAtUploadedFiles(doc, [])).toBe(0);
    expect(updates).toHaveLength(0);
    expect(transactions).toBe(1);
  });

  it('records an acknowledged file that no block refers to any more, and keeps what a file already records', () => {
    const { doc } = branch();
    expect(pointAtUploadedFiles(doc, [info('gone')])).toBe(0);
    expect(listFiles(doc).map((f) => f.id)).toEqual(['gone']);
    addFile(doc, { ...info('img1'), name: 'renamed.png' });
    pointAtUploadedFiles(doc, [info('img1')]);
    expect(listFiles(doc).find((f) => f.id === 'img1')?.name).toBe('renamed.png');
  });
});
