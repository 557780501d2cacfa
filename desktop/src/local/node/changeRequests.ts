import { newId } from '@quire/shared/ids';
import * as Y from 'yjs';
import type { ChangeRequestBase, ChangeRequestDiff, ChangeRequestSummary } from '../../common/ipc';
import { diffBranches } from '../content';
import { RemoteError, UnreachableError } from '../ServerClient';
import {
  type ChangeRequestRow,
  type RemoteChangeRequest,
  addChangeRequestBase,
  getChangeRequest,
  insertChangeRequest,
  listChangeRequests,
  mergeRemoteChangeRequests,
  updateChangeRequestLocal,
} from '../store/changeRequests';
import { appendDocUpdateIn, docLastSeq } from '../store/docs';
import { enqueue } from '../store/outbox';
import { LocalError, type NodeContext, docIdOf, type ChangeRequestsPart } from './context';

/** Change requests: opened here at once (offline too), renamed, updated from main, merged, diffed. */
export class ChangeRequests implements ChangeRequestsPart {
  constructor(private readonly ctx: NodeContext) {}

  async orThrow(id: string): Promise<ChangeRequestRow> {
    const cr = await getChangeRequest(this.ctx.db, id);
    if (!cr) throw new LocalError('This change request is not on this machine.');
    return cr;
  }

  private async summary(cr: ChangeRequestRow): Promise<ChangeRequestSummary> {
    let outdated = cr.outdated;
    if (cr.syncState !== 'remote' && cr.mergeState !== 'merged') {
      outdated = (await docLastSeq(this.ctx.db, docIdOf({ spaceId: cr.spaceId }))) > cr.baseMainSeq;
    }
    return {
      id: cr.id,
      spaceId: cr.spaceId,
      number: cr.number,
      subject: cr.subject,
      status: cr.mergeState === 'merged' ? 'merged' : cr.status,
      outdated,
      syncState: cr.syncState,
      mergeState: cr.mergeState,
      createdBy: cr.createdBy?.displayName ?? null,
      updatedAt: cr.updatedAt,
      base: `${cr.remoteBaseRevision ?? ''}:${cr.baseMainSeq}`,
    };
  }

  private async summaryOf(id: string) {
    return this.summary(await this.orThrow(id));
  }

  async list(spaceId: string): Promise<ChangeRequestSummary[]> {
    await this.ctx.catalog.spaceOrThrow(spaceId);
    return Promise.all((await listChangeRequests(this.ctx.db, spaceId)).map((cr) => this.summary(cr)));
  }

  /** Pulls the server's change requests of a space (when online); the local list otherwise. */
  async refresh(spaceId: string): Promise<ChangeRequestSummary[]> {
    const space = await this.ctx.catalog.spaceOrThrow(spaceId);
    const { session, db, events } = this.ctx;
    const client = session.server;
    if (client && session.reachable && space.remoteId && space.syncState === 'remote') {
      try {
        const remote = await client.listAll<RemoteChangeRequest>(`/v1/spaces/${space.remoteId}/change-requests`);
        const before = JSON.stringify(await listChangeRequests(db, space.id));
        await db.transaction((tx) => mergeRemoteChangeRequests(tx, space.id, remote));
        // Only a real change is announced: windows re-list on it, which refreshes again.
        if (JSON.stringify(await listChangeRequests(db, space.id)) !== before) events.emit('changeRequests', space.id);
      } catch (err) {
        if (err instanceof UnreachableError) session.setReachable(false);
      }
    }
    return this.list(spaceId);
  }

  /**
   * Opens a change request at once, offline too: its branch starts as a copy of main as it
   * is here; the server learns of it through the outbox and its branch then syncs.
   */
  async create(spaceId: string, subject: string): Promise<ChangeRequestSummary> {
    const space = await this.ctx.catalog.spaceOrThrow(spaceId);
    const { db } = this.ctx;
    const id = newId();
    await this.ctx.branches.with({ spaceId }, async (main) => {
      await main.saved();
      const state = Y.encodeStateAsUpdate(main.doc);
      const stateVector = Y.encodeStateVector(main.doc);
      const seq = await docLastSeq(db, docIdOf({ spaceId }));
      await db.transaction(async (tx) => {
        await insertChangeRequest(tx, {
          id,
          spaceId,
          subject,
          syncState: space.syncState === 'local' ? 'local' : 'pending',
          baseMainSeq: seq,
          baseStateVector: stateVector,
          baseState: state,
          createdBy: this.ctx.session.user,
        });
        await appendDocUpdateIn(tx, docIdOf({ spaceId, changeRequestId: id }), state, true);
        if (space.syncState !== 'local') {
          await enqueue(tx, 'changeRequest.create', { changeRequestId: id, spaceId, subject }, `Open change request “${subject}”`);
        }
      });
    });
    this.ctx.queue.afterEnqueue();
    this.ctx.events.emit('changeRequests', spaceId);
    return this.summaryOf(id);
  }

  async rename(changeRequestId: string, subject: string): Promise<ChangeRequestSummary> {
    const cr = await this.orThrow(changeRequestId);
    await this.ctx.db.transaction(async (tx) => {
      await updateChangeRequestLocal(tx, cr.id, { subject });
      if (cr.syncState !== 'local') {
        await enqueue(tx, 'changeRequest.update', { changeRequestId: cr.id, subject }, `Rename change request to “${subject}”`);
      }
    });
    this.ctx.queue.afterEnqueue();
    this.ctx.events.emit('changeRequests', cr.spaceId);
    return this.summaryOf(cr.id);
  }

  /**
   * Merges a change request. A local space merges here and now; a space on a server asks
   * the server (queued when offline, waited for when online), which is where merge rules
   * and permissions are decided: main changes when the server's merged main syncs back.
   */
  async merge(changeRequestId: string): Promise<ChangeRequestSummary> {
    const cr = await this.orThrow(changeRequestId);
    if (cr.mergeState !== 'none') throw new LocalError(cr.mergeState === 'merged' ? 'Already merged.' : 'The merge is already queued.');
    if (cr.syncState === 'local') {
      await this.mergeLocally(cr);
    } else {
      await this.ctx.db.transaction(async (tx) => {
        await updateChangeRequestLocal(tx, cr.id, { mergeState: 'queued' });
        await enqueue(tx, 'changeRequest.merge', { changeRequestId: cr.id }, `Merge change request “${cr.subject}”`);
      });
      this.ctx.queue.afterEnqueue();
      // Online the server merges now: the answer then says merged (or, refused, not), never
      // a "queued" that the window would show beside a toast of its own.
      if (this.ctx.session.server && this.ctx.session.reachable) await this.ctx.outbox.kick();
    }
    this.ctx.events.emit('changeRequests', cr.spaceId);
    return this.summaryOf(cr.id);
  }

  private async mergeLocally(cr: ChangeRequestRow) {
    const { branches } = this.ctx;
    await branches.with({ spaceId: cr.spaceId }, (main) =>
      branches.with({ spaceId: cr.spaceId, changeRequestId: cr.id }, async (branch) => {
        const update = cr.baseStateVector ? Y.encodeStateAsUpdate(branch.doc, cr.baseStateVector) : Y.encodeStateAsUpdate(branch.doc);
        Y.applyUpdate(main.doc, update, 'merge');
        await main.saved();
      }),
    );
    await updateChangeRequestLocal(this.ctx.db, cr.id, { mergeState: 'merged', status: 'merged' });
  }

  /** Takes main's changes into the change request (here at once; the server is told too). */
  async updateFromMain(changeRequestId: string): Promise<ChangeRequestSummary> {
    const cr = await this.orThrow(changeRequestId);
    if (cr.mergeState === 'merged') throw new LocalError('This change request is already merged.');
    const { branches, db } = this.ctx;
    const mainRef = { spaceId: cr.spaceId };
    await branches.with(mainRef, (main) =>
      branches.with({ spaceId: cr.spaceId, changeRequestId: cr.id }, async (branch) => {
        await main.saved();
        Y.applyUpdate(branch.doc, Y.encodeStateAsUpdate(main.doc, Y.encodeStateVector(branch.doc)), 'update-from-main');
        await branch.saved();
        const seq = await docLastSeq(db, docIdOf(mainRef));
        await db.transaction(async (tx) => {
          await updateChangeRequestLocal(tx, cr.id, { outdated: false, baseMainSeq: seq, baseStateVector: Y.encodeStateVector(main.doc) });
          await addChangeRequestBase(tx, cr.id, Y.encodeStateAsUpdate(main.doc), cr.remoteBaseRevision);
          if (cr.syncState !== 'local') {
            await enqueue(tx, 'changeRequest.updateFromMain', { changeRequestId: cr.id }, `Update “${cr.subject}” from main`);
          }
        });
      }),
    );
    this.ctx.queue.afterEnqueue();
    this.ctx.events.emit('changeRequests', cr.spaceId);
    return this.summaryOf(cr.id);
  }

  /**
   * Main as the change request took it in (forked, or last updated from main): what its
   * changes are drawn against. The server's word on it is fetched when it names a revision
   * this machine does not hold yet (the change request was opened elsewhere, or updated from
   * main there); offline, what is here. Null when nothing is known here yet.
   */
  async base(changeRequestId: string): Promise<ChangeRequestBase> {
    let cr = await this.orThrow(changeRequestId);
    const revision = cr.remoteBaseRevision;
    if (revision && revision !== cr.baseRevision) {
      const state = await this.fetchRevisionState(cr.spaceId, revision);
      if (state) {
        await this.ctx.db.transaction(async (tx) => addChangeRequestBase(tx, cr.id, state, revision));
        cr = await this.orThrow(changeRequestId);
      }
    }
    return { state: cr.baseState ? Buffer.from(cr.baseState).toString('base64') : null };
  }

  private async fetchRevisionState(spaceId: string, revisionId: string): Promise<Uint8Array | undefined> {
    const space = await this.ctx.catalog.spaceOrThrow(spaceId);
    const { session } = this.ctx;
    const client = session.server;
    if (!client || session.reachable === false || !space.remoteId) return undefined;
    try {
      const res = await client.get<{ state: string }>(
        `/v1/spaces/${encodeURIComponent(space.remoteId)}/revisions/${encodeURIComponent(revisionId)}/state`,
      );
      return new Uint8Array(Buffer.from(res.state, 'base64'));
    } catch (err) {
      if (err instanceof UnreachableError) session.setReachable(false);
      else if (!(err instanceof RemoteError)) throw err;
      return undefined;
    }
  }

  /** What the change request changes, drawn against where it started: pages added, removed, edited. */
  async diff(changeRequestId: string): Promise<ChangeRequestDiff> {
    const cr = await this.orThrow(changeRequestId);
    const { state } = await this.base(cr.id);
    const base = new Y.Doc();
    if (state) Y.applyUpdate(base, Buffer.from(state, 'base64'));
    try {
      return await this.ctx.branches.with({ spaceId: cr.spaceId, changeRequestId: cr.id }, (branch) => diffBranches(base, branch.doc));
    } finally {
      base.destroy();
    }
  }
}
