import { createPage } from '@quire/shared/content/index';
import { SyncRefusal, changeRequestRoom, spaceRoom } from '@quire/shared/sync';
import * as encoding from 'lib0/encoding';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { cutRevision, revisionState } from '../core/content/revisions';
import type { Db, Queryable } from '../store/db';
import { appendUpdate, compactDoc, loadDocUpdate } from '../store/ydocs';
import { LiveServer, acknowledged, rawClient, refusals, synced, waitFor } from '../testing/syncClients';

/**
 * Races between the live log and the writers around it (compaction, other instances, REST
 * calls that close a branch), each forced to happen at the worst moment.
 */
let s: LiveServer;
beforeAll(async () => {
  // Policies and rechecks far apart: nothing here may depend on a timer catching up.
  s = await LiveServer.start({ sync: { recheckMs: 60_000 } });
});
afterAll(async () => s?.close());

const text = (doc: Y.Doc) => doc.getText('t').toString();
const onPostgres = () => s.db.kind === 'postgres';

async function fixture(roles: ('read' | 'comment' | 'edit')[] = []) {
  const { orgId, admin, members } = await s.t.org(roles);
  const spaceId = await s.space(orgId, admin.token);
  return { orgId, admin, members, spaceId, docId: `space:${spaceId}`, room: spaceRoom(spaceId) };
}

async function storedDoc(docId: string): Promise<Y.Doc> {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, (await loadDocUpdate(s.db, docId)).update);
  return doc;
}

/** An update from a writer of its own, setting one key (no update depends on another). */
function keyUpdate(key: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getMap('m').set(key, true);
  return Y.encodeStateAsUpdate(doc);
}

/** Wraps `q` so that `hook` runs once, right before the first query for which `when` holds. */
function beforeQuery<Q extends Queryable>(q: Q, when: (sql: string, params: unknown[]) => boolean, hook: () => Promise<void>): Q {
  let fired = false;
  return Object.create(q, {
    query: {
      value: async (sql: string, params: unknown[] = []) => {
        if (!fired && when(sql, params)) {
          fired = true;
          await hook();
        }
        return q.query(sql, params);
      },
    },
  }) as Q;
}

describe('the log read against compaction', () => {
  it('a compaction takes no lock while it merges: an edit appended meanwhile is stored at once and kept', async () => {
    const { docId } = await fixture();
    for (const k of ['c1', 'c2', 'c3']) await appendUpdate(s.db, docId, keyUpdate(k), 'elsewhere');
    let merging!: () => void;
    const started = new Promise<void>((resolve) => (merging = resolve));
    // Compaction's read of the log is where it starts merging: it is held there a while.
    const slowRead = <Q extends Queryable>(q: Q) =>
      beforeQuery(
        q,
        (sql) => /SELECT/.test(sql) && /ydoc_updates/.test(sql),
        async () => {
          merging();
          await new Promise((r) => setTimeout(r, 500));
        },
      );
    const slow: Db = Object.create(slowRead(s.db), {
      transaction: { value: <T>(fn: (tx: Queryable) => Promise<T>) => s.db.transaction((tx) => fn(slowRead(tx))) },
    }) as Db;
    let compactedAt = 0;
    const compacting = compactDoc(slow, docId).then(() => (compactedAt = Date.now()));
    await started;
    await appendUpdate(s.db, docId, keyUpdate('c4'), 'elsewhere');
    const appendedAt = Date.now();
    await compacting;
    expect(appendedAt).toBeLessThan(compactedAt);
    expect([...(await storedDoc(docId)).getMap('m').keys()].sort()).toEqual(['c1', 'c2', 'c3', 'c4']);
  });

  it.runIf(process.env.DATABASE_URL)(
    'a revision cut holds every logged edit even when compaction folds the log in the middle of the cut',
    async () => {
      const { admin, spaceId, docId } = await fixture();
      const base = await storedDoc(docId);
      const sv = Y.encodeStateVector(base);
      createPage(base, { title: 'Folded away', markdown: 'Compacted while the revision was cut.' });
      await s.db.transaction((tx) => appendUpdate(tx, docId, Y.encodeStateAsUpdate(base, sv), 'another-instance'));
      // Compaction (another connection) commits right after the cut has read where the log stands.
      let compacted = false;
      const racing: Db = Object.create(s.db, {
        transaction: {
          value: <T>(fn: (tx: Queryable) => Promise<T>) =>
            s.db.transaction((tx) =>
              fn(
                Object.create(tx, {
                  query: {
                    value: async (sql: string, params?: unknown[]) => {
                      const rows = await tx.query(sql, params);
                      if (/\bFROM ydocs\b/.test(sql) && !compacted) {
                        compacted = true;
                        await compactDoc(s.db, docId);
                      }
                      return rows;
                    },
                  },
                }),
              ),
            ),
        },
      }) as Db;
      const cut = await cutRevision(racing, docId);
      expect(cut?.changed).toBe(true);
      const atRevision = new Y.Doc();
      Y.applyUpdate(atRevision, await revisionState(s.db, cut?.revision.id as string));
      const titles = [...atRevision.getMap<Y.Map<unknown>>('pages').values()].map((p) => String(p.get('title')));
      expect(titles).toContain('Folded away');
      const pages = await s.t.get(`/v1/spaces/${spaceId}/content/pages`, admin.token);
      expect(JSON.stringify(pages.body)).toContain('Folded away');
    },
  );

  it('a room reading the store again after a compaction misses none of the rows folded meanwhile', async () => {
    const { admin, docId, room } = await fixture();
    let watched = Number.NaN;
    let raced = false;
    // Another instance appends twice and compacts, then appends once more.
    const race = async () => {
      raced = true;
      for (const k of ['k5', 'k6']) await s.db.transaction((tx) => appendUpdate(tx, docId, keyUpdate(k), 'elsewhere'));
      await compactDoc(s.db, docId);
      await s.db.transaction((tx) => appendUpdate(tx, docId, keyUpdate('k7'), 'elsewhere'));
    };
    // It lands where a room reading the store in two steps is between them: the snapshot's
    // position read, the rows after it not yet.
    const racing = beforeQuery(s.db, (sql, params) => /ydoc_updates/.test(sql) && params[0] === docId && params[1] === watched, race);
    const other = await LiveServer.start({ sync: { recheckMs: 60_000 } }, racing);
    try {
      const p = other.provider(room, admin.token);
      await synced(p);
      // Rows the room has not applied yet are folded into the snapshot in one go, and one more follows:
      // the room has to read the store again.
      await s.db.transaction(async (tx) => {
        for (const k of ['k1', 'k2', 'k3']) await appendUpdate(tx, docId, keyUpdate(k), 'elsewhere');
        await compactDoc({ query: (sql, params) => tx.query(sql, params), transaction: (fn) => fn(tx) }, docId);
        const [row] = await tx.query<{ snapshot_seq: number }>('SELECT snapshot_seq FROM ydocs WHERE id = $1', [docId]);
        watched = Number(row?.snapshot_seq);
        await appendUpdate(tx, docId, keyUpdate('k4'), 'elsewhere');
      });
      const keys = () => [...p.doc.getMap('m').keys()].sort();
      // A room that reads the store in one step has no such moment: the race then lands after it.
      await waitFor(() => raced || keys().includes('k4'), 'the room to catch up');
      if (!raced) await race();
      await waitFor(() => keys().includes('k7'), 'the last row to reach the client');
      expect(keys()).toEqual(['k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7']);
      const late = other.provider(room, admin.token);
      await synced(late);
      expect([...late.doc.getMap('m').keys()].sort()).toEqual(['k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7']);
      p.destroy();
      late.destroy();
    } finally {
      await other.close();
    }
  });
});

describe('a branch closed over REST', () => {
  it('refuses an edit sent right after the lock answered', async () => {
    const { admin, docId, room, spaceId } = await fixture();
    const live = s.provider(room, admin.token);
    const notices = refusals(live);
    await synced(live);
    live.doc.getText('t').insert(0, 'before');
    await acknowledged(live);
    expect((await s.t.patch(`/v1/spaces/${spaceId}`, admin.token, { editMode: 'locked' })).status).toBe(200);
    live.doc.getText('t').insert(6, ' after');
    await acknowledged(live);
    expect(text(await storedDoc(docId))).toBe('before');
    await waitFor(() => notices.length > 0, 'a refusal notice');
    expect(notices[0]).toBe(SyncRefusal.locked);
    expect(live.wsconnected).toBe(true);
    live.destroy();
  });

  it('refuses an edit sent right after the merge answered', async () => {
    const { admin, spaceId } = await fixture();
    const cr = await s.t.post(`/v1/spaces/${spaceId}/change-requests`, admin.token, { subject: 'Soon merged' });
    const live = s.provider(changeRequestRoom(spaceId, cr.body.id), admin.token);
    const notices = refusals(live);
    await synced(live);
    live.doc.getText('t').insert(0, 'merged');
    await acknowledged(live);
    expect((await s.t.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`, admin.token)).status).toBe(200);
    live.doc.getText('t').insert(6, ' and later');
    await acknowledged(live);
    expect(text(await storedDoc(`cr:${cr.body.id}`))).toBe('merged');
    await waitFor(() => notices.length > 0, 'a refusal notice');
    expect(notices[0]).toBe(SyncRefusal.closed);
    live.destroy();
  });
});

describe('cursors across instances', () => {
  it.runIf(process.env.DATABASE_URL)("another user on another instance cannot overwrite or remove a writer's cursor", async () => {
    const { admin, members, room } = await fixture(['edit', 'edit']);
    const other = await LiveServer.start({ sync: { recheckMs: 60_000 } }, s.db);
    try {
      const ada = s.provider(room, admin.token);
      const watcherHere = s.provider(room, members[0]?.token);
      const watcherThere = other.provider(room, members[0]?.token);
      await Promise.all([synced(ada), synced(watcherHere), synced(watcherThere)]);
      ada.awareness.setLocalStateField('user', { name: 'Ada' });
      const adaId = ada.doc.clientID;
      const nameOn = (p: typeof ada) => (p.awareness.getStates().get(adaId) as { user?: { name: string } } | undefined)?.user?.name;
      await waitFor(() => nameOn(watcherThere) === 'Ada' && nameOn(watcherHere) === 'Ada', "Ada's cursor on both instances");

      // Mallory, on the other instance: a forged state for Ada's client id, then her own.
      const clock = ada.awareness.meta.get(adaId)?.clock ?? 0;
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 2);
      encoding.writeVarUint(e, adaId);
      encoding.writeVarUint(e, clock + 5);
      encoding.writeVarString(e, JSON.stringify({ user: { name: 'Mallory' } }));
      encoding.writeVarUint(e, 4242);
      encoding.writeVarUint(e, 1);
      encoding.writeVarString(e, JSON.stringify({ user: { name: 'Mallory' } }));
      const msg = encoding.createEncoder();
      encoding.writeVarUint(msg, 1);
      encoding.writeVarUint8Array(msg, encoding.toUint8Array(e));
      const mallory = await rawClient(`${other.wsUrl}/${room}`, members[1]?.token);
      mallory.ws.send(encoding.toUint8Array(msg));

      await waitFor(
        () => watcherHere.awareness.getStates().has(4242) && watcherThere.awareness.getStates().has(4242),
        "Mallory's own state",
      );
      expect(nameOn(watcherThere)).toBe('Ada');
      expect(nameOn(watcherHere)).toBe('Ada');
      mallory.ws.close();
      await waitFor(() => !watcherHere.awareness.getStates().has(4242), "Mallory's state leaving with her");
      expect(nameOn(watcherHere)).toBe('Ada');
      expect(nameOn(watcherThere)).toBe('Ada');
      ada.destroy();
      watcherHere.destroy();
      watcherThere.destroy();
    } finally {
      await other.close();
    }
  });
});
