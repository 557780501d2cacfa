import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { newId } from '@quire/shared';
import { spaceRoom } from '@quire/shared/sync';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { loadConfig } from '../config';
import type { Logger } from '../logger';
import type { Db } from '../store/db';
import { createOrg } from '../store/organizations';
import { createSpace } from '../store/spaces';
import { appendGrouped } from '../store/syncRooms';
import { ensureUser } from '../store/users';
import { appendUpdate, loadStoredDoc, loadYDoc } from '../store/ydocs';
import { openPglite } from '../store/pglite';
import { freshTestDb, preparedDataDir, testAdapter } from '../testing/databases';
import { largePageUpdate } from '../testing/largePage';
import { LiveServer, acknowledged, synced, waitFor } from '../testing/syncClients';
import { Compactor } from './Compactor';
import { LogWriterStorage } from './LogWriterStorage';
import { decodeMessage } from './protocol';
import { Room, type RoomHost, type RoomMember } from './Room';

/**
 * A 4 MB document (a 40,000-paragraph page) in a room: loading it, answering a new client
 * and compacting it never hold the event loop for long (`docThread.ts`), and the room's
 * document, its answers and its snapshot are the document stored. The goal is 100 ms; the
 * assertion allows 400 ms, or on a machine too loaded for that, a fifth of what Yjs takes
 * there to decode the whole page in one go (measured on a fortieth of it just before), which
 * is what the room did before and still fails clearly (1.5 to 8 s).
 */
const MAX_BLOCK_MS = 400;

/** What Yjs takes on this machine, now, to decode a fortieth of the page (median of three). */
function fortiethOfPageMs(): number {
  const part = largePageUpdate(1000);
  const times = [0, 1, 2].map(() => {
    const started = performance.now();
    Y.applyUpdate(new Y.Doc(), part);
    return performance.now() - started;
  });
  return times.sort((a, b) => a - b)[1] as number;
}

const allowedBlockMs = () => Math.max(MAX_BLOCK_MS, (40 / 5) * fortiethOfPageMs());

let db: Db;
let dataDir: string | undefined;
let orgId: string;
let userId: string;
const logger = pino({ level: 'silent' }) as unknown as Logger;

beforeAll(async () => {
  // The embedded database on a thread of its own, as a server runs it: on the test's own
  // thread, reading 4 MB out of it would be the block measured.
  if (testAdapter() === 'pglite') {
    dataDir = preparedDataDir('quire-large-');
    db = await openPglite(join(dataDir, 'pgdata'), undefined, { thread: true });
  } else db = await freshTestDb();
  userId = (await ensureUser(db, `large-${newId()}@example.com`, 'Large')).id;
  orgId = (await createOrg(db, 'Large documents', userId)).id;
});
afterAll(async () => {
  await db?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The longest the event loop was held while `work` ran, in ms (a timer every 5 ms notes each gap). */
async function longestBlock<T>(work: () => Promise<T>): Promise<{ value: T; blockMs: number }> {
  let last = performance.now();
  let blockMs = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    blockMs = Math.max(blockMs, now - last);
    last = now;
  }, 5);
  try {
    const value = await work();
    return { value, blockMs: Math.max(blockMs, performance.now() - last) };
  } finally {
    clearInterval(probe);
  }
}

const host: RoomHost = {
  get db() {
    return db;
  },
  log: logger,
  config: loadConfig({}).sync,
  instanceId: 'large-test',
  edited: () => {},
  awarenessChanged: () => {},
  emptied: () => {},
};

class Member implements RoomMember {
  readonly controlled = new Set<number>();
  readonly creds = { userId: '' };
  readonly received = new Y.Doc();
  send(data: Uint8Array) {
    const msg = decodeMessage(data);
    if (msg.type === 'update') Y.applyUpdate(this.received, msg.update);
  }
  close() {}
  refused() {}
}

/**
 * A room on a document stored as `rows`. Its first read of the log is answered from a read
 * made beforehand, whose own longest block is `readBlockMs`: the database driver's parse of
 * 4 MB (PostgreSQL's text protocol, hex) is not the room's work, and on a loaded machine
 * varies from 0.4 to 2 s by itself.
 */
async function roomWith(rows: Uint8Array[]): Promise<{ room: Room; docId: string; readBlockMs: number }> {
  const space = await createSpace(db, orgId, { title: 'Large' });
  const docId = `space:${space.id}`;
  for (const update of rows) await appendGrouped(db, [{ docId, update }], 'large-test', { notify: false });
  let first: Promise<unknown[]> | undefined;
  const { blockMs: readBlockMs } = await longestBlock(async () => {
    const read = db.query.bind(db);
    first = Promise.resolve(await loadStoredDocRows(read, docId));
  });
  const roomDb: Db = Object.create(db, {
    query: {
      value: (sql: string, params?: unknown[]) => {
        const answer = first && sql.includes('UNION ALL') ? first : db.query(sql, params);
        first = undefined;
        return answer;
      },
    },
  });
  const roomHost = Object.create(host, { db: { value: roomDb } }) as RoomHost;
  const storage = new LogWriterStorage(
    async (d, update) => (await appendGrouped(db, [{ docId: d, update }], 'large-test', { notify: false }))[0],
    logger,
  );
  return { room: new Room(docId, { kind: 'space', spaceId: space.id }, roomHost, storage), docId, readBlockMs };
}

/** The rows of the statement that reads a document's log (`readDocLog`), as the database answers it. */
async function loadStoredDocRows(query: Db['query'], docId: string): Promise<unknown[]> {
  let rows: unknown[] = [];
  await loadStoredDoc({ query: async (sql: string, params?: unknown[]) => (rows = await query(sql, params)) } as unknown as Db, docId);
  return rows;
}

const contentOf = (doc: Y.Doc) => doc.getXmlFragment('content').toString();
const sameDoc = (a: Y.Doc, b: Y.Doc) => {
  expect(Y.encodeStateVector(a)).toEqual(Y.encodeStateVector(b));
  expect(contentOf(a)).toBe(contentOf(b));
};

describe('a 4 MB document in a room', () => {
  it('is loaded, sent to a new client and compacted without holding the event loop', async () => {
    const page = largePageUpdate();
    expect(page.byteLength).toBeGreaterThan(4_000_000);
    const { room, docId, readBlockMs } = await roomWith([page]);
    try {
      const allowed = allowedBlockMs();
      const load = await longestBlock(() => room.ready);
      console.log(
        `4.4 MB page: longest event-loop block while loading ${load.blockMs.toFixed(0)} ms (reading it from the database: ${readBlockMs.toFixed(0)} ms; allowed here ${allowed.toFixed(0)} ms)`,
      );
      expect(load.blockMs).toBeLessThan(allowed);
      const reference = new Y.Doc();
      Y.applyUpdate(reference, page);
      sameDoc(room.doc, reference);

      // A new client gets the whole page as its step 2.
      const reply = await longestBlock(async () => room.missingFrom(new Uint8Array([0])));
      console.log(`longest block while answering a new client ${reply.blockMs.toFixed(0)} ms`);
      expect(reply.blockMs).toBeLessThan(allowedBlockMs());
      const client = new Y.Doc();
      Y.applyUpdate(client, reply.value);
      sameDoc(client, reference);

      // An edit, then the log folded into a snapshot of the page with it.
      const member = new Member();
      room.addMember(member);
      const editor = new Y.Doc();
      Y.applyUpdate(editor, page);
      const before = Y.encodeStateVector(editor);
      (editor.getXmlFragment('content').get(0) as Y.XmlElement).insert(0, [new Y.XmlText('First! ')]);
      await room.submit(member, Y.encodeStateAsUpdate(editor, before));
      let compacted = 0;
      const compactor = new Compactor(db, logger, () => compacted++);
      const allowedCompacting = allowedBlockMs();
      const compaction = await longestBlock(async () => {
        compactor.compact(docId, room);
        await compactor.stop();
      });
      console.log(`longest block while compacting ${compaction.blockMs.toFixed(0)} ms`);
      expect(compaction.blockMs).toBeLessThan(allowedCompacting);
      expect(compacted).toBe(1);
      const stored = await loadStoredDoc(db, docId);
      expect(stored?.snapshotSeq).toBe(2);
      expect(stored?.updates).toHaveLength(0);
      sameDoc((await loadYDoc(db, docId)).doc, editor);
    } finally {
      room.destroy();
    }
  }, 180_000);

  it('edited by several clients, with deletions, reads back the same as applied in one go', async () => {
    const a = new Y.Doc();
    const b = new Y.Doc();
    const rows: Uint8Array[] = [];
    a.on('update', (u: Uint8Array) => rows.push(u));
    b.on('update', (u: Uint8Array) => rows.push(u));
    const sync = (from: Y.Doc, to: Y.Doc) => Y.applyUpdate(to, Y.encodeStateAsUpdate(from, Y.encodeStateVector(to)));
    for (let round = 0; round < 40; round++) {
      const [writer, other] = round % 2 ? [a, b] : [b, a];
      const frag = writer.getXmlFragment('content');
      const p = new Y.XmlElement('paragraph');
      p.insert(0, [new Y.XmlText(`round ${round} `.repeat(200))]);
      frag.insert(round % 3 === 0 ? 0 : frag.length, [p]);
      if (round % 4 === 3) frag.delete(1, 1);
      // Half the time the other client has not seen this yet: concurrent edits.
      if (round % 2) {
        sync(writer, other);
        sync(other, writer);
      }
    }
    sync(a, b);
    sync(b, a);
    const { room } = await roomWith(rows);
    try {
      await room.ready;
      expect(rows.reduce((n, r) => n + r.byteLength, 0)).toBeGreaterThan(64 * 1024);
      sameDoc(room.doc, a);
      expect(room.doc.store.pendingStructs).toBeNull();
      const client = new Y.Doc();
      Y.applyUpdate(client, await room.missingFrom(new Uint8Array([0])));
      sameDoc(client, a);
    } finally {
      room.destroy();
    }
  }, 60_000);
});

describe('a 4 MB document served while it loads and while it is edited', () => {
  let s: LiveServer;
  beforeAll(async () => {
    s = await LiveServer.start({ sync: { idleMs: 200 } });
  });
  afterAll(async () => s?.close());

  const keysOf = (doc: Y.Doc) => [...doc.getMap('ops').keys()].sort();
  const paragraphs = (doc: Y.Doc) => doc.getXmlFragment('content').length;
  const ONE_LOAD_MS = 120_000;

  it('gives every client, and a fresh reader, every edit: made during the load, between new clients, after a compaction', async () => {
    const { orgId, admin } = await s.t.org();
    const spaceId = await s.space(orgId, admin.token);
    const docId = `space:${spaceId}`;
    const room = spaceRoom(spaceId);
    await appendUpdate(s.db, docId, largePageUpdate());
    const typed: string[] = [];
    const type = (p: ReturnType<LiveServer['provider']>, key: string) => {
      p.doc.getMap('ops').set(key, true);
      typed.push(key);
    };

    // The first client starts the load; a second connects while it runs; both type meanwhile.
    const a = s.provider(room, admin.token);
    const b = s.provider(room, admin.token);
    for (let i = 0; i < 5; i++) {
      type(a, `a-loading-${i}`);
      type(b, `b-loading-${i}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await Promise.all([synced(a, ONE_LOAD_MS), synced(b, ONE_LOAD_MS)]);

    // New clients join one after another while the first two type: each client's answer is
    // made while edits are stored and relayed around it.
    const joined = [];
    for (let i = 0; i < 6; i++) {
      joined.push(s.provider(room, admin.token));
      type(a, `a-${i}`);
      await new Promise((r) => setTimeout(r, 5));
      type(b, `b-${i}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(joined.map((p) => synced(p, ONE_LOAD_MS)));
    await acknowledged(a, ONE_LOAD_MS);
    await acknowledged(b, ONE_LOAD_MS);
    typed.sort();
    for (const p of [a, b, ...joined])
      await waitFor(() => keysOf(p.doc).length === typed.length, 'every edit at every client', ONE_LOAD_MS);
    for (const p of [a, b, ...joined]) expect(keysOf(p.doc)).toEqual(typed);

    const reader = s.provider(room, admin.token);
    await synced(reader, ONE_LOAD_MS);
    expect(keysOf(reader.doc)).toEqual(typed);
    expect(paragraphs(reader.doc)).toBe(40_000);

    // Everyone leaves: the room is compacted as it is unloaded, and read again by the next reader.
    for (const p of [a, b, ...joined, reader]) p.destroy();
    const rowsLeft = async () =>
      Number((await s.db.query<{ n: string }>('SELECT count(*) AS n FROM ydoc_updates WHERE doc_id = $1', [docId]))[0]?.n);
    await waitFor(async () => (await rowsLeft()) === 0, 'the compaction', ONE_LOAD_MS);
    const later = s.provider(room, admin.token);
    await synced(later, ONE_LOAD_MS);
    expect(keysOf(later.doc)).toEqual(typed);
    expect(paragraphs(later.doc)).toBe(40_000);
    later.destroy();
  }, 600_000);
});
