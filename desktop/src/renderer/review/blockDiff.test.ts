import { setPageMarkdown } from '@quire/shared/content/body';
import { markdownToBody } from '@quire/shared/content/markdown/parse';
import { createPage, deletePage, updatePage } from '@quire/shared/content/pages';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { diffBlocks, diffPages, foldUnchanged, isLoaded } from './blockDiff';

const body = (md: string) => markdownToBody(md).doc;
const kinds = (md1: string, md2: string) => diffBlocks(body(md1), body(md2)).map((b) => b.kind);

describe('block-level diff', () => {
  it('marks added, removed and edited blocks, with the changed words of an edit', () => {
    const changes = diffBlocks(
      body('# Install\n\nRun the installer.\n\nOld note.\n\n![diagram](https://example.com/a.png)\n'),
      body('# Install\n\nRun the installer on Windows.\n\n![diagram](https://example.com/a.png)\n\n- a new list\n'),
    );
    expect(changes.map((c) => c.kind)).toEqual(['same', 'changed', 'removed', 'same', 'added']);
    const edit = changes[1];
    if (edit?.kind !== 'changed' || !edit.words) throw new Error('an edited paragraph');
    const side = (k: 'added' | 'removed') =>
      edit
        .words!.filter((w) => w.kind !== k)
        .map((w) => w.text)
        .join('');
    expect(side('added')).toBe('Run the installer.');
    expect(side('removed')).toBe('Run the installer on Windows.');
    expect(
      edit.words
        .filter((w) => w.kind === 'added')
        .map((w) => w.text)
        .join(''),
    ).toContain('on Windows');
  });

  it('does not pair blocks of different kinds as an edit', () => {
    expect(kinds('Some text.\n', '## Some text.\n')).toEqual(['removed', 'added']);
    expect(kinds('## A\n', '### A\n')).toEqual(['removed', 'added']);
  });

  it('folds unchanged blocks far from a change', () => {
    const many = Array.from({ length: 10 }, (_, i) => `Paragraph ${i}.`).join('\n\n');
    const folded = foldUnchanged(diffBlocks(body(many), body(`${many}\n\nAdded at the end.`)));
    expect(folded.map((b) => b.kind)).toEqual(['fold', 'same', 'added']);
    expect(folded[0]).toEqual({ kind: 'fold', count: 9 });
  });

  it('lists pages added, removed, renamed and edited between two branches', () => {
    const main = new Y.Doc();
    const keep = createPage(main, { title: 'Keep', markdown: 'Same.' });
    const edit = createPage(main, { title: 'Edit', markdown: 'Before.' });
    const gone = createPage(main, { title: 'Gone', markdown: 'Bye.' });
    const branch = new Y.Doc();
    Y.applyUpdate(branch, Y.encodeStateAsUpdate(main));
    setPageMarkdown(branch, edit, 'After.');
    updatePage(branch, edit, { title: 'Edited' });
    deletePage(branch, gone);
    const added = createPage(branch, { title: 'New', markdown: 'Hello.' });
    const pages = diffPages(main, branch);
    expect(pages.map((p) => [p.kind, p.title])).toEqual([
      ['edited', 'Edited'],
      ['added', 'New'],
      ['removed', 'Gone'],
    ]);
    expect(pages[0]?.previousTitle).toBe('Edit');
    expect(pages.find((p) => p.pageId === added)?.blocks.map((b) => b.kind)).toEqual(['added']);
    expect(pages.some((p) => p.pageId === keep)).toBe(false);
  });

  it('knows a branch that has not loaded yet from an empty one', () => {
    expect(isLoaded(new Y.Doc())).toBe(false);
    const doc = new Y.Doc();
    createPage(doc, { title: 'x' });
    expect(isLoaded(doc)).toBe(true);
  });
});
