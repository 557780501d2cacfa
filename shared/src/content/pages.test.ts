import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { keyBetween } from '../order';
import { ContentError } from './errors';
import {
  createPage,
  deletePage,
  findPageByPath,
  flattenPageTree,
  getPage,
  getPageDocument,
  getPageMarkdown,
  listPages,
  movePage,
  type PageTreeNode,
  pagePath,
  pageTree,
  updatePage,
} from './index';
import { PageKey, pagesMap } from './layout';

/** `title(children…)` outline of a tree, for readable assertions. */
function outline(nodes: readonly PageTreeNode[]): string[] {
  return nodes.map((node) => (node.children.length > 0 ? `${node.title}(${outline(node.children).join(' ')})` : node.title));
}

function sync(a: Y.Doc, b: Y.Doc): void {
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
}

function replicaOf(doc: Y.Doc): Y.Doc {
  const replica = new Y.Doc();
  Y.applyUpdate(replica, Y.encodeStateAsUpdate(doc));
  return replica;
}

function expectEveryPageOnce(doc: Y.Doc): void {
  const shown = flattenPageTree(pageTree(doc)).map((node) => node.id);
  expect(shown.length).toBe(new Set(shown).size);
  expect(new Set(shown)).toEqual(new Set(pagesMap(doc).keys()));
}

describe('pages', () => {
  it('creates pages with defaults, a body and a unique slug per parent', () => {
    const doc = new Y.Doc();
    const guide = createPage(doc, { title: 'Guide' });
    const intro = createPage(doc, { title: 'Intro', parent: guide, markdown: '# Hello\n' });
    const intro2 = createPage(doc, { title: 'Intro', parent: guide });
    const rootIntro = createPage(doc, { title: 'Intro' });
    expect(getPage(doc, intro)).toMatchObject({ type: 'document', parent: guide, slug: 'intro', hidden: false, description: '' });
    expect(getPage(doc, intro2)?.slug).toBe('intro-2');
    expect(getPage(doc, rootIntro)?.slug).toBe('intro');
    expect(pagePath(doc, intro2)).toBe('guide/intro-2');
    expect(getPageMarkdown(doc, intro)).toBe('# Hello\n');
    expect(getPageDocument(doc, intro2)).toEqual({ type: 'doc', content: [{ type: 'paragraph' }] });
    expect(intro.length).toBeGreaterThanOrEqual(20);
  });

  it('keeps siblings in the order they were placed', () => {
    const doc = new Y.Doc();
    const b = createPage(doc, { title: 'B' });
    createPage(doc, { title: 'D' });
    createPage(doc, { title: 'A', before: b });
    createPage(doc, { title: 'C', after: b });
    createPage(doc, { title: 'E' });
    expect(outline(pageTree(doc))).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(listPages(doc).map((page) => page.title)).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('orders siblings by fractional keys compared as plain strings, and fits new pages between keys another client wrote', () => {
    const doc = new Y.Doc();
    const foreign = (id: string, title: string, order: string) => {
      const page = new Y.Map<unknown>();
      pagesMap(doc).set(id, page);
      page.set('title', title);
      page.set('type', 'document');
      page.set('parent', null);
      page.set('order', order);
      page.set('body', new Y.XmlFragment());
    };
    foreign('foreign-page-00000000b', 'B', 'a0');
    // 'Z' sorts before 'a' by code unit (the order fractional keys are made for), not in a locale's order.
    foreign('foreign-page-00000000a', 'A', 'Zz');
    foreign('foreign-page-00000000c', 'C', 'a1');
    expect(outline(pageTree(doc))).toEqual(['A', 'B', 'C']);
    const inserted = createPage(doc, { title: 'B2', after: 'foreign-page-00000000b' });
    expect(getPage(doc, inserted)?.order).toBe(keyBetween('a0', 'a1'));
    expect(outline(pageTree(doc))).toEqual(['A', 'B', 'B2', 'C']);
    // Placing a page writes its own key only: the others keep theirs.
    expect(['foreign-page-00000000a', 'foreign-page-00000000b', 'foreign-page-00000000c'].map((id) => getPage(doc, id)?.order)).toEqual([
      'Zz',
      'a0',
      'a1',
    ]);
    const fresh = new Y.Doc();
    expect(getPage(fresh, createPage(fresh, { title: 'First' }))?.order).toBe(keyBetween(null, null));
  });

  it('stores link and computed pages as plain values', () => {
    const doc = new Y.Doc();
    const link = createPage(doc, { title: 'Status', type: 'link', href: 'https://status.acme.dev' });
    const api = createPage(doc, {
      title: 'API',
      computed: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } }, props: { doc: true } },
    });
    expect(getPage(doc, link)).toMatchObject({ type: 'link', href: 'https://status.acme.dev' });
    expect(getPage(doc, api)?.computed).toEqual({
      type: 'builtin:openapi',
      dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } },
      props: { doc: true },
    });
  });

  it('reads a page written by a minimal client with defaults, and keeps keys it does not know', () => {
    const doc = new Y.Doc();
    const page = new Y.Map<unknown>();
    pagesMap(doc).set('minimal-page-id-000001', page);
    page.set('title', 'Written elsewhere');
    page.set('type', 'document');
    page.set('parent', null);
    page.set('order', 'a0');
    page.set('body', new Y.XmlFragment());
    page.set('x-plugin', { color: 'teal' });
    expect(getPage(doc, 'minimal-page-id-000001')).toEqual({
      id: 'minimal-page-id-000001',
      type: 'document',
      title: 'Written elsewhere',
      emoji: null,
      icon: null,
      slug: 'written-elsewhere',
      description: '',
      parent: null,
      order: 'a0',
      hidden: false,
      noIndex: false,
      noRobotsIndex: false,
      layout: null,
      cover: null,
      href: null,
      computed: null,
      variables: {},
      git: null,
    });
    updatePage(doc, 'minimal-page-id-000001', { title: 'Renamed', emoji: '🚀', hidden: true, layout: { width: 'wide' } });
    expect(page.get('x-plugin')).toEqual({ color: 'teal' });
    expect(getPage(doc, 'minimal-page-id-000001')).toMatchObject({
      title: 'Renamed',
      emoji: '🚀',
      hidden: true,
      layout: { width: 'wide' },
    });
  });

  it('reads and writes the documented page keys under their literal names', () => {
    const doc = new Y.Doc();
    const page = new Y.Map<unknown>();
    pagesMap(doc).set('foreign-page-id-000001', page);
    for (const [key, value] of Object.entries({
      title: 'Setup',
      type: 'document',
      parent: null,
      order: 'a0',
      emoji: '🛠',
      icon: 'wrench',
      slug: 'set-up',
      description: 'Before you start',
      hidden: true,
      layout: { width: 'wide' },
    })) {
      page.set(key, value);
    }
    page.set('body', new Y.XmlFragment());
    expect(getPage(doc, 'foreign-page-id-000001')).toMatchObject({
      title: 'Setup',
      emoji: '🛠',
      icon: 'wrench',
      slug: 'set-up',
      description: 'Before you start',
      hidden: true,
      layout: { width: 'wide' },
    });
    const id = createPage(doc, {
      title: 'Mine',
      emoji: '📘',
      icon: 'book',
      description: 'Mine too',
      hidden: true,
      layout: { width: 'default' },
    });
    const mine = pagesMap(doc).get(id) as Y.Map<unknown>;
    expect(Object.keys(mine.toJSON()).sort()).toEqual(
      ['body', 'description', 'emoji', 'hidden', 'icon', 'layout', 'order', 'parent', 'slug', 'title', 'type'].sort(),
    );
    expect(mine.get('body')).toBeInstanceOf(Y.XmlFragment);
    expect(mine.toJSON()).toMatchObject({ title: 'Mine', type: 'document', parent: null, emoji: '📘', icon: 'book', hidden: true });
  });

  it('slugifies and de-duplicates a slug set by hand', () => {
    const doc = new Y.Doc();
    createPage(doc, { title: 'Setup' });
    const other = createPage(doc, { title: 'Other' });
    expect(updatePage(doc, other, { slug: 'Setup!' }).slug).toBe('setup-2');
  });

  it('moves a page under another parent and between siblings', () => {
    const doc = new Y.Doc();
    const a = createPage(doc, { title: 'A' });
    const b = createPage(doc, { title: 'B' });
    const c = createPage(doc, { title: 'C' });
    movePage(doc, c, { parent: a });
    movePage(doc, b, { after: c });
    movePage(doc, a, { parent: null });
    expect(outline(pageTree(doc))).toEqual(['A(C B)']);
    movePage(doc, b, { before: c });
    expect(outline(pageTree(doc))).toEqual(['A(B C)']);
    expect(findPageByPath(doc, '/a/c/')?.id).toBe(c);
  });

  it('gives a moved page a slug its new siblings do not use', () => {
    const doc = new Y.Doc();
    const folder = createPage(doc, { title: 'Folder' });
    createPage(doc, { title: 'Notes', parent: folder });
    const notes = createPage(doc, { title: 'Notes' });
    movePage(doc, notes, { parent: folder });
    expect(pagePath(doc, notes)).toBe('folder/notes-2');
  });

  it('refuses moves that would lose a page', () => {
    const doc = new Y.Doc();
    const a = createPage(doc, { title: 'A' });
    const b = createPage(doc, { title: 'B', parent: a });
    expect(() => movePage(doc, a, { parent: b })).toThrow(ContentError);
    expect(() => movePage(doc, a, { parent: a })).toThrow(/own parent/);
    expect(() => movePage(doc, a, { parent: 'missing-page-id-0000001' })).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => movePage(doc, b, { parent: null, after: b })).toThrow(/next to itself/);
    expect(outline(pageTree(doc))).toEqual(['A(B)']);
  });

  it('deletes a page with everything under it', () => {
    const doc = new Y.Doc();
    const a = createPage(doc, { title: 'A' });
    const b = createPage(doc, { title: 'B', parent: a });
    createPage(doc, { title: 'C', parent: b });
    const d = createPage(doc, { title: 'D' });
    expect(deletePage(doc, a)).toHaveLength(3);
    expect(listPages(doc).map((page) => page.id)).toEqual([d]);
    expect(deletePage(doc, a)).toEqual([]);
  });
});

describe('page tree under concurrent edits', () => {
  it('converges when two replicas move the same page to different parents', () => {
    const left = new Y.Doc();
    const p1 = createPage(left, { title: 'P1' });
    const p2 = createPage(left, { title: 'P2' });
    const x = createPage(left, { title: 'X' });
    const right = replicaOf(left);
    movePage(left, x, { parent: p1 });
    movePage(right, x, { parent: p2 });
    sync(left, right);
    expect(pageTree(left)).toEqual(pageTree(right));
    expectEveryPageOnce(left);
    expect(flattenPageTree(pageTree(left)).filter((node) => node.id === x)).toHaveLength(1);
    expect([p1, p2]).toContain(getPage(left, x)?.parent);
  });

  it('shows every page once when two concurrent moves make a cycle', () => {
    const left = new Y.Doc();
    const p = createPage(left, { id: 'page-p-0000000000000001', title: 'P' });
    const q = createPage(left, { id: 'page-q-0000000000000001', title: 'Q' });
    createPage(left, { title: 'Child of Q', parent: q });
    const right = replicaOf(left);
    movePage(left, p, { parent: q });
    movePage(right, q, { parent: p });
    sync(left, right);
    expect(getPage(left, p)?.parent).toBe(q);
    expect(getPage(left, q)?.parent).toBe(p);
    expect(outline(pageTree(left))).toEqual(['P(Q(Child of Q))']);
    expect(pageTree(right)).toEqual(pageTree(left));
    expectEveryPageOnce(left);
    // an ordinary move of the page shown at the root cuts the cycle for good
    movePage(left, p, { parent: null });
    expect(getPage(left, p)?.parent).toBeNull();
    expect(outline(pageTree(left))).toEqual(['P(Q(Child of Q))']);
  });

  it('keeps both pages inserted concurrently at the same place, and can still insert between them', () => {
    const left = new Y.Doc();
    const first = createPage(left, { title: 'First' });
    const right = replicaOf(left);
    const fromLeft = createPage(left, { id: 'aaaaaaaaaaaaaaaaaaaaaa', title: 'Left', after: first });
    const fromRight = createPage(right, { id: 'bbbbbbbbbbbbbbbbbbbbbb', title: 'Right', after: first });
    sync(left, right);
    expect(getPage(left, fromLeft)?.order).toBe(getPage(left, fromRight)?.order);
    expect(outline(pageTree(left))).toEqual(['First', 'Left', 'Right']);
    expect(pageTree(right)).toEqual(pageTree(left));
    expect(pagePath(left, fromRight)).toBe('right');
    createPage(left, { title: 'Between', after: fromLeft });
    expect(outline(pageTree(left))).toEqual(['First', 'Left', 'Between', 'Right']);
  });

  it('shows a page at the root when its parent was deleted concurrently', () => {
    const left = new Y.Doc();
    const folder = createPage(left, { title: 'Folder' });
    const page = createPage(left, { title: 'Page' });
    const right = replicaOf(left);
    deletePage(left, folder);
    movePage(right, page, { parent: folder });
    sync(left, right);
    expect(outline(pageTree(left))).toEqual(['Page']);
    expect(pageTree(right)).toEqual(pageTree(left));
  });

  it('converges and loses nothing under many random concurrent moves', () => {
    const seedDoc = new Y.Doc();
    const ids = Array.from({ length: 8 }, (_, i) => createPage(seedDoc, { id: `page-${i}-000000000000000000`, title: `P${i}` }));
    let state = 12345;
    const random = (n: number): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % n;
    };
    const replicas = [replicaOf(seedDoc), replicaOf(seedDoc), replicaOf(seedDoc)];
    for (let round = 0; round < 30; round++) {
      for (const replica of replicas) {
        const id = ids[random(ids.length)] as string;
        const target = ids[random(ids.length)] as string;
        try {
          const kind = random(3);
          if (kind === 0) movePage(replica, id, { parent: null });
          else if (kind === 1) movePage(replica, id, { parent: target });
          else movePage(replica, id, { after: target });
        } catch (error) {
          expect(error).toBeInstanceOf(ContentError);
        }
      }
      if (round % 4 === 3) {
        sync(replicas[0] as Y.Doc, replicas[1] as Y.Doc);
        sync(replicas[1] as Y.Doc, replicas[2] as Y.Doc);
      }
    }
    sync(replicas[0] as Y.Doc, replicas[1] as Y.Doc);
    sync(replicas[1] as Y.Doc, replicas[2] as Y.Doc);
    sync(replicas[0] as Y.Doc, replicas[1] as Y.Doc);
    for (const replica of replicas) {
      expectEveryPageOnce(replica);
      expect(pageTree(replica)).toEqual(pageTree(replicas[0] as Y.Doc));
    }
    expect(pagesMap(replicas[0] as Y.Doc).get(ids[0] as string)).toBeInstanceOf(Y.Map);
    expect(String((pagesMap(replicas[0] as Y.Doc).get(ids[0] as string) as Y.Map<unknown>).get(PageKey.title))).toBe('P0');
  });
});
