import { listCommentAnchors, setCommentAnchor } from '@quire/shared/content/commentAnchors';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type BranchRef, branchKey } from '../common/ipc';
import type { BranchDoc } from './BranchDoc';
import { type Applied, RefusedError, RetryLaterError } from './Outbox';
import { type ReplayContext, createPerformer } from './replay';
import { RemoteError, type RequestOptions, type ServerClient, UnreachableError } from './ServerClient';
import { getSpace, insertLocalSpace, setSpaceRemote } from './store/catalog';
import { getChangeRequest, insertChangeRequest, setChangeRequestRemote, updateChangeRequestLocal } from './store/changeRequests';
import { getComment, insertComment, setCommentRemote } from './store/comments';
import { type LocalDb, openLocalDb } from './store/database';
import { getLocalFile, putLocalFile } from './store/files';
import { type OutboxRow, enqueue } from './store/outbox';

/**
 * What each queued mutation becomes on the wire after a restart, and what the server's
 * answer (or refusal) changes here: the performer on its own, against a real local
 * database, a scripted server and a node that records what it is asked to do.
 */

let db: LocalDb;
beforeAll(async () => {
  db = await openLocalDb(undefined);
});
afterAll(async () => db?.close());

interface Sent {
  method: string;
  path: string;
  opts: RequestOptions;
}

/** Records requests in the node's log; answers with `answer` (a thrown error when it is one). */
class ScriptedServer {
  sent: Sent[] = [];
  answer: (s: Sent) => unknown = () => ({ id: 'srv-new' });
  constructor(private log: string[]) {}
  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const s = { method, path, opts };
    this.sent.push(s);
    this.log.push(`${method} ${path}`);
    const a = this.answer(s);
    if (a instanceof Error) throw a;
    return a as T;
  }
}

class RecordingNode implements ReplayContext {
  log: string[] = [];
  client: ScriptedServer | undefined = new ScriptedServer(this.log);
  /** What the branch's sync round-trip does: resolves, or fails while connected or refused. */
  branch = { connection: 'connected', refusal: undefined as string | undefined, flushError: undefined as Error | undefined };
  constructor(readonly db: LocalDb) {}
  server() {
    return this.client as unknown as ServerClient | undefined;
  }
  /** Each branch's doc, made on first use. */
  docs = new Map<string, Y.Doc>();
  async withBranch<T>(ref: BranchRef, fn: (branch: BranchDoc) => Promise<T> | T): Promise<T> {
    const b = this.branch;
    const log = this.log;
    const key = branchKey(ref);
    if (!this.docs.has(key)) this.docs.set(key, new Y.Doc());
    const ydoc = this.docs.get(key) as Y.Doc;
    const doc = {
      doc: ydoc,
      async saved() {
        log.push(`saved ${key}`);
      },
      get connection() {
        return b.connection;
      },
      get refusal() {
        return b.refusal;
      },
      async flushToServer(ms: number) {
        log.push(`flush ${branchKey(ref)} within ${ms}`);
        if (b.flushError) throw b.flushError;
      },
    };
    return fn(doc as unknown as BranchDoc);
  }
  async reconnectBranch(ref: BranchRef) {
    this.log.push(`reconnect ${branchKey(ref)}`);
  }
  async pushWaitingBranches() {
    this.log.push('push waiting branches');
  }
  async fileUploaded(ref: BranchRef) {
    this.log.push(`file uploaded in ${branchKey(ref)}`);
  }
  changed(what: { spaceId?: string; branch?: string; catalog?: boolean }) {
    this.log.push(`changed ${JSON.stringify(what)}`);
  }
}

let node: RecordingNode;
beforeEach(async () => {
  for (const t of ['outbox', 'spaces', 'change_requests', 'comments', 'files']) await db.query(`DELETE FROM ${t}`);
  node = new RecordingNode(db);
});

const server = () => node.client as ScriptedServer;

async function entry(kind: string, payload: Record<string, unknown>, attempts = 0): Promise<OutboxRow> {
  const row = await enqueue(db, kind, payload, kind);
  if (attempts) await db.query('UPDATE outbox SET attempts = $2 WHERE seq = $1', [row.seq, attempts]);
  return { ...row, attempts };
}

/** Sends one entry, then records its answer and runs its follow-up, as the outbox does. */
async function replay(kind: string, payload: Record<string, unknown>, attempts = 0): Promise<void> {
  const applied: Applied = await createPerformer(node).perform(await entry(kind, payload, attempts));
  await db.transaction((tx) => applied.apply(tx));
  await applied.after?.();
}

/** The error an entry is refused with before anything is recorded. */
async function failure(kind: string, payload: Record<string, unknown>, attempts = 0): Promise<Error> {
  return createPerformer(node)
    .perform(await entry(kind, payload, attempts))
    .then(
      () => {
        throw new Error('the entry was sent');
      },
      (e: Error) => e,
    );
}

async function refuse(kind: string, payload: Record<string, unknown>, message = 'no (403)'): Promise<void> {
  const e = await entry(kind, payload);
  await db.transaction((tx) => createPerformer(node).refused(e, message, tx));
}

async function space(id: string, remoteId: string | null, opts: { title?: string; syncState?: 'local' | 'publishing' | 'remote' } = {}) {
  await insertLocalSpace(db, { id, title: opts.title ?? `Space ${id}`, emoji: null, orgId: 'org1', syncState: opts.syncState ?? 'remote' });
  if (remoteId) await setSpaceRemote(db, id, remoteId, 'org1');
}

async function changeRequest(id: string, spaceId: string, remoteId: string | null, subject = `CR ${id}`) {
  await insertChangeRequest(db, {
    id,
    spaceId,
    subject,
    syncState: remoteId ? 'remote' : 'pending',
    baseMainSeq: 0,
    baseStateVector: new Uint8Array([0]),
    createdBy: null,
  });
  if (remoteId) await setChangeRequestRemote(db, id, { remoteId, number: 4 });
}

async function comment(
  id: string,
  spaceId: string,
  opts: { remoteId?: string; changeRequestId?: string; pageId?: string; parentId?: string; body?: string } = {},
) {
  await insertComment(db, {
    id,
    spaceId,
    changeRequestId: opts.changeRequestId ?? null,
    pageId: opts.pageId ?? null,
    parentId: opts.parentId ?? null,
    author: null,
    body: opts.body ?? `Body of ${id}`,
    syncState: 'pending',
  });
  if (opts.remoteId) await setCommentRemote(db, id, opts.remoteId);
}

describe('replaying a queued mutation', () => {
  it('waits, unsent, while no server is signed in', async () => {
    node.client = undefined;
    await space('s1', 'S1');
    const err = await failure('space.update', { spaceId: 's1', body: { title: 'x' } });
    expect(err).toBeInstanceOf(UnreachableError);
    expect(err.message).toMatch(/not signed in/);
  });

  it('publishes a local space with its idempotency key, records its server id, then pushes its content', async () => {
    await space('s1', null, { syncState: 'publishing' });
    server().answer = () => ({ id: 'S1' });
    const e = await entry('space.publish', { spaceId: 's1', organizationId: 'org9', title: 'Notes', emoji: '📘' });
    const applied = await createPerformer(node).perform(e);
    expect(server().sent).toEqual([
      { method: 'POST', path: '/v1/orgs/org9/spaces', opts: { body: { title: 'Notes', emoji: '📘' }, idempotencyKey: e.key } },
    ]);
    await db.transaction((tx) => applied.apply(tx));
    expect(await getSpace(db, 's1')).toMatchObject({ remoteId: 'S1', orgId: 'org9', syncState: 'remote' });
    await applied.after?.();
    expect(node.log).toEqual(['POST /v1/orgs/org9/spaces', 'changed {"catalog":true}', 'reconnect s1', 'push waiting branches']);
  });

  it('publishes a space without an emoji without sending one', async () => {
    await space('s1', null, { syncState: 'publishing' });
    await replay('space.publish', { spaceId: 's1', organizationId: 'org9', title: 'Plain', emoji: null });
    expect(server().sent[0]?.opts.body).toEqual({ title: 'Plain' });
  });

  it('renames a space at its server id', async () => {
    await space('s1', 'S1');
    const e = await entry('space.update', { spaceId: 's1', body: { title: 'Renamed' } });
    const applied = await createPerformer(node).perform(e);
    expect(server().sent).toEqual([
      { method: 'PATCH', path: '/v1/spaces/S1', opts: { body: { title: 'Renamed' }, idempotencyKey: e.key } },
    ]);
    await db.transaction((tx) => applied.apply(tx));
    expect(applied.after).toBeUndefined();
  });

  it('refuses a change to a space that is gone or never reached the server, naming it', async () => {
    const gone = await failure('space.update', { spaceId: 'nope', body: {} });
    expect(gone).toBeInstanceOf(RefusedError);
    expect(gone.message).toBe('its space was removed from this machine');
    await space('s2', null, { title: 'Drafts', syncState: 'local' });
    const local = await failure('space.update', { spaceId: 's2', body: {} });
    expect(local).toBeInstanceOf(RefusedError);
    expect(local.message).toBe('the space “Drafts” is not on the server (its publication did not go through)');
    expect(server().sent).toEqual([]);
  });

  it('opens a change request made offline, records its number and status, then connects its branch', async () => {
    await space('s1', 'S1');
    await changeRequest('c1', 's1', null, 'Offline');
    server().answer = () => ({ id: 'C1', number: 7, status: 'open' });
    const e = await entry('changeRequest.create', { changeRequestId: 'c1', spaceId: 's1', subject: 'Offline' });
    const applied = await createPerformer(node).perform(e);
    expect(server().sent).toEqual([
      { method: 'POST', path: '/v1/spaces/S1/change-requests', opts: { body: { subject: 'Offline' }, idempotencyKey: e.key } },
    ]);
    await db.transaction((tx) => applied.apply(tx));
    await applied.after?.();
    expect(await getChangeRequest(db, 'c1')).toMatchObject({ remoteId: 'C1', number: 7, status: 'open', syncState: 'remote' });
    expect(node.log.slice(1)).toEqual(['changed {"spaceId":"s1"}', 'reconnect s1/cr/c1', 'push waiting branches']);
  });

  it('opens a change request whose answer has no number or status, keeping what it had', async () => {
    await space('s1', 'S1');
    await changeRequest('c1', 's1', null);
    await db.query("UPDATE change_requests SET number = 3, status = 'draft' WHERE id = 'c1'");
    server().answer = () => ({ id: 'C1' });
    await replay('changeRequest.create', { changeRequestId: 'c1', spaceId: 's1', subject: 'x' });
    expect(await getChangeRequest(db, 'c1')).toMatchObject({ remoteId: 'C1', number: 3, status: 'draft' });
  });

  it('renames a change request at its server path', async () => {
    await space('s1', 'S1');
    await changeRequest('c1', 's1', 'C1');
    await replay('changeRequest.update', { changeRequestId: 'c1', subject: 'New subject' });
    expect(server().sent.map((s) => [s.method, s.path, s.opts.body])).toEqual([
      ['PATCH', '/v1/spaces/S1/change-requests/C1', { subject: 'New subject' }],
    ]);
  });

  it('refuses a change to a change request that is gone or was never opened on the server', async () => {
    await space('s1', 'S1');
    const gone = await failure('changeRequest.update', { changeRequestId: 'nope', subject: 'x' });
    expect(gone).toBeInstanceOf(RefusedError);
    expect(gone.message).toBe('its change request was removed from this machine');
    await changeRequest('c1', 's1', null, 'Never opened');
    const local = await failure('changeRequest.update', { changeRequestId: 'c1', subject: 'x' });
    expect(local).toBeInstanceOf(RefusedError);
    expect(local.message).toBe('the change request “Never opened” is not on the server (its creation did not go through)');
    expect(server().sent).toEqual([]);
  });

  it('merges only after the branch synced its edits, then marks the change request merged', async () => {
    await space('s1', 'S1');
    await changeRequest('c1', 's1', 'C1');
    await updateChangeRequestLocal(db, 'c1', { mergeState: 'queued' });
    await replay('changeRequest.merge', { changeRequestId: 'c1' });
    expect(node.log).toEqual([
      'reconnect s1/cr/c1',
      'flush s1/cr/c1 within 15000',
      'POST /v1/spaces/S1/change-requests/C1/merge',
      'changed {"spaceId":"s1"}',
    ]);
    expect(server().sent[0]?.opts.body).toBeUndefined();
    expect(await getChangeRequest(db, 'c1')).toMatchObject({ mergeState: 'merged', status: 'merged' });
  });

  it('does not merge while the branch cannot sync: later when unreachable, refused when the server refuses it', async () => {
    await space('s1', 'S1');
    await changeRequest('c1', 's1', 'C1');
    node.branch.flushError = new Error('timed out');
    const later = await failure('changeRequest.merge', { changeRequestId: 'c1' });
    expect(later).toBeInstanceOf(UnreachableError);
    expect(later.message).toMatch(/timed out/);
    node.branch.connection = 'refused';
    node.branch.refusal = 'no write access';
    const refused = await failure('changeRequest.merge', { changeRequestId: 'c1' });
    expect(refused).toBeInstanceOf(RefusedError);
    expect(refused.message).toBe('the server refused to sync the branch: no write access');
    expect(server().sent).toEqual([]);
  });

  it('updates a change request from main and clears its outdated mark', async () => {
    await space('s1', 'S1');
    await changeRequest('c1', 's1', 'C1');
    await updateChangeRequestLocal(db, 'c1', { outdated: true });
    await replay('changeRequest.updateFromMain', { changeRequestId: 'c1' });
    expect(server().sent.map((s) => [s.method, s.path, s.opts.body])).toEqual([
      ['POST', '/v1/spaces/S1/change-requests/C1/update', undefined],
    ]);
    expect((await getChangeRequest(db, 'c1'))?.outdated).toBe(false);
    expect(node.log.at(-1)).toBe('changed {"spaceId":"s1"}');
  });

  it('posts a comment on a page after the branch synced the page, and records its server id', async () => {
    await space('s1', 'S1');
    await comment('k1', 's1', { pageId: 'p1', body: 'Looks good' });
    await replay('comment.create', { commentId: 'k1' });
    expect(node.log).toEqual(['reconnect s1', 'flush s1 within 15000', 'POST /v1/spaces/S1/comments', 'changed {"branch":"s1"}']);
    expect(server().sent[0]?.opts.body).toEqual({ body: { markdown: 'Looks good' }, page: 'p1' });
    expect(await getComment(db, 'k1')).toMatchObject({ remoteId: 'srv-new', syncState: 'synced' });
  });

  it('a comment on a passage: once the server has it, the passage’s mark names it by the server’s id', async () => {
    await space('s1', 'S1');
    await comment('k1', 's1', { pageId: 'p1', body: '> words\n\nWhy?' });
    const doc = new Y.Doc();
    node.docs.set('s1', doc);
    const at = { item: { client: 1, clock: 0 } };
    setCommentAnchor(doc, 'k1', { page: 'p1', comment: 'k1', from: at, to: at });
    await replay('comment.create', { commentId: 'k1', anchored: true });
    expect(node.log.slice(-2)).toEqual(['changed {"branch":"s1"}', 'saved s1']);
    expect([...listCommentAnchors(doc, 'p1')]).toEqual([['k1', { page: 'p1', comment: 'srv-new', from: at, to: at }]]);
  });

  it('posts a comment in a change request to its branch, without a page when it has none', async () => {
    await space('s1', 'S1');
    await changeRequest('c1', 's1', 'C1');
    await comment('k1', 's1', { changeRequestId: 'c1' });
    await replay('comment.create', { commentId: 'k1' });
    expect(node.log).toEqual([
      'reconnect s1/cr/c1',
      'flush s1/cr/c1 within 15000',
      'POST /v1/spaces/S1/change-requests/C1/comments',
      'changed {"branch":"s1/cr/c1"}',
    ]);
    expect(server().sent[0]?.opts.body).toEqual({ body: { markdown: 'Body of k1' } });
  });

  it('posts a comment even when the branch cannot sync now, but not when the server refuses the branch', async () => {
    await space('s1', 'S1');
    await comment('k1', 's1', { pageId: 'p1' });
    node.branch.flushError = new Error('offline');
    await replay('comment.create', { commentId: 'k1' });
    expect(server().sent.map((s) => s.path)).toEqual(['/v1/spaces/S1/comments']);
    await comment('k2', 's1', { pageId: 'p1' });
    node.branch.connection = 'refused';
    node.branch.refusal = 'gone';
    const err = await failure('comment.create', { commentId: 'k2' });
    expect(err).toBeInstanceOf(RefusedError);
    expect(server().sent).toHaveLength(1);
  });

  it('waits for a page the server does not show yet, a limited number of times', async () => {
    await space('s1', 'S1');
    await comment('k1', 's1', { pageId: 'p1' });
    server().answer = () => new RemoteError(404, 'Page not found');
    const early = await failure('comment.create', { commentId: 'k1' }, 7);
    expect(early).toBeInstanceOf(RetryLaterError);
    expect(early.message).toBe('the server does not show the page yet (Page not found)');
    const last = await failure('comment.create', { commentId: 'k1' }, 8);
    expect(last).toBeInstanceOf(RemoteError);
    // Another 404, or another status about the page, does not wait.
    server().answer = () => new RemoteError(404, 'Space not found');
    expect(await failure('comment.create', { commentId: 'k1' })).toBeInstanceOf(RemoteError);
    server().answer = () => new RemoteError(400, 'Invalid field "page"');
    expect(await failure('comment.create', { commentId: 'k1' })).toBeInstanceOf(RemoteError);
  });

  it('refuses a comment that is gone from this machine', async () => {
    const err = await failure('comment.create', { commentId: 'nope' });
    expect(err).toBeInstanceOf(RefusedError);
    expect(err.message).toBe('the comment was removed from this machine');
  });

  it('replies to a posted comment at its server id, in its branch', async () => {
    await space('s1', 'S1');
    await changeRequest('c1', 's1', 'C1');
    await comment('k1', 's1', { remoteId: 'K1', changeRequestId: 'c1' });
    await comment('r1', 's1', { parentId: 'k1', changeRequestId: 'c1', body: 'Agreed' });
    const e = await entry('comment.reply', { replyId: 'r1', commentId: 'k1' });
    const applied = await createPerformer(node).perform(e);
    expect(server().sent).toEqual([
      {
        method: 'POST',
        path: '/v1/spaces/S1/change-requests/C1/comments/K1/replies',
        opts: { body: { body: { markdown: 'Agreed' } }, idempotencyKey: e.key },
      },
    ]);
    await db.transaction((tx) => applied.apply(tx));
    await applied.after?.();
    expect(await getComment(db, 'r1')).toMatchObject({ remoteId: 'srv-new', syncState: 'synced' });
    expect(node.log.at(-1)).toBe('changed {"branch":"s1/cr/c1"}');
  });

  it('refuses a reply to a comment that never reached the server', async () => {
    await space('s1', 'S1');
    await comment('k1', 's1');
    await comment('r1', 's1', { parentId: 'k1' });
    const err = await failure('comment.reply', { replyId: 'r1', commentId: 'k1' });
    expect(err).toBeInstanceOf(RefusedError);
    expect(err.message).toBe('the comment it answers is not on the server (posting it did not go through)');
    const gone = await failure('comment.reply', { replyId: 'nope', commentId: 'k1' });
    expect(gone.message).toBe('the comment was removed from this machine');
  });

  it('adds and removes reactions on a comment and on a reply', async () => {
    await space('s1', 'S1');
    await comment('k1', 's1', { remoteId: 'K1' });
    await comment('r1', 's1', { parentId: 'k1', remoteId: 'R1' });
    await replay('comment.react', { commentId: 'k1', emoji: '👍', on: true });
    await replay('comment.react', { commentId: 'k1', replyId: 'r1', emoji: '🎉', on: false });
    expect(server().sent.map((s) => [s.method, s.path, s.opts.body])).toEqual([
      ['PUT', '/v1/spaces/S1/comments/K1', { addedReactions: ['👍'] }],
      ['PUT', '/v1/spaces/S1/comments/K1/replies/R1', { removedReactions: ['🎉'] }],
    ]);
  });

  it('resolves and reopens a comment', async () => {
    await space('s1', 'S1');
    await comment('k1', 's1', { remoteId: 'K1' });
    await replay('comment.resolve', { commentId: 'k1', resolved: true });
    await replay('comment.resolve', { commentId: 'k1', resolved: false });
    expect(server().sent.map((s) => [s.method, s.path, s.opts.body])).toEqual([
      ['PUT', '/v1/spaces/S1/comments/K1', { resolved: true }],
      ['PUT', '/v1/spaces/S1/comments/K1', { resolved: false }],
    ]);
  });

  it('uploads a file to its space by id, with its bytes and type, and lets its branch point at it', async () => {
    await space('s1', 'S1');
    const bytes = new Uint8Array([1, 2, 3]);
    await putLocalFile(db, { id: 'f1', spaceId: 's1', name: 'a b&c.png', contentType: 'image/png', bytes, state: 'queued' });
    await replay('file.upload', { spaceId: 's1', fileId: 'f1' });
    expect(server().sent).toEqual([
      {
        method: 'PUT',
        path: '/v1/spaces/S1/content/files/f1?name=a%20b%26c.png',
        opts: { raw: { bytes, contentType: 'image/png' }, timeoutMs: 120_000 },
      },
    ]);
    expect((await getLocalFile(db, 'f1'))?.state).toBe('uploaded');
    expect(node.log.at(-1)).toBe('file uploaded in s1');
  });

  it('uploads a change request’s file through the change request once the server has it, else through main', async () => {
    await space('s1', 'S1');
    await changeRequest('c1', 's1', 'C1');
    await changeRequest('c2', 's1', null);
    await putLocalFile(db, { id: 'f1', spaceId: 's1', name: 'x', contentType: 'text/plain', bytes: new Uint8Array([1]), state: 'queued' });
    await replay('file.upload', { spaceId: 's1', changeRequestId: 'c1', fileId: 'f1' });
    await replay('file.upload', { spaceId: 's1', changeRequestId: 'c2', fileId: 'f1' });
    expect(server().sent.map((s) => s.path)).toEqual([
      '/v1/spaces/S1/change-requests/C1/content/files/f1?name=x',
      '/v1/spaces/S1/content/files/f1?name=x',
    ]);
    expect(node.log.filter((l) => l.startsWith('file uploaded'))).toEqual(['file uploaded in s1/cr/c1', 'file uploaded in s1/cr/c2']);
  });

  it('refuses an upload of a file that is gone, and a kind of change it does not know', async () => {
    const gone = await failure('file.upload', { spaceId: 's1', fileId: 'nope' });
    expect(gone).toBeInstanceOf(RefusedError);
    expect(gone.message).toBe('the file was removed from this machine');
    const unknown = await failure('space.explode', {});
    expect(unknown).toBeInstanceOf(RefusedError);
    expect(unknown.message).toBe('unknown kind of change “space.explode”');
  });
});

describe('a mutation the server refused for good', () => {
  it('takes a space whose publication was refused back to local, with what waited on it', async () => {
    await space('s1', null, { syncState: 'publishing' });
    await space('s2', null, { syncState: 'publishing' });
    await changeRequest('c1', 's1', null);
    await changeRequest('c2', 's2', null);
    await comment('k1', 's1');
    await comment('k2', 's2');
    await comment('k3', 's1', { remoteId: 'K3' });
    await putLocalFile(db, { id: 'f1', spaceId: 's1', name: 'x', contentType: 'text/plain', bytes: new Uint8Array([1]), state: 'queued' });
    await putLocalFile(db, { id: 'f2', spaceId: 's2', name: 'y', contentType: 'text/plain', bytes: new Uint8Array([1]), state: 'queued' });
    await putLocalFile(db, {
      id: 'f3',
      spaceId: 's1',
      name: 'z',
      contentType: 'text/plain',
      bytes: new Uint8Array([1]),
      state: 'uploaded',
    });
    await entry('changeRequest.create', { changeRequestId: 'c1', spaceId: 's1' });
    await entry('comment.create', { commentId: 'k1' });
    await entry('comment.reply', { replyId: 'x', commentId: 'k1' });
    await entry('changeRequest.merge', { changeRequestId: 'c1' });
    await entry('file.upload', { spaceId: 's1', fileId: 'f1' });
    await entry('comment.create', { commentId: 'k2' });
    await entry('changeRequest.create', { changeRequestId: 'c2', spaceId: 's2' });
    const done = await entry('space.update', { spaceId: 's1' });
    await db.query("UPDATE outbox SET state = 'done' WHERE seq = $1", [done.seq]);

    await refuse('space.publish', { spaceId: 's1', organizationId: 'org1' });

    expect(await getSpace(db, 's1')).toMatchObject({ syncState: 'local', orgId: null });
    expect(await getSpace(db, 's2')).toMatchObject({ syncState: 'publishing', orgId: 'org1' });
    expect((await getChangeRequest(db, 'c1'))?.syncState).toBe('local');
    expect((await getChangeRequest(db, 'c2'))?.syncState).toBe('pending');
    expect((await getComment(db, 'k1'))?.syncState).toBe('local');
    expect((await getComment(db, 'k2'))?.syncState).toBe('pending');
    expect((await getComment(db, 'k3'))?.syncState).toBe('synced');
    expect((await getLocalFile(db, 'f1'))?.state).toBe('local');
    expect((await getLocalFile(db, 'f2'))?.state).toBe('queued');
    expect((await getLocalFile(db, 'f3'))?.state).toBe('uploaded');
    const left = await db.query<{ kind: string; state: string }>('SELECT kind, state FROM outbox ORDER BY seq');
    expect(left.map((r) => [r.kind, r.state])).toEqual([
      ['comment.create', 'pending'],
      ['changeRequest.create', 'pending'],
      ['space.update', 'done'],
    ]);
    expect(node.log).toEqual(['changed {"catalog":true}']);
  });

  it('leaves a space the server already has alone when a late publication is refused', async () => {
    await space('s1', 'S1');
    await refuse('space.publish', { spaceId: 's1', organizationId: 'org1' });
    expect(await getSpace(db, 's1')).toMatchObject({ syncState: 'remote', remoteId: 'S1', orgId: 'org1' });
  });

  it('un-queues a refused merge, and marks a refused comment or reply failed with the reason', async () => {
    await space('s1', 'S1');
    await changeRequest('c1', 's1', 'C1');
    await updateChangeRequestLocal(db, 'c1', { mergeState: 'queued' });
    await comment('k1', 's1', { remoteId: 'K1' });
    await comment('k2', 's1');
    await comment('r1', 's1', { parentId: 'k1' });
    await refuse('changeRequest.merge', { changeRequestId: 'c1' });
    await refuse('comment.create', { commentId: 'k2' }, 'Page not found (404)');
    await refuse('comment.reply', { replyId: 'r1', commentId: 'k1' }, 'Forbidden (403)');
    expect((await getChangeRequest(db, 'c1'))?.mergeState).toBe('none');
    expect(await getComment(db, 'k2')).toMatchObject({ syncState: 'failed', error: 'Page not found (404)' });
    expect(await getComment(db, 'r1')).toMatchObject({ syncState: 'failed', error: 'Forbidden (403)' });
    expect(await getComment(db, 'k1')).toMatchObject({ syncState: 'synced', error: null });
    // Other refusals have nothing to undo.
    await refuse('space.update', { spaceId: 's1' });
    expect(await getSpace(db, 's1')).toMatchObject({ syncState: 'remote' });
    expect(node.log).toEqual([]);
  });
});
