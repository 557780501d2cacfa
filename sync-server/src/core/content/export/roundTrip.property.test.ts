import {
  type NodeJSON,
  type PageTreeNode,
  addFile,
  createPage,
  getPage,
  getPageDocument,
  listFiles,
  markdownToBody,
  normalizeBody,
  pageTree,
  setPageDocument,
  updatePage,
} from '@quire/shared/content/index';
import { bodyToMarkdown } from '@quire/shared/content/markdown/serialize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { CONTENT_DEFAULTS } from '../config';
import { planArchiveImport } from '../import/markdown';
import { applyPlan } from '../import/plan';
import { type ExportFiles, exportBranchAsMarkdown } from './markdown';

/** A space's content and the bytes of its files. */
interface Space {
  doc: Y.Doc;
  bytes: Map<string, Uint8Array>;
}

async function exportSpace(space: Space): Promise<ExportFiles> {
  return exportBranchAsMarkdown(space.doc, async (file) => space.bytes.get(file.id));
}

async function importFolder(files: ExportFiles): Promise<Space> {
  const plan = await planArchiveImport(files, CONTENT_DEFAULTS);
  const doc = new Y.Doc();
  applyPlan(doc, plan);
  return { doc, bytes: new Map(plan.files.map((f) => [f.id, f.bytes])) };
}

const word = fc.constantFrom(
  'Guide',
  'setup',
  'é',
  '&',
  '[x]',
  '*',
  '_',
  '#1',
  '<b>',
  '100%',
  'a|b',
  '$$',
  '`code`',
  'Ünïcödé',
  '(v2)',
  '&amp;',
  '&#x26;',
);
const title = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
const fileName = fc
  .tuple(
    fc.array(fc.constantFrom('screen shot', 'icon_dark', '(1)', '%20', 'é', '#', '&', '[a]', 'x'), { minLength: 1, maxLength: 3 }),
    fc.constantFrom('.png', '.svg', '.pdf', '.gif'),
  )
  .map(([parts, ext]) => parts.join(' ') + ext);

interface PageSpec {
  title: string;
  kind: 'document' | 'group' | 'link';
  description: string | null;
  emoji: string | null;
  hidden: boolean;
  children: PageSpec[];
}

const pageSpec: fc.Arbitrary<PageSpec> = fc.letrec<{ page: PageSpec }>((tie) => {
  const fields = {
    title,
    kind: fc.constantFrom<PageSpec['kind']>('document', 'document', 'document', 'link'),
    description: fc.constantFrom(null, 'About: this & that'),
    emoji: fc.constantFrom(null, null, '🚀', '👩‍💻'),
    hidden: fc.boolean(),
  };
  return {
    page: fc.oneof(
      { depthSize: 'small', maxDepth: 2 },
      fc.record({ ...fields, children: fc.constant([] as PageSpec[]) }),
      fc.record({ ...fields, children: fc.array(tie('page'), { maxLength: 3 }) }),
    ),
  };
}).page;

/** Body blocks pointing at `pages` (document ids) and `files`, with the anchors they hold. */
function bodyOf(pick: number[], pages: string[], files: string[]): NodeJSON {
  const page = (i: number) => pages[i % pages.length] as string;
  const file = (i: number) => files[i % files.length] as string;
  const blocks: NodeJSON[] = [{ type: 'heading', attrs: { level: 2, id: 'details' }, content: [{ type: 'text', text: 'Details' }] }];
  for (const n of pick) {
    switch (n % 7) {
      case 0:
        blocks.push({
          type: 'paragraph',
          content: [
            { type: 'text', text: 'See ' },
            { type: 'text', text: 'this page', marks: [{ type: 'link', attrs: { href: `page:${page(n)}#details` } }] },
            { type: 'text', text: ' and ' },
            { type: 'text', text: 'that one', marks: [{ type: 'link', attrs: { href: `page:${page(n + 1)}` } }] },
          ],
        });
        break;
      case 1:
        if (files.length)
          blocks.push({ type: 'image', attrs: { src: `file:${file(n)}`, alt: 'Shot', caption: n % 2 ? 'A caption' : null } });
        break;
      case 2:
        if (files.length)
          blocks.push({ type: 'htmlBlock', attrs: { html: `<div align="center"><img src="file:${file(n)}" alt="x"></div>` } });
        break;
      case 3:
        if (files.length) blocks.push({ type: 'file', attrs: { fileId: file(n), caption: 'Download' } });
        break;
      case 4:
        blocks.push({ type: 'contentRef', attrs: { href: `page:${page(n)}` } });
        break;
      case 5:
        blocks.push({
          type: 'hint',
          attrs: { style: 'warning' },
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'text', text: 'Inline ' },
                { type: 'htmlInline', attrs: { html: `<a href="page:${page(n)}" class="button primary">Go</a>` } },
              ],
            },
          ],
        });
        break;
      default:
        blocks.push({
          type: 'columns',
          content: [
            { type: 'column', attrs: { width: 50 }, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Left $5' }] }] },
            { type: 'column', content: [{ type: 'math', attrs: { tex: 'x^2' } }] },
          ],
        });
    }
  }
  return markdownToBody(bodyToMarkdown(normalizeBody({ type: 'doc', content: blocks }))).doc;
}

/** A generated space: a random tree (groups at the root), bodies linking pages and showing files with awkward names. */
const spaceArbitrary = fc
  .record({
    roots: fc.array(fc.tuple(fc.boolean(), pageSpec), { minLength: 1, maxLength: 4 }),
    files: fc.uniqueArray(fileName, { maxLength: 4, selector: (name) => name.toLowerCase() }),
    picks: fc.array(fc.array(fc.nat(30), { maxLength: 4 }), { minLength: 20, maxLength: 20 }),
    seed: fc.nat(),
  })
  .map(({ roots, files, picks, seed }): Space => {
    const doc = new Y.Doc();
    const bytes = new Map<string, Uint8Array>();
    const fileIds = files.map((name, i) => {
      const id = `File${i}xxxxxxxxxxxxxxxxx`;
      const data = new Uint8Array(16 + i).map((_, b) => (seed + b * (i + 7)) % 256);
      bytes.set(id, data);
      addFile(doc, { id, name, contentType: 'application/octet-stream', size: data.byteLength });
      return id;
    });
    const documents: string[] = [];
    const links: string[] = [];
    const add = (spec: PageSpec, parent: string | null, asGroup: boolean) => {
      const type = asGroup ? 'group' : parent !== null && spec.kind === 'link' && spec.children.length === 0 ? 'link' : 'document';
      const id = createPage(doc, {
        parent,
        title: spec.title,
        type,
        ...(type === 'document' && spec.description ? { description: spec.description } : {}),
        ...(type === 'document' && spec.hidden ? { hidden: true } : {}),
        ...(type === 'document' && spec.emoji ? { emoji: spec.emoji } : {}),
      });
      if (type === 'document') documents.push(id);
      if (type === 'link') links.push(id);
      if (type !== 'link') for (const child of spec.children) add(child, id, false);
    };
    for (const [asGroup, spec] of roots) add(spec, null, asGroup && spec.children.length > 0);
    if (documents.length === 0) documents.push(createPage(doc, { title: 'Home' }));
    doc.transact(() => {
      documents.forEach((id, i) => setPageDocument(doc, id, bodyOf(picks[i % picks.length] as number[], documents, fileIds)));
      links.forEach((id, i) =>
        updatePage(doc, id, { href: i % 2 ? `page:${documents[i % documents.length]}#details` : 'https://example.com/a' }),
      );
    });
    return { doc, bytes };
  });

/** The space with ids replaced by tree positions and file names, so two imports compare. */
function shape(space: Space) {
  const tree = pageTree(space.doc);
  const position = new Map<string, string>();
  const walk = (nodes: PageTreeNode[], prefix: string) =>
    nodes.forEach((node, i) => {
      position.set(node.id, `${prefix}${i}`);
      walk(node.children, `${prefix}${i}.`);
    });
  walk(tree, '');
  const files = listFiles(space.doc);
  const fileName = new Map(files.map((f) => [f.id, f.name]));
  const unId = (text: string) =>
    text
      .replace(/page:([A-Za-z0-9_-]+)/g, (_, id: string) => `page:@${position.get(id) ?? id}`)
      .replace(/file:([A-Za-z0-9_-]+)/g, (_, id: string) => `file:@${fileName.get(id) ?? id}`)
      .replace(/"fileId":"([A-Za-z0-9_-]+)"/g, (_, id: string) => `"fileId":"@${fileName.get(id) ?? id}"`);
  const pages = (nodes: PageTreeNode[]): unknown[] =>
    nodes.map((node) => {
      const page = getPage(space.doc, node.id);
      return {
        type: node.type,
        title: node.title,
        slug: node.slug,
        description: page?.description ?? '',
        emoji: page?.emoji ?? null,
        hidden: page?.hidden ?? false,
        href: node.href ? unId(node.href) : null,
        body: node.type === 'document' ? unId(JSON.stringify(getPageDocument(space.doc, node.id))) : null,
        children: pages(node.children),
      };
    });
  return {
    pages: pages(tree),
    files: files.map((f) => [f.name, Buffer.from(space.bytes.get(f.id) ?? []).toString('base64')]).sort(),
  };
}

function decoded(files: ExportFiles): Record<string, string> {
  return Object.fromEntries([...files].map(([path, bytes]) => [path, Buffer.from(bytes).toString('base64')]));
}

describe('markdown export and import (generated spaces)', () => {
  it('space → export → import keeps the tree, titles, slugs, bodies, links and file bytes; import → export → import too; export → import → export gives identical files', async () => {
    await fc.assert(
      fc.asyncProperty(spaceArbitrary, async (space) => {
        const exported = await exportSpace(space);
        const imported = await importFolder(exported);
        expect(shape(imported)).toEqual(shape(space));
        const again = await exportSpace(imported);
        expect(decoded(again)).toEqual(decoded(exported));
        const reimported = await importFolder(again);
        expect(shape(reimported)).toEqual(shape(imported));
      }),
      { numRuns: 40, seed: 1611 },
    );
  });
});
