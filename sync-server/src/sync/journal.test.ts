import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changeRequestRoom, spaceRoom } from '@quire/shared/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { cutRevision, revisionState } from '../core/content/revisions';
import type { Db, Queryable } from '../store/db';
import { Journal } from '../store/journal/Journal';
import { journaledDb } from '../store/journal/journaledDb';
import { DRAIN_STATEMENT } from '../store/journal/drainSql';
import { loadDocUpdate } from '../store/ydocs';
import { freshTestDb } from '../testing/databases';
import { LiveServer, acknowledged, synced } from '../testing/syncClients';

/**
 * Readers of the log on the journaled embedded database: what a client saw acknowledged
 * may still be in the journal only, and whatever reads the log must see it. The drain is
 * held back here (as a loaded machine may hold it), so only a reader that waits for it
 * can find the edit.
 */
let s: LiveServer;
let raw: Db;
let db: Db;
let dir: string;
let holding = false;
let held: (() => void)[] = [];

const isDrain = (sql: string) => sql === DRAIN_STATEMENT;

function holdDrain() {
  holding = true;
}

/** Lets the held drain go a moment after `reader` started: a reader that did not wait for it has read by then. */
async function releaseDrainWhile<T>(reader: Promise<T>): Promise<T> {
  await new Promise((r) => setTimeout(r, 200));
  holding = false;
  for (const go of held.splice(0)) go();
  return reader;
}

beforeAll(async () => {
  raw = await freshTestDb({ journal: false });
  dir = mkdtempSync(join(tmpdir(), 'quire-journal-readers-'));
  const drainSide: Queryable = {
    query: async (sql, params) => {
      if (holding && isDrain(sql)) await new Promise<void>((go) => held.push(go));
      return raw.query(sql, params);
    },
  };
  const journal = await Journal.open(dir, drainSide, { warn: () => {}, error: () => {} }, (err) => {
    throw err;
  });
  db = journaledDb(raw, journal);
  s = await LiveServer.start({ sync: { recheckMs: 60_000 } }, db);
});
afterAll(async () => {
  await s?.close();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  holding = false;
});

const text = (doc: Y.Doc) => doc.getText('t').toString();

async function fixture() {
  const { orgId, admin } = await s.t.org([]);
  const spaceId = await s.space(orgId, admin.token);
  return { admin, spaceId, docId: `space:${spaceId}` };
}

describe.runIf(!process.env.DATABASE_URL)('reading the log right after typing, with the journal not drained yet', () => {
  it('a revision cut holds what was typed', async () => {
    const { admin, spaceId, docId } = await fixture();
    const live = s.provider(spaceRoom(spaceId), admin.token);
    await synced(live);
    holdDrain();
    live.doc.getText('t').insert(0, 'typed');
    await acknowledged(live);
    const cut = await releaseDrainWhile(cutRevision(s.db, docId));
    const doc = new Y.Doc();
    Y.applyUpdate(doc, await revisionState(s.db, cut?.revision.id as string));
    expect(text(doc)).toBe('typed');
    live.destroy();
  });

  it('a change request merge takes what was typed in it', async () => {
    const { admin, spaceId, docId } = await fixture();
    const cr = await s.t.post(`/v1/spaces/${spaceId}/change-requests`, admin.token, { subject: 'Typed then merged' });
    const live = s.provider(changeRequestRoom(spaceId, cr.body.id), admin.token);
    await synced(live);
    holdDrain();
    live.doc.getText('t').insert(0, 'typed in the branch');
    await acknowledged(live);
    const merged = await releaseDrainWhile(s.t.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`, admin.token));
    expect(merged.status).toBe(200);
    const main = new Y.Doc();
    Y.applyUpdate(main, (await loadDocUpdate(s.db, docId)).update);
    expect(text(main)).toBe('typed in the branch');
    live.destroy();
  });

  it('an export reads what was typed', async () => {
    const { admin, spaceId, docId } = await fixture();
    const live = s.provider(spaceRoom(spaceId), admin.token);
    await synced(live);
    holdDrain();
    live.doc.getText('t').insert(0, 'exported');
    await acknowledged(live);
    const stored = await releaseDrainWhile(loadDocUpdate(s.db, docId));
    const doc = new Y.Doc();
    Y.applyUpdate(doc, stored.update);
    expect(text(doc)).toBe('exported');
    live.destroy();
  });
});
