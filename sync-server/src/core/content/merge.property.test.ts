import { createPage, deletePage, getPageMarkdown, listPages, movePage, setPageMarkdown, updatePage } from '@quire/shared/content/index';
import fc from 'fast-check';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestServer } from '../../testing/harness';
import { createSpace } from '../../store/spaces';
import { appendUpdate, loadDocUpdate, loadYDoc, updatesSince } from '../../store/ydocs';
import { branchDocId } from './branches';
import { mergeChangeRequest, openChangeRequest, updateFromMain } from './changeRequests';
import { cutRevision, docAtRevision, initSpaceContent } from './revisions';

let t: TestServer;
beforeAll(async () => {
  t = await TestServer.start();
});
afterAll(async () => t?.close());

type Target = 0 | 1 | 2; // main, change request A, change request B
type Op =
  | { kind: 'add'; on: Target; title: string; parent: number }
  | { kind: 'rename'; on: Target; page: number; title: string }
  | { kind: 'move'; on: Target; page: number; parent: number }
  | { kind: 'body'; on: Target; page: number; text: string }
  | { kind: 'delete'; on: Target; page: number }
  | { kind: 'cut'; on: Target };

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa');
const on = fc.constantFrom<Target>(0, 1, 2);
const idx = fc.nat(20);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), on, title: word, parent: fc.integer({ min: -1, max: 20 }) }),
  fc.record({ kind: fc.constant('rename' as const), on, page: idx, title: word }),
  fc.record({ kind: fc.constant('move' as const), on, page: idx, parent: fc.integer({ min: -1, max: 20 }) }),
  fc.record({
    kind: fc.constant('body' as const),
    on,
    page: idx,
    text: fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' ')),
  }),
  fc.record({ kind: fc.constant('delete' as const), on, page: idx }),
  fc.record({ kind: fc.constant('cut' as const), on }),
);

/** What a reader sees of a branch: the page tree in order, each page's fields and markdown. */
function snapshot(doc: Y.Doc) {
  return listPages(doc).map((p) => ({ ...p, markdown: getPageMarkdown(doc, p.id) }));
}

function applyOp(doc: Y.Doc, o: Op) {
  const pages = listPages(doc);
  const pick = (i: number) => (pages.length ? pages[i % pages.length] : undefined);
  try {
    switch (o.kind) {
      case 'add':
        createPage(doc, { title: o.title, parent: o.parent < 0 ? null : (pick(o.parent)?.id ?? null), markdown: `${o.title} text.\n` });
        break;
      case 'rename': {
        const p = pick(o.page);
        if (p) updatePage(doc, p.id, { title: o.title });
        break;
      }
      case 'move': {
        const p = pick(o.page);
        if (p) movePage(doc, p.id, { parent: o.parent < 0 ? null : (pick(o.parent)?.id ?? null) });
        break;
      }
      case 'body': {
        const p = pick(o.page);
        if (p) setPageMarkdown(doc, p.id, `${o.text}\n`);
        break;
      }
      case 'delete': {
        const p = pick(o.page);
        if (p) deletePage(doc, p.id);
        break;
      }
    }
  } catch (err) {
    // Moves under a descendant are refused by the model; anything else is a real failure.
    if (!(err instanceof Error && err.name === 'ContentError')) throw err;
  }
}

describe('merging change requests', () => {
  it('converges: concurrent edits on main and two change requests, merged in any order, give the same content everywhere', async () => {
    const { orgId, admin } = await t.org();
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 24 }), fc.boolean(), fc.boolean(), async (ops, aFirst, updateBetween) => {
        const space = await t.db.transaction(async (tx) => {
          const s = await createSpace(tx, orgId, { title: 'Prop' });
          await initSpaceContent(tx, s.id);
          return s;
        });
        const main = { spaceId: space.id };
        const mainId = branchDocId(main);
        // Seed main with a few pages, as a live client would.
        const seed = new Y.Doc();
        const seedUpdates: Uint8Array[] = [];
        seed.on('update', (u: Uint8Array) => seedUpdates.push(u));
        const root = createPage(seed, { title: 'Root', markdown: 'Root text.\n' });
        createPage(seed, { title: 'Child', parent: root, markdown: 'Child text.\n' });
        createPage(seed, { title: 'Other', markdown: 'Other text.\n' });
        for (const u of seedUpdates) await appendUpdate(t.db, mainId, u);
        await cutRevision(t.db, main);

        const a = await openChangeRequest(t.db, space.id, admin.id, { subject: 'A' });
        const b = await openChangeRequest(t.db, space.id, admin.id, { subject: 'B' });
        const branches = [main, { spaceId: space.id, changeRequestId: a.id }, { spaceId: space.id, changeRequestId: b.id }];
        // One live replica per branch, plus a second replica of main that only catches up at the end.
        const replicas = await Promise.all(branches.map(async (br) => (await loadYDoc(t.db, branchDocId(br))).doc));
        const lagging = (await loadYDoc(t.db, mainId)).doc;
        const lastSeen = (await loadDocUpdate(t.db, mainId)).seq;
        const everything = new Y.Doc();
        Y.applyUpdate(everything, Y.encodeStateAsUpdate(replicas[0] as Y.Doc));

        for (const o of ops) {
          const doc = replicas[o.on] as Y.Doc;
          if (o.kind === 'cut') {
            await cutRevision(t.db, branches[o.on] as (typeof branches)[0]);
            continue;
          }
          const updates: Uint8Array[] = [];
          const listen = (u: Uint8Array) => updates.push(u);
          doc.on('update', listen);
          applyOp(doc, o);
          doc.off('update', listen);
          for (const u of updates) {
            await appendUpdate(t.db, branchDocId(branches[o.on] as (typeof branches)[0]), u);
            Y.applyUpdate(everything, u);
          }
        }

        const [first, second] = aFirst ? [a, b] : [b, a];
        await mergeChangeRequest(t.db, first.id, admin.id);
        if (updateBetween) await updateFromMain(t.db, second.id, admin.id);
        const merged = await mergeChangeRequest(t.db, second.id, admin.id);

        // The server's revision, a replica that catches up from the log, a fresh replica
        // and the reference (every edit applied to one document) all read the same.
        const server = snapshot(await docAtRevision(t.db, merged.revision));
        for (const u of await updatesSince(t.db, mainId, lastSeen)) Y.applyUpdate(lagging, u.update);
        Y.applyUpdate(replicas[0] as Y.Doc, (await loadDocUpdate(t.db, mainId)).update);
        const fresh = (await loadYDoc(t.db, mainId)).doc;
        expect(snapshot(lagging)).toEqual(server);
        expect(snapshot(replicas[0] as Y.Doc)).toEqual(server);
        expect(snapshot(fresh)).toEqual(server);
        expect(snapshot(everything)).toEqual(server);
        const rest = await t.get(`/v1/spaces/${space.id}/content/pages`, admin.token);
        expect(JSON.stringify(rest.body.pages)).toContain(server[0]?.id ?? '');
      }),
      { numRuns: 12 },
    );
  });
});
