import { getPageDocument, setPageDocument } from '@quire/shared/content/body';
import { createPage, deletePage, listPages, movePage, updatePage } from '@quire/shared/content/pages';
import fc from 'fast-check';
import type { WebsocketProvider } from 'y-websocket';
import type * as Y from 'yjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalNode } from '../../desktop/src/local/LocalNode';
import { MemoryCredentialStore } from '../../desktop/src/local/credentials';
import { type QuireTestServer, eventually, startQuireServer } from './helpers/server';

/**
 * Two LocalNodes and a client editing on the server side make random edits to the same
 * space while the nodes drop offline and come back at random; once everyone is back
 * online they hold the same pages, tree and bodies.
 */

let s: QuireTestServer;
let a: LocalNode;
let b: LocalNode;
beforeAll(async () => {
  s = await startQuireServer();
  a = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
  b = await LocalNode.open({ credentials: new MemoryCredentialStore(), probeIntervalMs: 100 });
  await a.session.connect(s.url, s.token);
  await b.session.connect(s.url, s.otherToken);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await s?.close();
});

type Who = 'a' | 'b' | 'server';
type Edit =
  | { kind: 'add'; who: Who; title: string; under: number | null }
  | { kind: 'rename'; who: Who; page: number; title: string }
  | { kind: 'move'; who: Who; page: number; before: number }
  | { kind: 'delete'; who: Who; page: number }
  | { kind: 'type'; who: Who; page: number; text: string }
  | { kind: 'offline' | 'online'; who: 'a' | 'b' };

const who = fc.constantFrom<Who>('a', 'b', 'server');
const word = fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom(...'abcdefgh xyz'.split('')) });
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), who, title: word, under: fc.option(fc.nat(20), { nil: null }) }),
  fc.record({ kind: fc.constant('rename' as const), who, page: fc.nat(20), title: word }),
  fc.record({ kind: fc.constant('move' as const), who, page: fc.nat(20), before: fc.nat(20) }),
  fc.record({ kind: fc.constant('delete' as const), who, page: fc.nat(20) }),
  fc.record({ kind: fc.constant('type' as const), who, page: fc.nat(20), text: word }),
  fc.record({ kind: fc.constantFrom('offline' as const, 'online' as const), who: fc.constantFrom<'a' | 'b'>('a', 'b') }),
);

function apply(doc: Y.Doc, e: Exclude<Edit, { kind: 'offline' | 'online' }>) {
  const pages = listPages(doc);
  const pick = (i: number) => pages[i % Math.max(1, pages.length)];
  if (e.kind === 'add' || pages.length === 0) {
    const parent = e.kind === 'add' && e.under !== null ? (pick(e.under)?.id ?? null) : null;
    createPage(doc, { title: e.kind === 'add' ? e.title : 'seed', parent });
    return;
  }
  const page = pick(e.page);
  if (!page) return;
  if (e.kind === 'rename') updatePage(doc, page.id, { title: e.title });
  if (e.kind === 'delete') deletePage(doc, page.id);
  if (e.kind === 'move') {
    const target = pick(e.before);
    try {
      if (target && target.id !== page.id) movePage(doc, page.id, { before: target.id });
    } catch {
      // moving a page under its own descendant is refused: not an edit
    }
  }
  if (e.kind === 'type') {
    const body = getPageDocument(doc, page.id);
    body.content = [...(body.content ?? []), { type: 'paragraph', content: [{ type: 'text', text: e.text }] }];
    setPageDocument(doc, page.id, body);
  }
}

/** Everything a reader sees: tree, titles and bodies. */
function snapshot(doc: Y.Doc) {
  return listPages(doc).map((p) => ({ id: p.id, title: p.title, parent: p.parent, order: p.order, body: getPageDocument(doc, p.id) }));
}

it('offline edits on two LocalNodes and on the server converge after reconnecting', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(edit, { minLength: 4, maxLength: 18 }), async (edits) => {
      const created = await s.live.t.post(`/v1/orgs/${s.orgId}/spaces`, s.token, { title: 'Property' });
      const spaceId = created.body.id as string;
      await Promise.all([a.catalog.refresh(), b.catalog.refresh()]);
      const [da, db] = await Promise.all([a.branches.acquire({ spaceId }), b.branches.acquire({ spaceId })]);
      const server: WebsocketProvider = s.live.provider(`spaces/${spaceId}`, s.token);
      const docs: Record<Who, Y.Doc> = { a: da.doc, b: db.doc, server: server.doc };
      await eventually(() => da.isOnline && db.isOnline && server.synced, 'everyone connected');
      try {
        for (const e of edits) {
          if (e.kind === 'offline' || e.kind === 'online') {
            await (e.who === 'a' ? a : b).session.setWorkOffline(e.kind === 'offline');
            continue;
          }
          apply(docs[e.who], e as Exclude<Edit, { kind: 'offline' | 'online' }>);
          // Let some edits cross while others are still in flight.
          if (Math.random() < 0.3) await new Promise((r) => setTimeout(r, 20));
        }
        await Promise.all([a.session.setWorkOffline(false), b.session.setWorkOffline(false)]);
        await eventually(
          () => {
            const x = JSON.stringify(snapshot(docs.a));
            return x === JSON.stringify(snapshot(docs.b)) && x === JSON.stringify(snapshot(docs.server));
          },
          'convergence',
          15_000,
        );
        expect(snapshot(docs.a)).toEqual(snapshot(docs.server));
        // And every edit made offline was acknowledged: nothing waits any more.
        await eventually(
          async () => (await a.session.status()).pending === 0 && (await b.session.status()).pending === 0,
          'nothing pending',
        );
      } finally {
        server.destroy();
        await Promise.all([a.branches.release({ spaceId }), b.branches.release({ spaceId })]);
      }
    }),
    { numRuns: 6, endOnFailure: true },
  );
}, 180_000);
