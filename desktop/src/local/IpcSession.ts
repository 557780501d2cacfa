import { encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import {
  type BranchRef,
  type BridgeErrorBody,
  type IpcChannel,
  type IpcEventName,
  type IpcEventPayload,
  type IpcOutput,
  branchKey,
  describeZodError,
  ipcContract,
} from '../common/ipc';
import type { BranchDoc } from './BranchDoc';
import { LocalError, type LocalNode } from './LocalNode';
import { type ChannelInput, type SessionChannel, partChannels } from './partChannels';

/** The channels this session answers itself; every other goes to a part of the node (`partChannels`). */
type Handlers = { [C in SessionChannel]: (input: ChannelInput<C>) => Promise<IpcOutput<C>> };

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
      const own = Object.hasOwn(this.handlers, channel);
      const output = own
        ? await (this.handlers[channel as SessionChannel] as (input: unknown) => Promise<unknown>)(parsed.data)
        : await (partChannels[channel as Exclude<IpcChannel, SessionChannel>] as (node: LocalNode, input: unknown) => Promise<unknown>)(
            this.node,
            parsed.data,
          );
      return { ok: true, output };
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
    if (this.node.branches.get(ref) !== branch) throw new LocalError('The branch was closed.');
    return branch;
  }

  /** The branch's whole state and cursors, for a window opening it. */
  private async openDoc(ref: BranchRef) {
    const key = branchKey(ref);
    if (this.held.has(key)) return this.stateOf(await this.branchOf(ref));
    // Registered first: every change from here on reaches this window, whatever it is sent.
    this.openBranches.set(key, ref);
    try {
      const saved = await this.node.branches.savedState(ref);
      if (saved !== undefined) {
        this.held.set(
          key,
          heldWhenNeeded(() => this.node.branches.acquire(ref), LOAD_UNNEEDED_AFTER_MS),
        );
        // The view was written as JSON for this: it is passed on, not parsed here.
        const format = saved.v2 ? ('v2' as const) : ('v1' as const);
        return { state: saved.state, format, awareness: NO_CURSORS, ...(saved.view ? { view: saved.view } : {}) };
      }
      const held = this.node.branches.acquire(ref);
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
    return {
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
    await this.node.branches.release(ref);
  }

  /** The window went away: its cursors vanish for others, its branches are released. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const ref of [...this.openBranches.values()]) await this.closeBranch(ref);
    this.closed = true;
    for (const off of this.unsubscribe) off();
  }
}
