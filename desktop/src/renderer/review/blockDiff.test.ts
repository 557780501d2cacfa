import { setPageMarkdown } from '@quire/shared/content/body';
import type { NodeJSON } from '@quire/shared/content/json';
import { markdownToBody } from '@quire/shared/content/markdown/parse';
import { createPage, deletePage, updatePage } from '@quire/shared/content/pages';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type BlockChange, type ChangedBlock, type WordPart, diffBlocks, diffPages, foldUnchanged, isLoaded, textOf } from './blockDiff';

const body = (md: string) => markdownToBody(md).doc;
const kinds2 = (a: NodeJSON, b: NodeJSON) => diffBlocks(a, b).map((c) => c.kind);
const kinds = (md1: string, md2: string) => diffBlocks(body(md1), body(md2)).map((b) => b.kind);
const changed = (c: BlockChange | undefined): ChangedBlock => {
  if (c?.kind !== 'changed') throw new Error(`an edited block, not ${c?.kind}`);
  return c;
};
const marked = (words: WordPart[] | undefined, kind: 'added' | 'removed') =>
  (words ?? [])
    .filter((w) => w.kind === kind)
    .map((w) => w.text)
    .join('|');

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

  it('shows one changed list item as that item, its changed words marked, not the whole list replaced', () => {
    const changes = diffBlocks(
      body('Steps:\n\n- Install the CLI\n- Run the setup wizard\n- Open the dashboard\n'),
      body('Steps:\n\n- Install the CLI\n- Run the new setup script\n- Open the dashboard\n'),
    );
    expect(changes.map((c) => c.kind)).toEqual(['same', 'changed']);
    const list = changed(changes[1]);
    expect(list.words).toBeUndefined();
    expect(list.children?.map((c) => c.kind)).toEqual(['same', 'changed', 'same']);
    const item = changed(list.children?.[1]);
    const paragraph = changed(item.children?.[0]);
    expect(marked(paragraph.words, 'removed')).toBe('wizard');
    expect(marked(paragraph.words, 'added')).toBe('new |script');
    expect(paragraph.words?.filter((w) => w.kind === 'same').map((w) => w.text)).toEqual(['Run the ', 'setup ']);
  });

  it('shows one changed table cell inside its row and table', () => {
    const table = (cell: string) => `| Command | What it does |\n| --- | --- |\n| quire sync | ${cell} |\n| quire login | Signs in |\n`;
    const changes = diffBlocks(body(table('Syncs the space')), body(table('Syncs every space')));
    const t = changed(changes[0]);
    expect(t.children?.map((c) => c.kind)).toEqual(['same', 'changed', 'same']);
    const row = changed(t.children?.[1]);
    expect(row.children?.map((c) => c.kind)).toEqual(['same', 'changed']);
    const cell = changed(changed(row.children?.[1]).children?.[0]);
    expect(marked(cell.words, 'removed')).toBe('the');
    expect(marked(cell.words, 'added')).toBe('every');
  });

  it('shows an edited image caption as the caption’s words, the image kept', () => {
    const before = { type: 'doc', content: [{ type: 'image', attrs: { src: 'file:abc', caption: 'The old dashboard' } }] };
    const after = { type: 'doc', content: [{ type: 'image', attrs: { src: 'file:abc', caption: 'The new dashboard' } }] };
    const image = changed(diffBlocks(before, after)[0]);
    expect(image.attrs?.map((a) => a.name)).toEqual(['caption']);
    expect(marked(image.attrs?.[0]?.words, 'removed')).toBe('old');
    expect(marked(image.attrs?.[0]?.words, 'added')).toBe('new');
    // Another picture is another image, not an edit of this one.
    const other = { type: 'doc', content: [{ type: 'image', attrs: { src: 'file:xyz', caption: 'The old dashboard' } }] };
    expect(kinds2(before, { type: 'doc', content: [...(other.content ?? []), { type: 'paragraph' }] })).toEqual([
      'removed',
      'added',
      'added',
    ]);
  });

  it('shows a moved block as moved, not as removed and added', () => {
    const changes = diffBlocks(
      body('First step.\n\nSecond step.\n\nA note about both steps.\n'),
      body('A note about both steps.\n\nFirst step.\n\nSecond step.\n'),
    );
    expect(changes.map((c) => c.kind).sort()).toEqual(['moved', 'movedAway', 'same', 'same']);
    expect(changes.filter((c) => c.kind === 'moved' || c.kind === 'movedAway').map((c) => 'block' in c && textOf(c.block))).toEqual([
      'A note about both steps.',
      'A note about both steps.',
    ]);
  });

  it('marks a word made bold as changed, and keeps marks on the words it shows', () => {
    const p = changed(diffBlocks(body('Run **quire** now.\n'), body('Run **quire** now, **always**.\n'))[0]);
    expect(marked(p.words, 'added')).toBe(', always');
    const kept = p.words?.flatMap((w) => w.nodes).find((n) => n.text === 'quire');
    expect(kept?.marks).toEqual([{ type: 'bold' }]);
  });

  it('draws a change request against where it started: main’s later edits are not its changes', () => {
    const main = new Y.Doc();
    const install = createPage(main, { title: 'Install', markdown: 'Install the CLI.\n' });
    const usage = createPage(main, { title: 'Usage', markdown: 'Run it.\n' });
    const base = new Y.Doc();
    Y.applyUpdate(base, Y.encodeStateAsUpdate(main));
    const branch = new Y.Doc();
    Y.applyUpdate(branch, Y.encodeStateAsUpdate(main));
    setPageMarkdown(branch, usage, 'Run it every day.\n');
    setPageMarkdown(main, install, 'Install the CLI and log in.\n');
    createPage(main, { title: 'Added on main', markdown: 'New.\n' });
    const pages = diffPages(base, branch);
    expect(pages.map((p) => [p.kind, p.title])).toEqual([['edited', 'Usage']]);
    // What updating from main would bring, apart from the request's own changes.
    expect(diffPages(base, main).map((p) => [p.kind, p.title])).toEqual([
      ['edited', 'Install'],
      ['added', 'Added on main'],
    ]);
  });

  it('knows a branch that has not loaded yet from an empty one', () => {
    expect(isLoaded(new Y.Doc())).toBe(false);
    const doc = new Y.Doc();
    createPage(doc, { title: 'x' });
    expect(isLoaded(doc)).toBe(true);
  });
});
