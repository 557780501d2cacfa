import { changeRequestSubjectOf, queueGitSync } from '../../store/gitConnections';
import { newId } from '@quire/shared';
import * as Y from 'yjs';
import { LRUCache } from 'lru-cache';
import { setChangeRequestHead } from '../../store/changeRequests';
import type { Db, Queryable } from '../../store/db';
import { maybeOne } from '../../store/db';
import {
  type RevisionHead,
  extendRevisionDocSeq,
  getRevision,
  getRevisionSmallParts,
  getRevisionState,
  insertRevision,
  latestRevisionHead,
  revisionStateSize,
  setSpaceRevision,
} from '../../store/revisions';
import { type PageChangeRow, recordPageChanges } from '../../store/revisionPages';
import { appendUpdate, loadDocUpdate, readDocLog } from '../../store/ydocs';
import { restoreInCut } from './restores';
import { type Branch, branchDocId, branchOfDocId, inTransaction, lockBranch } from './branches';
import {
  type Materialized,
  type PageEntry,
  type StoredMaterialized,
  applyPatch,
  asStored,
  emptyMaterialized,
  rematerialize,
} from './materialize';
import { watchChanges } from './model';
import { reindexPages } from './searchIndex';
import { branchPath, recordWebhookEvent } from '../webhooks/events';

/** Revision types: why a revision was cut. */
export type RevisionType = 'initial' | 'edits' | 'merge' | 'update' | 'import' | 'template' | 'fork' | 'restore';

/**
 * Documents and contents at recent revisions. Revisions never change, so an entry is
 * correct forever and only its memory matters; a cut hands its branch's document on to
 * the new revision instead of rebuilding it, which keeps a cut's cost to what changed.
 */
const docs = new LRUCache<string, Y.Doc>({ max: 12 });
const contents = new LRUCache<string, Materialized>({ max: 64 });

/** Empties both caches, so what follows reads revisions as stored, as a restarted server does. */
export function forgetCachedRevisions() {
  docs.clear();
  contents.clear();
}

/** A delta is stored while it stays below this share of its base's whole state. */
const DELTA_SHARE = 4;
const MIN_DELTA_BYTES = 64 * 1024;
const MIN_PATCH_ENTRIES = 64;

/** The whole encoded state of a revision (its base's state with its own delta applied). */
export async function revisionState(db: Queryable, revisionId: string): Promise<Uint8Array> {
  const row = await getRevisionState(db, revisionId);
  if (!row) throw new Error(`revision ${revisionId} is missing`);
  if (!row.state_base) return row.state;
  const base = await getRevisionState(db, row.state_base);
  if (!base) throw new Error(`base revision ${row.state_base} is missing`);
  return Y.mergeUpdates([base.state, row.state]);
}

/**
 * The Y doc at a revision, shared through a cache: read it synchronously and never change
 * it (a reader that awaits may find it handed on to a newer revision).
 */
export async function docAtRevision(db: Queryable, revisionId: string): Promise<Y.Doc> {
  const cached = docs.get(revisionId);
  if (cached) return cached;
  const doc = new Y.Doc({ gc: true });
  Y.applyUpdate(doc, await revisionState(db, revisionId));
  docs.set(revisionId, doc);
  return doc;
}

/** A doc at a revision that the caller may change (taken out of the cache). */
async function takeDocAt(db: Queryable, revisionId: string): Promise<Y.Doc> {
  const cached = docs.get(revisionId);
  docs.delete(revisionId);
  if (cached) return cached;
  const doc = new Y.Doc({ gc: true });
  Y.applyUpdate(doc, await revisionState(db, revisionId));
  return doc;
}

/** The content of a revision as the REST reads serve it. */
export async function contentAtRevision(db: Queryable, revisionId: string): Promise<Materialized> {
  const cached = contents.get(revisionId);
  if (cached) return cached;
  const row = await maybeOne<{ materialized: StoredMaterialized; state_base: string | null }>(
    db,
    'SELECT materialized, state_base FROM revisions WHERE id = $1',
    [revisionId],
  );
  if (!row) throw new Error(`revision ${revisionId} is missing`);
  const base = row.state_base ? await contentAtRevision(db, row.state_base) : undefined;
  const out = applyPatch(base, row.materialized);
  contents.set(revisionId, out);
  return out;
}

export interface CutOptions {
  type?: RevisionType;
  createdBy?: string | null;
  /** Parents besides the branch's previous head (the merged change request's revision, main's on update). */
  extraParents?: string[];
  /** A write of the git sync itself (a pushed commit merged in): not written back to the repository as a commit. */
  fromGit?: boolean;
}

export interface CutResult {
  revision: RevisionHead;
  /** False when the branch held nothing new and its head was returned. */
  changed: boolean;
}

/**
 * Cuts a revision of a branch from its document's current state, if the document changed
 * since the branch's last revision; else answers that revision. Called after live edits go
 * quiet, on start for logged updates no revision holds, and by every server-side write.
 * `branch` may be a Y doc id (`space:<id>`, `cr:<id>`).
 */
export async function cutRevision(db: Db | Queryable, branch: Branch | string, opts: CutOptions = {}): Promise<CutResult | undefined> {
  return inTransaction(db, async (tx) => {
    const b = typeof branch === 'string' ? await branchOfDocId(tx, branch) : branch;
    if (!b) return undefined;
    return cutIn(tx, b, opts);
  });
}

async function cutIn(tx: Queryable, branch: Branch, opts: CutOptions): Promise<CutResult | undefined> {
  const docId = branchDocId(branch);
  await lockBranch(tx, docId);
  const space = await maybeOne<{ id: string; org_id: string }>(tx, 'SELECT id, org_id FROM spaces WHERE id = $1', [branch.spaceId]);
  if (!space) return undefined;
  const head = await latestRevisionHead(tx, docId);
  // Where the log stands and what it holds past the head, in one read: a compaction
  // committing between two reads would fold rows away that this revision then never holds.
  const stored = await readDocLog(tx, docId, head?.doc_seq ?? -1);
  const lastSeq = stored?.lastSeq ?? 0;
  if (head && lastSeq <= head.doc_seq) return { revision: head, changed: false };

  const doc = head ? await takeDocAt(tx, head.id) : new Y.Doc({ gc: true });
  // A snapshot comes along when the log no longer holds everything since the head (compacted).
  const updates = stored ? [...(stored.snapshot ? [stored.snapshot] : []), ...stored.updates.map((u) => u.update)] : [];
  const stop = watchChanges(doc);
  doc.transact(() => {
    for (const u of updates) Y.applyUpdate(doc, u);
  });
  const changes = stop();
  if (head && !changes.any) {
    await extendRevisionDocSeq(tx, head.id, lastSeq);
    docs.set(head.id, doc);
    return { revision: head, changed: false };
  }

  const prev = head ? await contentAtRevision(tx, head.id) : emptyMaterialized();
  const now = new Date().toISOString();
  const { next, pageChanges, fileChanges } = rematerialize(doc, prev, head ? changes : 'all', now);
  // Live edits that restored a page from its history: recorded as the restore they are.
  const restore = head && !opts.type ? await restoreInCut(tx, branch, space.org_id, doc, changes.restored, pageChanges) : undefined;

  let state: Uint8Array;
  let stateBase: string | null = null;
  let materialized: StoredMaterialized = asStored(next);
  if (head) {
    // A head that is a whole state is the new base; only a delta head's (small) row is read.
    const headRow = head.state_base ? await getRevision(tx, head.id) : undefined;
    const base = head.state_base ?? head.id;
    const delta = Y.mergeUpdates([...(head.state_base && headRow ? [headRow.state] : []), ...updates]);
    const patch: StoredMaterialized =
      head.state_base && headRow
        ? { ...(headRow.materialized as StoredMaterialized), full: false }
        : { full: false, pages: {}, files: {}, variables: {}, reusableContents: {} };
    patch.pages = { ...patch.pages };
    patch.files = { ...patch.files };
    for (const [id, e] of pageChanges) patch.pages[id] = e;
    for (const [id, e] of fileChanges) patch.files[id] = e;
    patch.variables = next.variables;
    patch.reusableContents = next.reusableContents;
    const baseSize = await revisionStateSize(tx, base);
    const entries = Object.keys(patch.pages).length + Object.keys(patch.files).length;
    const pageCount = Object.keys(next.pages).length + Object.keys(next.files).length;
    if (
      delta.byteLength <= Math.max(MIN_DELTA_BYTES, baseSize / DELTA_SHARE) &&
      entries <= Math.max(MIN_PATCH_ENTRIES, pageCount / DELTA_SHARE)
    ) {
      state = delta;
      stateBase = base;
      materialized = patch;
    } else {
      state = Y.encodeStateAsUpdate(doc);
    }
  } else {
    state = Y.encodeStateAsUpdate(doc);
  }

  const revision = await insertRevision(tx, {
    id: newId(),
    spaceId: branch.spaceId,
    changeRequestId: branch.changeRequestId ?? null,
    branch: docId,
    parents: [...(head ? [head.id] : []), ...(opts.extraParents ?? restore?.revisions ?? [])],
    type: opts.type ?? (restore ? 'restore' : head ? 'edits' : 'initial'),
    createdBy: restore?.by ?? opts.createdBy ?? null,
    docSeq: lastSeq,
    state,
    stateBase,
    materialized,
  });
  if (branch.changeRequestId) {
    await setChangeRequestHead(tx, branch.changeRequestId, revision.id);
  } else {
    await setSpaceRevision(tx, branch.spaceId, revision.id);
    await recordPageChanges(tx, branch.spaceId, revision.id, revision.seq, pageChangeRows(pageChanges, prev));
    await reindexPages(tx, branch.spaceId, doc, next, prev, head ? [...pageChanges.keys()] : 'all');
    if (!opts.fromGit && (pageChanges.size || fileChanges.size)) await queuePush(tx, branch.spaceId, revision.id, opts);
  }
  if (pageChanges.size) await recordContentChange(tx, space.org_id, branch, revision, [...pageChanges.keys()]);
  docs.set(revision.id, doc);
  contents.set(revision.id, next);
  return { revision, changed: true };
}

/**
 * A connected space's main revision becomes a commit (`core/git/syncRun.ts`): a merge one of
 * its own, titled by the change request; other cuts (live edits after a quiet period, REST
 * writes) join a push still waiting. A space that is not connected reads one row.
 */
async function queuePush(tx: Queryable, spaceId: string, revisionId: string, opts: CutOptions): Promise<void> {
  const merged = opts.type === 'merge' && opts.extraParents?.[0];
  if (!merged) {
    await queueGitSync(tx, spaceId, { sync: 'push', revision: revisionId, liveEdits: true });
    return;
  }
  await queueGitSync(tx, spaceId, {
    sync: 'push',
    revision: revisionId,
    commitMessage: (await changeRequestSubjectOf(tx, merged)) ?? 'Edits in Quire',
  });
}

/** What a revision did to each page it touched, for the pages' histories. */
function pageChangeRows(changes: Map<string, PageEntry | null>, prev: Materialized): PageChangeRow[] {
  return [...changes].map(([pageId, entry]) => ({
    pageId,
    change: !entry ? 'removed' : prev.pages[pageId] ? 'edited' : 'added',
    title: (entry ?? prev.pages[pageId])?.title ?? '',
  }));
}

/** One `page.content_changed` event per revision (never per keystroke: live edits are cut after a quiet period). */
function recordContentChange(tx: Queryable, orgId: string, branch: Branch, revision: RevisionHead, pageIds: string[]) {
  const path = branchPath(branch.spaceId, branch.changeRequestId);
  return recordWebhookEvent(tx, {
    type: 'page.content_changed',
    orgId,
    spaceId: branch.spaceId,
    changeRequest: branch.changeRequestId ? { id: branch.changeRequestId } : null,
    revisionId: revision.id,
    data: (base) => ({
      revisionType: revision.type,
      pages: pageIds.map((id) => ({ id, url: `${base}${path}/content/page/${id}` })),
    }),
  });
}

/**
 * Applies an update to a branch as any editor would (through the update log, so connected
 * clients receive it) and cuts a revision holding it.
 */
export async function commitToBranch(
  tx: Queryable,
  branch: Branch,
  update: Uint8Array,
  opts: CutOptions = {},
): Promise<CutResult | undefined> {
  const docId = branchDocId(branch);
  await lockBranch(tx, docId);
  // Live edits that no revision holds yet go into their own revision first, so this one holds only `update`.
  await cutIn(tx, branch, {});
  await appendUpdate(tx, docId, update);
  return cutIn(tx, branch, opts);
}

/** The current head of a branch, cutting first when live edits are not in a revision yet. */
export async function branchHead(tx: Queryable, branch: Branch): Promise<RevisionHead | undefined> {
  return (await cutIn(tx, branch, {}))?.revision;
}

/**
 * A new space's content: an empty main branch with its first revision, so `revision` is
 * set from the start. Runs in the transaction that creates the space.
 */
export async function initSpaceContent(tx: Queryable, spaceId: string): Promise<RevisionHead> {
  const result = await cutIn(tx, { spaceId }, { type: 'initial' });
  if (!result) throw new Error(`space ${spaceId} is missing`);
  return result.revision;
}

/**
 * A duplicated space starts from the source's current content (live edits included) as
 * its first revision.
 */
export async function copySpaceContent(tx: Queryable, fromSpaceId: string, toSpaceId: string) {
  const { update } = await loadDocUpdate(tx, branchDocId({ spaceId: fromSpaceId }));
  await appendUpdate(tx, branchDocId({ spaceId: toSpaceId }), update);
  await cutIn(tx, { spaceId: toSpaceId }, { type: 'initial' });
}

/** A revision that starts a change request's branch: main's head content, under the branch's name. */
export async function insertForkRevision(
  tx: Queryable,
  branch: Branch,
  mainHead: RevisionHead,
  forkDocSeq: number,
  createdBy: string,
): Promise<RevisionHead> {
  // Shares main's base: the fork costs what main's own delta costs, not the space's size.
  let state: Uint8Array;
  let materialized: StoredMaterialized;
  if (mainHead.state_base) {
    const row = await getRevision(tx, mainHead.id);
    if (!row) throw new Error(`revision ${mainHead.id} is missing`);
    state = row.state;
    materialized = row.materialized as StoredMaterialized;
  } else {
    const small = await getRevisionSmallParts(tx, mainHead.id);
    state = Y.encodeStateAsUpdate(new Y.Doc());
    materialized = {
      full: false,
      pages: {},
      files: {},
      variables: (small?.variables ?? {}) as StoredMaterialized['variables'],
      reusableContents: (small?.reusable_contents ?? {}) as StoredMaterialized['reusableContents'],
    };
  }
  return insertRevision(tx, {
    id: newId(),
    spaceId: branch.spaceId,
    changeRequestId: branch.changeRequestId ?? null,
    branch: branchDocId(branch),
    parents: [mainHead.id],
    type: 'fork',
    createdBy,
    docSeq: forkDocSeq,
    state,
    stateBase: mainHead.state_base ?? mainHead.id,
    materialized,
  });
}

/**
 * Edits a branch from the server: `edit` changes a private copy of the branch's current
 * document, and what it changed goes through the branch's update log (so live clients
 * receive it) into a new revision. Nothing is written when `edit` throws or changes nothing.
 */
export async function editBranch<T>(
  tx: Queryable,
  branch: Branch,
  edit: (doc: Y.Doc) => T,
  opts: CutOptions = {},
): Promise<{ result: T; revision: RevisionHead; changed: boolean }> {
  await lockBranch(tx, branchDocId(branch));
  // Undefined only when the space is gone: a branch without a revision gets its first one here.
  const head = await branchHead(tx, branch);
  if (!head) throw new Error(`branch ${branchDocId(branch)} has no revision`);
  const scratch = new Y.Doc({ gc: true });
  Y.applyUpdate(scratch, Y.encodeStateAsUpdate(await docAtRevision(tx, head.id)));
  const updates: Uint8Array[] = [];
  scratch.on('update', (u: Uint8Array) => updates.push(u));
  const result = edit(scratch);
  scratch.destroy();
  if (!updates.length) return { result, revision: head, changed: false };
  const cut = await commitToBranch(tx, branch, Y.mergeUpdates(updates), opts);
  return { result, revision: cut?.revision ?? head, changed: !!cut?.changed };
}
