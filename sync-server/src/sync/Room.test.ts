import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { newId } from '@quire/shared';
import { SyncClose, SyncCloseReason, SyncRefusal, type SyncRoom } from '@quire/shared/sync';
import * as encoding from 'lib0/encoding';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as Y from 'yjs';
import { loadConfig } from '../config';
import type { Logger } from '../logger';
import type { Db, Queryable } from '../store/db';
import { Journal } from '../store/journal/Journal';
import { type JournaledDb, type SyncJournal, journaledDb } from '../store/journal/journaledDb';
import { createOrg } from '../store/organizations';
import { createSpace, softDeleteSpace } from '../store/spaces';
import { appendGrouped, lastSeqs } from '../store/syncRooms';
import { ensureUser } from '../store/users';
import { appendUpdate, compactDoc, loadYDoc } from '../store/ydocs';
import { freshTestDb } from '../testing/databases';
import { SyncRefused } from './access';
import { Compactor } from './Compactor';
import { LiveContributors } from './contributors';
import { JournalStorage } from './JournalStorage';
import { LogWriterStorage } from './LogWriterStorage';
import { decodeMessage } from './protocol';
import { BadUpdateError, Room, type RoomHost, type RoomMember, StorageError } from './Room';
import type { RoomStorage } from './RoomStorage';

/**
 * One room driven directly, with stand-in connections and host: what it stores, relays,
 * refuses and acknowledges, on both write paths (a row appended to the database, and the journal of the
 * embedded database in a data directory), with one database for the file. The end-to-end
 * behaviour through real sockets is `sync.test.ts`; this is the room's own contract, fast
 * enough to run for every change to it.
 */

let raw: Db;
let jdb: JournaledDb;
let dir: string;
let orgId: string;
let userA: string;
let userB: string;
/** Rooms on the journal: every section that may have written marks them stale, as the service does. */
const journaled = new Set<Room>();
const opened: Room[] = [];
const logged: { level: number; msg: string }[] = [];
const logger = pino(
  { level: 'warn' },
  new Writable({
    write(chunk, _enc, done) {
      const line = JSON.parse(String(chunk)) as { level: number; msg: string };
      logged.push({ level: line.level, msg: line.msg });
      done();
    },
  }),
) as unknown as Logger;

beforeAll(async () => {
  raw = await freshTestDb({ journal: false });
  dir = mkdtempSync(join(tmpdir(), 'quire-room-'));
  const journal = await Journal.open(dir, raw, { warn: () => {}, error: () => {} }, (err) => {
    throw err;
  });
  jdb = journaledDb(raw, journal);
  // What the service does at the end of a section: every room stale, then cleared where the log did not move.
  jdb.journal.onSectionEnd(async () => {
    const rooms = [...journaled].filter((r) => !r.destroyed);
    for (const room of rooms) room.storage.markStale();
    if (rooms.length === 0) return;
    const seqs = await lastSeqs(
      jdb,
      rooms.map((r) => r.docId),
    );
    for (const room of rooms) room.storage.logEndsAt(room, seqs.get(room.docId) ?? 0);
  });
  userA = (await ensureUser(raw, `room-a-${newId()}@example.com`, 'A')).id;
  userB = (await ensureUser(raw, `room-b-${newId()}@example.com`, 'B')).id;
  orgId = (await createOrg(raw, 'Rooms', userA)).id;
});
afterEach(() => {
  for (const room of opened.splice(0)) if (!room.destroyed) room.destroy();
  journaled.clear();
  logged.length = 0;
});
afterAll(async () => {
  await jdb?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function newSpace(): Promise<SyncRoom> {
  const space = await createSpace(raw, orgId, { title: 'Room' });
  return { kind: 'space', spaceId: space.id };
}

async function newChangeRequest(): Promise<SyncRoom & { kind: 'changeRequest' }> {
  const { spaceId } = await newSpace();
  const id = newId();
  await raw.query(
    `INSERT INTO change_requests (id, space_id, number, revision_id, revision_initial, revision_merged_ancestor, fork_doc_seq, fork_state_vector)
     VALUES ($1, $2, 1, 'r', 'r', 'r', 0, $3)`,
    [id, spaceId, Buffer.from([0])],
  );
  return { kind: 'changeRequest', spaceId, changeRequestId: id };
}

/** The row as the log writer stores it (one statement, the write policy checked in it); `LogWriter.test.ts` covers the grouping. */
async function store(docId: string, update: Uint8Array): Promise<number | undefined> {
  const [seq] = await appendGrouped(raw, [{ docId, update }], 'room-test', { notify: false });
  return seq;
}

const docIdOf = (sr: SyncRoom) => (sr.kind === 'space' ? `space:${sr.spaceId}` : `cr:${sr.changeRequestId}`);

interface TestHost extends RoomHost {
  edits: number;
  emptiedCount: number;
  awarenessCalls: { clients: number[]; users: Map<number, string> }[];
  /** Where the log writer would append (replaced by tests to fail or hold a write). */
  append: (docId: string, update: Uint8Array) => Promise<number | undefined>;
  /** The journal a room's batches go to instead, when set. */
  journal?: SyncJournal;
}

function hostFor(db: Db, over: Partial<TestHost> = {}): TestHost {
  // As the service's edit hook: counted, and who edited a change request recorded.
  const contributors = new LiveContributors(db, logger);
  const host: TestHost = {
    db,
    log: logger,
    config: loadConfig({}).sync,
    instanceId: 'room-test',
    append: store,
    edits: 0,
    emptiedCount: 0,
    awarenessCalls: [],
    edited: (room, editors) => {
      host.edits++;
      return contributors.record(room, editors);
    },
    awarenessChanged: (_room, clients, users) => void host.awarenessCalls.push({ clients, users: new Map(users) }),
    emptied: () => void host.emptiedCount++,
    ...over,
  };
  return host;
}

async function openRoom(sr: SyncRoom, host: TestHost = hostFor(raw)): Promise<{ room: Room; host: TestHost; docId: string }> {
  const docId = docIdOf(sr);
  const storage: RoomStorage = host.journal
    ? new JournalStorage(host.journal, logger)
    : new LogWriterStorage((d, u) => host.append(d, u), logger);
  const room = new Room(docId, sr, host, storage);
  opened.push(room);
  if (host.journal) journaled.add(room);
  await room.ready.catch(() => {});
  return { room, host, docId };
}

/** A host writing through the journal (`journal` overrides what the room sees of it). */
function journalHost(journal: SyncJournal = jdb.journal): TestHost {
  return hostFor(jdb, {
    journal,
    append: () => {
      throw new Error('a room on the journal never uses the log writer');
    },
  });
}

/** A connection as the room sees it: what it was sent, refused and closed with. */
class Member implements RoomMember {
  readonly controlled = new Set<number>();
  readonly creds: { userId: string };
  /** What the relayed updates built on this client. */
  readonly received = new Y.Doc();
  updates = 0;
  awareness: Uint8Array[] = [];
  refusals: string[] = [];
  closes: [number, string][] = [];
  constructor(userId: string) {
    this.creds = { userId };
  }
  send(data: Uint8Array) {
    const msg = decodeMessage(data);
    if (msg.type === 'update') {
      this.updates++;
      Y.applyUpdate(this.received, msg.update);
    } else if (msg.type === 'awareness') this.awareness.push(msg.update);
  }
  close(code: number, reason: string) {
    this.closes.push([code, reason]);
  }
  refused(reason: string) {
    this.refusals.push(reason);
  }
  get text() {
    return this.received.getText('t').toString();
  }
}

/** A client editing one text, each edit handed out as the update it produced. */
function editor() {
  const doc = new Y.Doc();
  const text = doc.getText('t');
  return {
    doc,
    type(at: number, s: string): Uint8Array {
      const before = Y.encodeStateVector(doc);
      text.insert(at, s);
      return Y.encodeStateAsUpdate(doc, before);
    },
    append(s: string): Uint8Array {
      return this.type(text.length, s);
    },
  };
}

const textOf = (doc: Y.Doc) => doc.getText('t').toString();
const storedText = async (docId: string) => textOf((await loadYDoc(jdb, docId)).doc);
const rowsOf = async (docId: string) =>
  (await jdb.query<{ n: number }>('SELECT count(*)::int AS n FROM ydoc_updates WHERE doc_id = $1', [docId]))[0]?.n;

/** An update Yjs refuses to apply: a shared type of a kind that does not exist. */
function unappliable(): Uint8Array {
  const e = encoding.createEncoder();
  for (const n of [1, 1, 4242, 0]) encoding.writeVarUint(e, n); // one client, one struct, client id, clock
  encoding.writeUint8(e, 7); // ContentType, no origins
  encoding.writeVarUint(e, 1); // parent is a root type, by name
  encoding.writeVarString(e, 't');
  encoding.writeVarUint(e, 99); // unknown type ref
  encoding.writeVarUint(e, 0); // empty delete set
  return encoding.toUint8Array(e);
}
/** Found by fuzzing: a skip struct with an item's flag bits, which Yjs applies but cannot merge. */
const unmergeable = () => new Uint8Array(Buffer.from('010186b7918108036a01016d01620177e27a7a00', 'hex'));

/** A promise and the function that settles it, to hold a write at a chosen point. */
function held<T = void>() {
  let release!: (v: T) => void;
  const promise = new Promise<T>((r) => (release = r));
  return { promise, release };
}

const settle = (ms = 20) => new Promise((r) => setTimeout(r, ms));

describe('loading a room', () => {
  it('starts from the snapshot and every row after it', async () => {
    const sr = await newSpace();
    const docId = docIdOf(sr);
    const e = editor();
    await appendUpdate(raw, docId, e.append('a'));
    await appendUpdate(raw, docId, e.append('b'));
    await compactDoc(raw, docId);
    await appendUpdate(raw, docId, e.append('c'));
    await appendUpdate(raw, docId, e.append('d'));
    const { room } = await openRoom(sr);
    expect(textOf(room.doc)).toBe('abcd');
    expect(room.lastSeq).toBe(4);
    expect(room.rowsSinceSnapshot).toBe(2);
    expect(room.failed).toBe(false);
  });

  it('starts empty on a document never written, and finds nothing to catch up on', async () => {
    const { room } = await openRoom(await newSpace());
    expect(textOf(room.doc)).toBe('');
    expect(room.lastSeq).toBe(0);
    room.requestCatchUp();
    await room.settled();
    expect(room.failed).toBe(false);
    expect(room.lastSeq).toBe(0);
  });

  it('fails when the stored log cannot be applied, and takes no update', async () => {
    const sr = await newSpace();
    await appendUpdate(raw, docIdOf(sr), unappliable());
    const { room, host } = await openRoom(sr);
    await expect(room.ready).rejects.toThrow();
    expect(room.failed).toBe(true);
    expect(host.emptiedCount).toBeGreaterThan(0);
    const a = new Member(userA);
    room.addMember(a);
    await expect(room.submit(a, editor().append('x'))).rejects.toBeInstanceOf(StorageError);
    expect(a.closes).toContainEqual([SyncClose.storageFailed, SyncCloseReason.loadFailed]);
    expect(logged.map((l) => l.msg)).toContain('loading a sync room failed');
  });
});

describe('a client update (stored in the database)', () => {
  it('is relayed, sent in a sync step 2 and offered to compaction only once stored, then acknowledged', async () => {
    let seenAtAppend: { relayed: number; stepTwoSent: boolean; compactable: boolean } | undefined;
    let stepTwo = '';
    const b = new Member(userB);
    const host = hostFor(raw);
    const { room, docId } = await openRoom(await newSpace(), host);
    host.append = async (d, u) => {
      room.whenStored(() => (stepTwo = textOf(room.doc)));
      seenAtAppend = { relayed: b.updates, stepTwoSent: stepTwo !== '', compactable: room.stateAtLastSeq() !== undefined };
      return store(d, u);
    };
    const a = new Member(userA);
    room.addMember(a);
    room.addMember(b);
    await room.submit(a, editor().append('hello'));
    expect(seenAtAppend).toEqual({ relayed: 0, stepTwoSent: false, compactable: false });
    expect(stepTwo).toBe('hello');
    expect((await room.stateAtLastSeq())?.seq).toBe(1);
    expect(await storedText(docId)).toBe('hello');
    expect(await rowsOf(docId)).toBe(1);
    expect(textOf(room.doc)).toBe('hello');
    expect(b.text).toBe('hello');
    expect(a.updates).toBe(0);
    expect(room.lastSeq).toBe(1);
    expect(room.rowsSinceSnapshot).toBe(1);
    expect(host.edits).toBe(1);
    expect(room.busy).toBe(false);
  });

  it("folds a batch into one row: one sender's relayed to the others, several senders' to everyone", async () => {
    const { room, docId } = await openRoom(await newSpace());
    const [a, b, c] = [new Member(userA), new Member(userB), new Member(userB)];
    for (const m of [a, b, c]) room.addMember(m);
    const ea = editor();
    await Promise.all([room.submit(a, ea.append('one ')), room.submit(a, ea.append('two'))]);
    expect(await rowsOf(docId)).toBe(1);
    expect([a.updates, b.updates, c.updates]).toEqual([0, 1, 1]);

    const eb = editor();
    await Promise.all([room.submit(a, ea.append(' three')), room.submit(b, eb.append('B'))]);
    expect(await rowsOf(docId)).toBe(2);
    expect([a.updates, b.updates, c.updates]).toEqual([1, 2, 2]);
    for (const m of [b, c]) expect(m.text).toBe(textOf(room.doc));
    // The sender's own part comes back with the others' (its first batch was never sent back to it).
    expect(a.text).toBe('B');
    expect(await storedText(docId)).toBe(textOf(room.doc));
    expect(room.lastSeq).toBe(2);
  });

  it("keeps the document's delete set current, which refused writers' updates are checked against", async () => {
    const { room } = await openRoom(await newSpace());
    const a = new Member(userA);
    room.addMember(a);
    const e = editor();
    await room.submit(a, e.append('abc'));
    expect(room.deleteSet().clients.size).toBe(0);
    const before = Y.encodeStateVector(e.doc);
    e.doc.getText('t').delete(0, 1);
    await room.submit(a, Y.encodeStateAsUpdate(e.doc, before));
    expect(room.deleteSet().clients.size).toBe(1);
  });

  it('stores at most 256 updates in one row', async () => {
    const { room, docId } = await openRoom(await newSpace());
    const a = new Member(userA);
    room.addMember(a);
    const e = editor();
    await Promise.all(Array.from({ length: 300 }, () => room.submit(a, e.append('x'))));
    const rows = await jdb.query<{ update: Uint8Array }>('SELECT update FROM ydoc_updates WHERE doc_id = $1 ORDER BY seq', [docId]);
    expect(rows).toHaveLength(2);
    const first = new Y.Doc();
    Y.applyUpdate(first, new Uint8Array(rows[0]!.update));
    expect(textOf(first)).toHaveLength(256);
    expect(await storedText(docId)).toBe('x'.repeat(300));
  });

  it('does not store an update that changes nothing, and answers one next to a change once that is stored', async () => {
    const host = hostFor(raw);
    const { room, docId } = await openRoom(await newSpace(), host);
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    const e = editor();
    const first = e.append('first');
    await room.submit(a, first);
    await room.submit(a, first);
    expect(await rowsOf(docId)).toBe(1);
    expect(b.updates).toBe(1);
    expect(host.edits).toBe(1);

    const gate = held();
    host.append = async (d, u) => {
      await gate.promise;
      return store(d, u);
    };
    let repeatAnswered = false;
    const repeat = room.submit(a, first).then(() => (repeatAnswered = true));
    const next = room.submit(a, e.append(' second'));
    await settle();
    expect(repeatAnswered).toBe(false);
    gate.release();
    await Promise.all([repeat, next]);
    expect(await rowsOf(docId)).toBe(2);
    expect(await storedText(docId)).toBe('first second');
  });

  it('stores an update whose dependencies have not arrived yet, so the one completing it is enough', async () => {
    const { room, docId } = await openRoom(await newSpace());
    const a = new Member(userA);
    room.addMember(a);
    const e = editor();
    const early = e.append('early');
    const late = e.append(' late');
    await room.submit(a, late);
    expect(await rowsOf(docId)).toBe(1);
    expect(textOf(room.doc)).toBe('');
    await room.submit(a, early);
    expect(await rowsOf(docId)).toBe(2);
    expect(textOf(room.doc)).toBe('early late');
    expect(await storedText(docId)).toBe('early late');
  });

  it('refuses bytes Yjs cannot apply and keeps the rest of the batch, stored once', async () => {
    const { room, docId } = await openRoom(await newSpace());
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    const ea = editor();
    const eb = editor();
    const good = ea.append('kept');
    const results = await Promise.allSettled([room.submit(a, good), room.submit(b, unappliable()), room.submit(b, eb.append('!'))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(BadUpdateError);
    expect(await rowsOf(docId)).toBe(1);
    // What was accepted before the bad update is still known to be there: sent again, it is not stored twice.
    await room.submit(a, good);
    expect(await rowsOf(docId)).toBe(1);
    expect((await storedText(docId)).length).toBe('kept!'.length);
    expect(textOf(room.doc)).toBe(await storedText(docId));
  });

  it('reads the document back from the log when Yjs throws on an update halfway through applying it', async () => {
    const { room, docId } = await openRoom(await newSpace());
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    const base = new Y.Doc();
    base.clientID = 1;
    base.getText('t').insert(0, 'base');
    await room.submit(a, Y.encodeStateAsUpdate(base));
    // Found by fuzzing: Yjs integrates most of it, then throws on its delete set.
    const halfway = new Uint8Array(
      Buffer.from(
        '0202030008010161037d01770178760101797d02c40101020d015a020200c4010101020568656c6c6f2801016d016b017701767001010001',
        'hex',
      ),
    );
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(base));
    expect(() => Y.applyUpdate(copy, halfway)).toThrow();
    expect(textOf(copy)).not.toBe('base');

    // A step-2 answer asked for while the document holds the half-applied update waits for it to be gone.
    let stepTwo: string | undefined;
    room.doc.on('afterTransaction', () => {
      if (stepTwo === undefined && textOf(room.doc) !== 'base') room.whenStored(() => (stepTwo = textOf(room.doc)));
    });
    await expect(room.submit(b, halfway)).rejects.toBeInstanceOf(BadUpdateError);
    expect(stepTwo).toBe('base');
    expect(textOf(room.doc)).toBe('base');
    expect(Y.decodeStateVector(Y.encodeStateVector(room.doc))).toEqual(new Map([[1, 4]]));
    expect(a.updates).toBe(0);
    expect(await rowsOf(docId)).toBe(1);
    // The room goes on from the document read back.
    await room.submit(a, editor().append('!'));
    expect(await storedText(docId)).toBe(textOf(room.doc));
    expect(b.text).toBe(textOf(room.doc));
  });

  it('refuses an update Yjs applies but cannot merge, alone or in a batch, and stores the others', async () => {
    const { room, docId } = await openRoom(await newSpace());
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    await expect(room.submit(b, unmergeable())).rejects.toBeInstanceOf(BadUpdateError);
    expect(await rowsOf(docId)).toBe(0);
    const ea = editor();
    const results = await Promise.allSettled([
      room.submit(a, ea.append('one')),
      room.submit(b, unmergeable()),
      room.submit(a, ea.append(' two')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(BadUpdateError);
    expect(await rowsOf(docId)).toBe(1);
    expect(await storedText(docId)).toBe('one two');
    expect(b.text).toBe('one two');
  });

  it('applies and relays nothing when the row could not be stored, and takes the same update again', async () => {
    const host = hostFor(raw);
    const { room, docId } = await openRoom(await newSpace(), host);
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    host.append = async () => {
      throw new Error('connection lost');
    };
    const update = editor().append('retry me');
    await expect(room.submit(a, update)).rejects.toBeInstanceOf(StorageError);
    // What was applied ahead of the failed write is gone from the document again.
    expect(textOf(room.doc)).toBe('');
    expect(b.updates).toBe(0);
    expect(host.edits).toBe(0);
    expect(logged.map((l) => l.msg)).toContain('could not store a sync update');
    host.append = (d, u) => store(d, u);
    await room.submit(a, update);
    expect(await storedText(docId)).toBe('retry me');
    expect(b.text).toBe('retry me');
  });
});

/** Either write path: an edit after the change request was merged is refused as closed, and nothing is stored. */
async function mergedChangeRequestRefused(db: Queryable, host?: TestHost) {
  const sr = await newChangeRequest();
  const { room, docId } = await openRoom(sr, host);
  const a = new Member(userA);
  room.addMember(a);
  await db.query("UPDATE change_requests SET status = 'merged' WHERE id = $1", [sr.changeRequestId]);
  await room.submit(a, editor().append('late'));
  expect(a.refusals).toEqual([SyncRefusal.closed]);
  expect(await rowsOf(docId)).toBe(0);
}

describe('a branch that stopped taking edits (stored in the database)', () => {
  it('a locked space: nothing stored or relayed, the writers told why, and the update taken once unlocked', async () => {
    const sr = await newSpace();
    const { room, docId } = await openRoom(sr);
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    // The room read its policy while the space was open; the lock comes after.
    expect((await room.policy()).refusal).toBeUndefined();
    await raw.query("UPDATE spaces SET edit_mode = 'locked' WHERE id = $1", [sr.spaceId]);
    const update = editor().append('late');
    await room.submit(a, update);
    expect(a.refusals).toEqual([SyncRefusal.locked]);
    expect(b.refusals).toEqual([]);
    expect(await rowsOf(docId)).toBe(0);
    expect(textOf(room.doc)).toBe('');
    expect(b.updates).toBe(0);
    expect((await room.policy()).refusal).toBe(SyncRefusal.locked);
    await raw.query("UPDATE spaces SET edit_mode = 'live' WHERE id = $1", [sr.spaceId]);
    room.setPolicy({});
    await room.submit(a, update);
    expect(await storedText(docId)).toBe('late');
    expect(a.closes).toEqual([]);
  });

  it('a refusal the policy no longer explains: a space is said to be locked, a change request closed', async () => {
    for (const sr of [await newSpace(), await newChangeRequest()]) {
      const host = hostFor(raw);
      const { room, docId } = await openRoom(sr, host);
      const a = new Member(userA);
      room.addMember(a);
      // Refused as the row was written, open again by the time the room asks why.
      host.append = async () => undefined;
      await room.submit(a, editor().append('x'));
      expect(a.refusals).toEqual([sr.kind === 'space' ? SyncRefusal.locked : SyncRefusal.closed]);
      expect(await rowsOf(docId)).toBe(0);
    }
  });

  it('a merged change request: the writers told it is closed', () => mergedChangeRequestRefused(raw));

  it('a deleted space: every connection closed', async () => {
    const sr = await newSpace();
    const { room, docId } = await openRoom(sr);
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    await softDeleteSpace(raw, sr.spaceId);
    await room.submit(a, editor().append('late'));
    expect(a.closes).toEqual([[SyncClose.notFound, SyncCloseReason.spaceDeleted]]);
    expect(b.closes).toEqual([[SyncClose.notFound, SyncCloseReason.spaceDeleted]]);
    expect(await rowsOf(docId)).toBe(0);
    await expect(room.policy()).rejects.toBeInstanceOf(SyncRefused);
  });
});

describe('rows other writers appended', () => {
  it('come before the room’s own row, so its position stays gap-free', async () => {
    const sr = await newSpace();
    const { room, docId } = await openRoom(sr);
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    const other = editor();
    await appendUpdate(raw, docId, other.append('REST '));
    await room.submit(a, editor().append('live'));
    expect(room.lastSeq).toBe(2);
    expect(textOf(room.doc)).toContain('REST ');
    expect(textOf(room.doc)).toContain('live');
    expect(b.text).toBe(textOf(room.doc));
    expect(a.text).toBe('REST ');
    expect(room.rowsSinceSnapshot).toBe(2);
  });

  it('are read and relayed to every member on request, across a compaction', async () => {
    const sr = await newSpace();
    const { room, docId } = await openRoom(sr);
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    const other = editor();
    await appendUpdate(raw, docId, other.append('one'));
    room.requestCatchUp();
    room.requestCatchUp();
    await room.settled();
    expect(room.lastSeq).toBe(1);
    expect([a.text, b.text]).toEqual(['one', 'one']);
    expect(room.rowsSinceSnapshot).toBe(1);

    await appendUpdate(raw, docId, other.append(' two'));
    await appendUpdate(raw, docId, other.append(' three'));
    await compactDoc(raw, docId);
    room.requestCatchUp();
    await room.settled();
    expect(textOf(room.doc)).toBe('one two three');
    expect(room.lastSeq).toBe(3);
    expect(room.rowsSinceSnapshot).toBe(0);
    await appendUpdate(raw, docId, other.append(' four'));
    room.requestCatchUp();
    await room.settled();
    expect(textOf(room.doc)).toBe('one two three four');
    expect(room.lastSeq).toBe(4);
    expect(room.rowsSinceSnapshot).toBe(1);
    expect(b.text).toBe('one two three four');
  });

  it('a log that ends before a seq the store handed out fails the room, and its clients reload', async () => {
    const host = hostFor(raw);
    const sr = await newSpace();
    await appendUpdate(raw, docIdOf(sr), editor().append('stored'));
    const { room } = await openRoom(sr, host);
    const a = new Member(userA);
    room.addMember(a);
    const gate = held();
    host.append = async () => {
      await gate.promise;
      return room.lastSeq + 3;
    };
    const e = editor();
    void room.submit(a, e.append('lost?'));
    await settle();
    const queued = room.submit(a, e.append(' queued'));
    gate.release();
    await expect(queued).rejects.toBeInstanceOf(StorageError);
    expect(room.failed).toBe(true);
    expect(a.closes).toEqual([[SyncClose.storageFailed, SyncCloseReason.loadFailed]]);
    expect(host.emptiedCount).toBe(1);
    expect(logged.map((l) => l.msg)).toContain('sync room failed; closing it');
  });
});

describe('change request contributors', () => {
  it('records every user editing a change request live, once, and a failure there fails no edit', async () => {
    const sr = await newChangeRequest();
    const { room, docId } = await openRoom(sr);
    const [a, b, ghost] = [new Member(userA), new Member(userB), new Member('no-such-user')];
    for (const m of [a, b, ghost]) room.addMember(m);
    const [ea, eb, eg] = [editor(), editor(), editor()];
    await Promise.all([room.submit(a, ea.append('a')), room.submit(b, eb.append('b')), room.submit(ghost, eg.append('g'))]);
    // Recorded after the edit is answered: the edit does not wait for it.
    await room.settled();
    const rows = await raw.query<{ user_id: string }>('SELECT user_id FROM change_request_contributors WHERE change_request_id = $1', [
      sr.changeRequestId,
    ]);
    expect(rows.map((r) => r.user_id).sort()).toEqual([userA, userB].sort());
    expect(await rowsOf(docId)).toBe(1);
    expect(logged.map((l) => l.msg)).toEqual(['could not record a change request contributor']);
    // Recorded once: removed behind the room's back, it is not written again for the same user.
    await raw.query('DELETE FROM change_request_contributors WHERE change_request_id = $1', [sr.changeRequestId]);
    await room.submit(a, ea.append('a'));
    await room.settled();
    expect(await raw.query('SELECT 1 FROM change_request_contributors WHERE change_request_id = $1', [sr.changeRequestId])).toEqual([]);
  });

  it('records none for a space', async () => {
    const { room } = await openRoom(await newSpace());
    const a = new Member(userA);
    room.addMember(a);
    await room.submit(a, editor().append('a'));
    await room.settled();
    expect(logged).toEqual([]);
  });
});

describe('a client update (journal)', () => {
  it('takes the next seq, and is applied and relayed only once on disk', async () => {
    const disk = held();
    const journal: SyncJournal = {
      ...jdb.journal,
      gate: jdb.journal.gate,
      append: async (record) => {
        const written = jdb.journal.append(record);
        await disk.promise;
        return written;
      },
    };
    const host = journalHost(journal);
    const { room, docId } = await openRoom(await newSpace(), host);
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    let answered = false;
    let stepTwo: string | undefined;
    const done = room.submit(a, editor().append('journaled')).then(() => (answered = true));
    await settle();
    room.whenStored(() => (stepTwo = textOf(room.doc)));
    expect(answered).toBe(false);
    expect(stepTwo).toBeUndefined();
    expect(room.stateAtLastSeq()).toBeUndefined();
    expect(b.updates).toBe(0);
    disk.release();
    await done;
    expect(stepTwo).toBe('journaled');
    expect(b.text).toBe('journaled');
    expect(a.updates).toBe(0);
    expect(room.lastSeq).toBe(1);
    expect(room.rowsSinceSnapshot).toBe(1);
    expect(host.edits).toBe(1);
    expect(await storedText(docId)).toBe('journaled');
    await room.submit(b, editor().append('!'));
    expect(room.lastSeq).toBe(2);
    expect(await rowsOf(docId)).toBe(2);
  });

  it("relays a batch of several senders to every member, and records a change request's contributors", async () => {
    const sr = await newChangeRequest();
    const { room, docId } = await openRoom(sr, journalHost());
    const [a, b, c] = [new Member(userA), new Member(userB), new Member(userB)];
    for (const m of [a, b, c]) room.addMember(m);
    const [ea, eb] = [editor(), editor()];
    await Promise.all([room.submit(a, ea.append('A')), room.submit(b, eb.append('B'))]);
    await room.settled();
    expect(await rowsOf(docId)).toBe(1);
    for (const m of [a, b, c]) expect(m.text).toBe(textOf(room.doc));
    const rows = await raw.query<{ user_id: string }>('SELECT user_id FROM change_request_contributors WHERE change_request_id = $1', [
      sr.changeRequestId,
    ]);
    expect(rows.map((r) => r.user_id).sort()).toEqual([userA, userB].sort());
  });

  it('applies and acknowledges nothing when the journal could not write', async () => {
    const host = journalHost({
      ...jdb.journal,
      gate: jdb.journal.gate,
      append: async () => {
        throw new Error('EIO');
      },
    });
    const { room } = await openRoom(await newSpace(), host);
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    await expect(room.submit(a, editor().append('x'))).rejects.toBeInstanceOf(StorageError);
    let stepTwoSent = false;
    room.whenStored(() => (stepTwoSent = true));
    expect(stepTwoSent).toBe(false);
    expect(room.stateAtLastSeq()).toBeUndefined();
    expect(b.updates).toBe(0);
    expect(host.edits).toBe(0);
    expect(logged.map((l) => l.msg)).toContain('could not journal a sync update');
  });

  it('hands out its seq after rows another writer appended, and waits for a section to end', async () => {
    const sr = await newSpace();
    const { room, docId } = await openRoom(sr, journalHost());
    const a = new Member(userA);
    room.addMember(a);
    await room.submit(a, editor().append('live '));
    const other = editor();
    await jdb.transaction((tx) => appendUpdate(tx, docId, other.append('REST')));
    await room.submit(a, editor().append('again'));
    expect(room.lastSeq).toBe(3);
    expect(textOf(room.doc)).toContain('REST');
    expect(await rowsOf(docId)).toBe(3);

    const inSection = held();
    const sectionStarted = held();
    const section = jdb.transaction(async (tx) => {
      sectionStarted.release();
      await inSection.promise;
      return appendUpdate(tx, docId, other.append(' more'));
    });
    await sectionStarted.promise;
    const typed = room.submit(a, editor().append('!'));
    await settle();
    expect(room.lastSeq).toBe(3);
    inSection.release();
    await section;
    await typed;
    expect(room.lastSeq).toBe(5);
    expect(textOf(room.doc)).toContain('REST more');
    expect(await storedText(docId)).toBe(textOf(room.doc));
  });

  it('refuses a batch once a lock committed, and takes it again once unlocked', async () => {
    const sr = await newSpace();
    const { room, docId } = await openRoom(sr, journalHost());
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    const e = editor();
    await room.submit(a, e.append('before '));
    await jdb.query("UPDATE spaces SET edit_mode = 'locked' WHERE id = $1", [sr.spaceId]);
    const update = e.append('after');
    await room.submit(a, update);
    expect(a.refusals).toEqual([SyncRefusal.locked]);
    expect(await rowsOf(docId)).toBe(1);
    expect(textOf(room.doc)).toBe('before ');
    expect(b.text).toBe('before ');
    await jdb.query("UPDATE spaces SET edit_mode = 'live' WHERE id = $1", [sr.spaceId]);
    await room.submit(a, update);
    expect(await storedText(docId)).toBe('before after');
  });

  it('refuses a merged change request', () => mergedChangeRequestRefused(jdb, journalHost()));

  it('closes every connection of a deleted space and answers the batch with the refusal', async () => {
    const sr = await newSpace();
    const { room, docId } = await openRoom(sr, journalHost());
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    await softDeleteSpace(jdb, sr.spaceId);
    await expect(room.submit(a, editor().append('late'))).rejects.toBeInstanceOf(SyncRefused);
    expect(a.closes).toEqual([[SyncClose.notFound, SyncCloseReason.spaceDeleted]]);
    expect(b.closes).toEqual([[SyncClose.notFound, SyncCloseReason.spaceDeleted]]);
    expect(await rowsOf(docId)).toBe(0);
  });

  it('trusts a policy the service read with no section since, and drops one a section overlapped', async () => {
    const sr = await newSpace();
    const { room, docId } = await openRoom(sr, journalHost());
    const a = new Member(userA);
    room.addMember(a);
    const gate = jdb.journal.gate;
    // Read before a section started: it may predate a lock or an unlock, so it is not kept.
    room.setPolicy({ refusal: SyncRefusal.locked }, gate.epoch - 1);
    await room.submit(a, editor().append('open'));
    expect(a.refusals).toEqual([]);
    expect(await rowsOf(docId)).toBe(1);
    room.setPolicy({ refusal: SyncRefusal.locked }, gate.epoch);
    await room.submit(a, editor().append('shut'));
    expect(a.refusals).toEqual([SyncRefusal.locked]);
    expect(await rowsOf(docId)).toBe(1);
    room.setPolicy(new SyncRefused(SyncClose.notFound, SyncCloseReason.spaceDeleted));
    await expect(room.policy()).rejects.toBeInstanceOf(SyncRefused);
  });

  it('answers a batch waiting for a section with "room closed" when the room is dropped meanwhile', async () => {
    const sr = await newSpace();
    const { room, docId } = await openRoom(sr, journalHost());
    const a = new Member(userA);
    room.addMember(a);
    const inSection = held();
    const sectionStarted = held();
    const section = jdb.transaction(async (tx) => {
      sectionStarted.release();
      await inSection.promise;
      await tx.query('SELECT 1');
    });
    await sectionStarted.promise;
    const waiting = room.submit(a, editor().append('x'));
    await settle();
    const queued = room.submit(a, editor().append('y'));
    room.destroy();
    await expect(queued).rejects.toThrow('room closed');
    inSection.release();
    await section;
    await expect(waiting).rejects.toThrow('room closed');
    expect(await rowsOf(docId)).toBe(0);
  });
});

describe('awareness', () => {
  /** Updates sent per client id so far: each new one carries a higher clock, as a provider's do. */
  const clocks = new Map<number, number>();
  /** A client's awareness entry, as its provider encodes it. */
  function presence(clientId: number, state: Record<string, unknown> | null): Uint8Array {
    const doc = new Y.Doc();
    doc.clientID = clientId;
    const aw = new awarenessProtocol.Awareness(doc);
    const times = (clocks.get(clientId) ?? 0) + 1;
    clocks.set(clientId, times);
    for (let i = 0; i < times; i++) aw.setLocalState({ ...state, i });
    aw.setLocalState(state);
    return awarenessProtocol.encodeAwarenessUpdate(aw, [clientId]);
  }
  /** Two entries in one update. */
  function both(first: Uint8Array, second: Uint8Array): Uint8Array {
    const doc = new Y.Doc();
    const aw = new awarenessProtocol.Awareness(doc);
    aw.setLocalState(null);
    awarenessProtocol.applyAwarenessUpdate(aw, first, 'x');
    awarenessProtocol.applyAwarenessUpdate(aw, second, 'x');
    return awarenessProtocol.encodeAwarenessUpdate(aw, [...aw.getStates().keys()]);
  }
  const stateOf = (room: Room, id: number) => room.awareness.getStates().get(id);

  it("relays a writer's own entries to the others, and keeps other users off them", async () => {
    const { room, host } = await openRoom(await newSpace());
    const [a, b, b2] = [new Member(userA), new Member(userB), new Member(userB)];
    for (const m of [a, b, b2]) room.addMember(m);
    room.applyAwareness(a, presence(101, { name: 'A' }));
    expect(stateOf(room, 101)).toEqual({ name: 'A' });
    expect(a.controlled).toEqual(new Set([101]));
    expect([a.awareness.length, b.awareness.length]).toEqual([0, 1]);
    expect(host.awarenessCalls.at(-1)).toEqual({ clients: [101], users: new Map([[101, userA]]) });

    // Another user's update for that id is dropped; in one with their own entry, only theirs is kept.
    room.applyAwareness(b, presence(101, { name: 'spoof' }));
    expect(stateOf(room, 101)).toEqual({ name: 'A' });
    room.applyAwareness(b, both(presence(101, { name: 'spoof' }), presence(202, { name: 'B' })));
    expect(stateOf(room, 101)).toEqual({ name: 'A' });
    expect(stateOf(room, 202)).toEqual({ name: 'B' });
    expect(b.controlled).toEqual(new Set([202]));
    expect(host.awarenessCalls.at(-1)?.users).toEqual(new Map([[202, userB]]));

    // The same user on a new connection (a reconnect) takes the entry over.
    room.applyAwareness(b2, presence(202, { name: 'B again' }));
    expect(stateOf(room, 202)).toEqual({ name: 'B again' });
    expect(b.controlled.has(202)).toBe(false);
    expect(b2.controlled).toEqual(new Set([202]));

    // A writer leaving takes their entries with them; the last one leaving empties the room.
    room.removeMember(a);
    expect(stateOf(room, 101)).toBeUndefined();
    expect(host.emptiedCount).toBe(0);
    room.removeMember(b);
    room.removeMember(b);
    room.removeMember(b2);
    expect(stateOf(room, 202)).toBeUndefined();
    expect(host.emptiedCount).toBe(1);
  });

  it('keeps entries relayed by another instance to the user that set them there', async () => {
    const { room, host } = await openRoom(await newSpace());
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    const calls = host.awarenessCalls.length;
    room.applyRemoteAwareness(presence(303, { name: 'remote A' }), new Map([[303, userA]]));
    expect(stateOf(room, 303)).toEqual({ name: 'remote A' });
    expect([a.awareness.length, b.awareness.length]).toEqual([1, 1]);
    // Not sent back to the other instances.
    expect(host.awarenessCalls.length).toBe(calls);
    // A local connection of another user cannot take it; one of the same user can.
    room.applyAwareness(b, presence(303, { name: 'spoof' }));
    expect(stateOf(room, 303)).toEqual({ name: 'remote A' });
    room.applyAwareness(a, presence(303, { name: 'A here now' }));
    expect(stateOf(room, 303)).toEqual({ name: 'A here now' });
    expect(a.controlled.has(303)).toBe(true);

    // Relayed for another user, an entry held here is dropped; for the same user it moves there.
    room.applyRemoteAwareness(presence(303, { name: 'remote spoof' }), new Map([[303, userB]]));
    expect(stateOf(room, 303)).toEqual({ name: 'A here now' });
    room.applyRemoteAwareness(presence(303, { name: 'A over there' }), new Map([[303, userA]]));
    expect(stateOf(room, 303)).toEqual({ name: 'A over there' });
    expect(a.controlled.has(303)).toBe(false);
    room.applyAwareness(b, presence(303, { name: 'spoof' }));
    expect(stateOf(room, 303)).toEqual({ name: 'A over there' });

    // Without a user (an entry that timed out there) it may only remove what no connection here holds.
    room.applyAwareness(b, presence(404, { name: 'B' }));
    const timedOut = new Y.Doc();
    timedOut.clientID = 404;
    const gone = new awarenessProtocol.Awareness(timedOut);
    gone.setLocalState({ name: 'B' });
    gone.setLocalState(null);
    room.applyRemoteAwareness(awarenessProtocol.encodeAwarenessUpdate(gone, [404]), new Map());
    expect(stateOf(room, 404)).toEqual({ name: 'B' });
  });
});

describe("compaction from the room's document", () => {
  const compactor = (db: Db) => {
    const done: string[] = [];
    return { done, compactor: new Compactor(db, logger, (docId) => void done.push(docId)) };
  };
  const snapshotOf = async (docId: string) =>
    (await raw.query<{ snapshot_seq: number }>('SELECT snapshot_seq FROM ydocs WHERE id = $1', [docId]))[0]?.snapshot_seq;

  it('stores the document as the snapshot without holding the rooms, and reads no row of the log', async () => {
    const { room, docId } = await openRoom(await newSpace(), journalHost());
    const [a, b] = [new Member(userA), new Member(userB)];
    room.addMember(a);
    room.addMember(b);
    const e = editor();
    for (const word of ['one ', 'two ', 'three']) await room.submit(a, e.append(word));
    const epoch = jdb.journal.gate.epoch;
    const reads: string[] = [];
    const watched: Db = {
      ...jdb,
      query: (sql, params) => {
        reads.push(sql);
        return jdb.query(sql, params);
      },
    };
    const { done, compactor: c } = compactor(watched);
    c.compact(docId, room);
    await c.stop();
    expect(done).toEqual([docId]);
    expect(reads).toEqual([]);
    expect(jdb.journal.gate.epoch).toBe(epoch);
    expect(Number(await snapshotOf(docId))).toBe(3);
    expect(await rowsOf(docId)).toBe(0);
    expect(await storedText(docId)).toBe('one two three');
    // The room goes on from there: the next row follows the snapshot.
    await room.submit(b, e.append('!'));
    expect(room.lastSeq).toBe(4);
    expect(await storedText(docId)).toBe('one two three!');
  });

  it('offers no state while a journaled row is on its way to disk, not yet in the document', async () => {
    const disk = held();
    const journal: SyncJournal = {
      ...jdb.journal,
      append: async (record) => {
        const written = jdb.journal.append(record);
        await disk.promise;
        return written;
      },
    };
    const { room } = await openRoom(await newSpace(), journalHost(journal));
    const a = new Member(userA);
    room.addMember(a);
    const e = editor();
    const first = room.submit(a, e.append('first'));
    await settle();
    expect(room.lastSeq).toBe(1);
    expect(room.stateAtLastSeq()).toBeUndefined();
    disk.release();
    await first;
    expect((await room.stateAtLastSeq())?.seq).toBe(1);
  });

  it('keeps the rows another writer appended past the state it stores', async () => {
    const { room, docId } = await openRoom(await newSpace());
    const a = new Member(userA);
    room.addMember(a);
    const e = editor();
    await room.submit(a, e.append('mine'));
    await room.submit(a, e.append(' too'));
    const state = room.stateAtLastSeq();
    // Another instance appends after the room's position, before the compaction stores.
    await appendUpdate(raw, docId, editor().append('theirs '));
    const { compactor: c } = compactor(raw);
    c.compact(docId, { stateAtLastSeq: () => state });
    await c.stop();
    expect(Number(await snapshotOf(docId))).toBe(2);
    expect((await raw.query('SELECT seq FROM ydoc_updates WHERE doc_id = $1', [docId])).length).toBe(1);
    expect(textOf((await loadYDoc(raw, docId)).doc)).toContain('theirs ');
    expect(textOf((await loadYDoc(raw, docId)).doc)).toContain('mine too');
  });
});
