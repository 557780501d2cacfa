import { requestReviewer, reviewPanel, submitReview, withdrawReviewer } from './reviews';
import { encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import type { z } from 'zod';
import {
  type BranchRef,
  type BridgeErrorBody,
  type IpcChannel,
  type IpcContract,
  type IpcEventName,
  type IpcEventPayload,
  type IpcOutput,
  branchKey,
  describeZodError,
  ipcContract,
} from '../common/ipc';
import type { BranchDoc } from './BranchDoc';
import { LocalError, type LocalNode } from './LocalNode';

type Parsed<C extends IpcChannel> = z.output<IpcContract[C]['input']>;
type Handlers = { [C in IpcChannel]: (input: Parsed<C>) => Promise<IpcOutput<C>> };

export type InvokeResult = { ok: true; output: unknown } | { ok: false; error: BridgeErrorBody };

/** An awareness update with nobody in it: a branch just read from disk has no cursors yet. */
const NO_CURSORS = 'AA==';

/**
 * How long a branch answered from disk may wait before the node loads it for itself when the
 * window asks nothing of it. Until the window needs it (an edit, its cursor: right after its
 * editor is bound), decoding it here would only compete for the CPU with the window decoding
 * the same state.
 */
const LOAD_UNNEEDED_AFTER_MS = 1000;

/** This window's hold on a branch: loaded at once, or only when first needed. */
interface Hold {
  /** The branch, loading it now if it was waiting. */
  get(): Promise<BranchDoc>;
  /** Stops a load that has not started; the load that had, for the caller to release. */
  cancel(): Promise<BranchDoc> | undefined;
}

function heldNow(branch: Promise<BranchDoc>): Hold {
  return { get: () => branch, cancel: () => branch };
}

function heldWhenNeeded(load: () => Promise<BranchDoc>, afterMs: number): Hold {
  let loading: Promise<BranchDoc> | undefined;
  const get = () => {
    clearTimeout(timer);
    loading ??= load();
    return loading;
  };
  const timer = setTimeout(() => void get().catch(() => {}), afterMs);
  timer.unref?.();
  return {
    get,
    cancel: () => {
      clearTimeout(timer);
      return loading;
    },
  };
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
const fromB64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

/**
 * One window's conversation with the LocalNode, whatever carries it (Electron IPC or the
 * browser mode's WebSocket). Every input is validated against the contract here, before
 * any handler runs; the branches the window opened and the cursors it published are
 * released when it goes away.
 */
export class IpcSession {
  private readonly openBranches = new Map<string, BranchRef>();
  /** This window's hold on each branch it opened (loading, or loaded). */
  private readonly held = new Map<string, Hold>();
  /** Awareness client ids this window published, per branch: removed when it closes. */
  private readonly clientIds = new Map<string, Set<number>>();
  private readonly unsubscribe: (() => void)[] = [];
  private closed = false;
  private readonly handlers: Handlers;

  constructor(
    private readonly node: LocalNode,
    private readonly send: <E extends IpcEventName>(event: E, payload: IpcEventPayload<E>) => void,
  ) {
    this.handlers = this.createHandlers();
    const on = <A extends unknown[]>(event: string, fn: (...args: A) => void) => {
      const listener = fn as (...args: unknown[]) => void;
      (node as unknown as NodeJS.EventEmitter).on(event, listener);
      this.unsubscribe.push(() => (node as unknown as NodeJS.EventEmitter).off(event, listener));
    };
    on('docUpdate', (key: string, update: Uint8Array, origin: unknown) => {
      if (origin !== this && this.openBranches.has(key)) this.emit('doc.update', { branch: key, update: b64(update) });
    });
    on('awareness', (key: string, update: Uint8Array, origin: unknown, ids: number[]) => {
      if (!this.openBranches.has(key)) return;
      if (origin === this) {
        const mine = this.clientIds.get(key) ?? new Set<number>();
        for (const id of ids) mine.add(id);
        this.clientIds.set(key, mine);
        return;
      }
      this.emit('awareness.update', { branch: key, update: b64(update) });
    });
    on('status', (status) => this.emit('status', status as IpcEventPayload<'status'>));
    on('catalog', () => this.emit('catalog.changed', {}));
    on('changeRequests', (spaceId: string) => this.emit('changeRequests.changed', { spaceId }));
    on('comments', (branch: string) => this.emit('comments.changed', { branch }));
    on('outbox', () => this.emit('outbox.changed', {}));
    on('notice', (notice) => this.emit('notice', notice as IpcEventPayload<'notice'>));
  }

  private emit<E extends IpcEventName>(event: E, payload: IpcEventPayload<E>) {
    if (!this.closed) this.send(event, payload);
  }

  /** Validates and runs one request; never throws (errors come back as data). */
  async invoke(channel: unknown, input: unknown): Promise<InvokeResult> {
    if (typeof channel !== 'string' || !Object.hasOwn(ipcContract, channel)) {
      return { ok: false, error: { code: 'unknown-channel', message: `Unknown channel ${String(channel).slice(0, 80)}.` } };
    }
    const spec = ipcContract[channel as IpcChannel];
    const parsed = spec.input.safeParse(input ?? {});
    if (!parsed.success) return { ok: false, error: { code: 'invalid-input', message: describeZodError(parsed.error) } };
    try {
      const handler = this.handlers[channel as IpcChannel] as (input: unknown) => Promise<unknown>;
      return { ok: true, output: await handler(parsed.data) };
    } catch (err) {
      if (err instanceof LocalError) return { ok: false, error: { code: 'failed', message: err.message } };
      console.error(`[quire] ${channel} failed`, err);
      return { ok: false, error: { code: 'failed', message: `Something went wrong: ${(err as Error).message}` } };
    }
  }

  private async branchOf(ref: BranchRef) {
    const key = branchKey(ref);
    const held = this.held.get(key);
    if (!held || !this.openBranches.has(key)) throw new LocalError('Open the branch first.');
    const branch = await held.get().catch((err: Error) => {
      throw new LocalError(`The branch could not be loaded: ${err.message}`);
    });
    if (this.node.openBranch(ref) !== branch) throw new LocalError('The branch was closed.');
    return branch;
  }

  /** The branch's whole state and cursors, for a window opening it. */
  private async openDoc(ref: BranchRef) {
    const key = branchKey(ref);
    if (this.held.has(key)) return this.stateOf(await this.branchOf(ref));
    // Registered first: every change from here on reaches this window, whatever it is sent.
    this.openBranches.set(key, ref);
    try {
      const saved = await this.node.savedBranchState(ref);
      if (saved !== undefined) {
        this.held.set(
          key,
          heldWhenNeeded(() => this.node.acquireBranch(ref), LOAD_UNNEEDED_AFTER_MS),
        );
        // The view was written as JSON for this: it is passed on, not parsed here.
        const format = saved.v2 ? ('v2' as const) : ('v1' as const);
        return { state: saved.state, format, awareness: NO_CURSORS, ...(saved.view ? { view: saved.view } : {}) };
      }
      const held = this.node.acquireBranch(ref);
      this.held.set(key, heldNow(held));
      return this.stateOf(await held);
    } catch (err) {
      this.openBranches.delete(key);
      this.held.delete(key);
      throw err;
    }
  }

  private stateOf(branch: BranchDoc) {
    const states = [...branch.awareness.getStates().keys()];
    return {
      state: b64(Y.encodeStateAsUpdateV2(branch.doc)),
      format: 'v2' as const,
      awareness: b64(encodeAwarenessUpdate(branch.awareness, states)),
    };
  }

  private createHandlers(): Handlers {
    const node = this.node;
    return {
      'session.get': () => node.session(),
      'session.connect': ({ url, token }) => node.connect(url, token),
      'session.useLocal': () => node.useLocal(),
      'session.signOut': () => node.signOut(),
      'sync.status': () => node.status(),
      'sync.setWorkOffline': ({ offline }) => node.setWorkOffline(offline),
      'catalog.get': () => node.catalog(),
      'catalog.refresh': () => node.refreshCatalog(),
      'spaces.create': (input) => node.createSpace(input),
      'spaces.rename': (input) => node.renameSpace(input),
      'spaces.publish': ({ spaceId, organizationId }) => node.publishSpace(spaceId, organizationId),
      'doc.open': ({ branch: ref }) => this.openDoc(ref),
      'doc.update': async ({ branch: ref, update }) => {
        const branch = await this.branchOf(ref);
        try {
          await branch.applyFromSession(fromB64(update), this);
        } catch (err) {
          throw new LocalError(`The edit could not be saved: ${(err as Error).message}`);
        }
        return { saved: true as const };
      },
      'doc.close': async ({ branch: ref }) => {
        await this.closeBranch(ref);
        return {};
      },
      'awareness.update': async ({ branch: ref, update }) => {
        const branch = await this.branchOf(ref);
        try {
          branch.applyAwarenessFromSession(fromB64(update), this);
        } catch {
          throw new LocalError('Malformed awareness update.');
        }
        return {};
      },
      'search.space': ({ branch, query }) => node.search(branch, query),
      'pages.computed': ({ branch, pageId }) => node.computedPage(branch, pageId),
      'pages.pdf': ({ branch, pageId }) => node.pdfLink(branch, pageId),
      'files.put': async ({ branch, name, contentType, data, width, height }) => {
        const file = await node.putFile(branch, {
          name,
          contentType,
          bytes: new Uint8Array(Buffer.from(data, 'base64')),
          dimensions: width && height ? { width, height } : undefined,
        });
        return { id: file.id, name: file.name, contentType: file.contentType, size: file.size, src: file.src };
      },
      'files.read': async ({ branch, fileId }) => {
        const file = await node.readFile(branch, fileId);
        return file && { contentType: file.contentType, data: Buffer.from(file.bytes).toString('base64') };
      },
      'files.migratePage': async ({ branch, pageId }) => ({ moved: await node.migratePageImages(branch, pageId) }),
      'history.list': ({ branch, pageId }) => node.pageHistory(branch, pageId),
      'history.page': ({ branch, pageId, revisionId }) => node.pageAtRevision(branch, pageId, revisionId),
      'history.restore': async ({ branch, pageId, revisionId }) => {
        await node.restorePageRevision(branch, pageId, revisionId);
        return {};
      },
      'changeRequests.list': ({ spaceId }) => node.refreshChangeRequests(spaceId),
      'changeRequests.create': ({ spaceId, subject }) => node.createChangeRequest(spaceId, subject),
      'changeRequests.rename': ({ changeRequestId, subject }) => node.renameChangeRequest(changeRequestId, subject),
      'changeRequests.merge': ({ changeRequestId }) => node.mergeChangeRequest(changeRequestId),
      'changeRequests.updateFromMain': ({ changeRequestId }) => node.updateChangeRequestFromMain(changeRequestId),
      'changeRequests.diff': ({ changeRequestId }) => node.diffChangeRequest(changeRequestId),
      'changeRequests.base': ({ changeRequestId }) => node.changeRequestBase(changeRequestId),
      'reviews.get': ({ changeRequestId }) => reviewPanel(node, changeRequestId),
      'reviews.submit': ({ changeRequestId, status, comment }) => submitReview(node, changeRequestId, status, comment?.trim() || undefined),
      'reviews.request': ({ changeRequestId, userId }) => requestReviewer(node, changeRequestId, userId),
      'reviews.withdraw': ({ changeRequestId, userId }) => withdrawReviewer(node, changeRequestId, userId),
      'comments.list': async ({ branch, pageId }) => {
        void node.refreshComments(branch).catch(() => {});
        return node.listComments(branch, pageId);
      },
      'comments.create': ({ branch, pageId, markdown, anchor }) => node.postComment(branch, pageId, markdown, anchor),
      'comments.reply': ({ commentId, markdown }) => node.reply(commentId, markdown),
      'comments.react': (input) => node.react(input),
      'comments.resolve': ({ commentId, resolved }) => node.resolve(commentId, resolved),
      'outbox.list': () => node.outboxEntries(),
      'outbox.retry': ({ seq }) => node.retryOutbox(seq),
      'outbox.discard': ({ seq }) => node.discardOutbox(seq),
      'backend.ping': async () => ({}),
    };
  }

  private async closeBranch(ref: BranchRef) {
    const key = branchKey(ref);
    if (!this.openBranches.has(key)) return;
    this.openBranches.delete(key);
    const held = this.held.get(key);
    this.held.delete(key);
    const ids = this.clientIds.get(key);
    this.clientIds.delete(key);
    // A hold still loading is released once loaded; one not started never loads; one that failed holds nothing.
    const branch = await held?.cancel()?.catch(() => undefined);
    if (!branch) return;
    if (ids) branch.forgetClients([...ids]);
    await this.node.releaseBranch(ref);
  }

  /** The window went away: its cursors vanish for others, its branches are released. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const ref of [...this.openBranches.values()]) await this.closeBranch(ref);
    this.closed = true;
    for (const off of this.unsubscribe) off();
  }
}
