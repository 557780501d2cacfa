import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { type BranchRef, type IpcOutput, branchKey } from '../../common/ipc';
import { bridge } from '../bridge';
import { onBackendBack } from '../bridge/backend';
import type { BranchView } from '../../common/branchView';
import { applyState, stateVectorOf } from '../../common/docState';
import { fromBase64, toBase64 } from './base64';

/**
 * Decoding costs roughly 0.4 ms a kilobyte (about 210 ms for a 1,000-page space): a state
 * shorter than this (base64 characters, about 48 KB) decodes within a frame or so, and the
 * window goes straight to the live editor rather than drawing the saved view first.
 */
const DRAW_VIEW_ABOVE = 64 * 1024;

/** How long a state asked for ahead (`prefetch`) waits to be taken by `open`. */
const PREFETCH_KEPT_MS = 5000;

interface Started {
  replica: BranchReplica;
  /** Updates that arrived before the state. */
  early: Uint8Array[];
  answer: Promise<IpcOutput<'doc.open'>>;
}

/** Branches this window has open or is opening: never asked for twice. */
const inUse = new Set<string>();
/** States asked for ahead, by branch key, until `open` takes them. */
const ahead = new Map<string, { started: Started; expires: ReturnType<typeof setTimeout> }>();

/** Resolves once the browser has painted what was rendered before the call. */
const afterNextPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** Origin of changes that came from the LocalNode: they are not sent back. */
export const REMOTE = Symbol('remote');

export type SaveState = 'saved' | 'saving' | 'error';

/**
 * The window's copy of one branch. The editor and the page tree edit this Y.Doc; every
 * change goes to the LocalNode, which answers once it is on disk, so "Saved" on screen
 * means saved. Changes from elsewhere (other windows, the server) come back as events.
 */
export class BranchReplica {
  readonly doc = new Y.Doc();
  readonly awareness = new Awareness(this.doc);
  readonly key: string;
  private inFlight = 0;
  private failed?: string;
  private readonly offs: (() => void)[] = [];
  private readonly saveListeners = new Set<() => void>();
  private closed = false;
  /** The window drew the branch's saved view before decoding its state. */
  openedFromView = false;
  /** The state is applied: updates from the LocalNode go straight into the doc. */
  private loaded = false;

  private constructor(readonly ref: BranchRef) {
    this.key = branchKey(ref);
  }

  /**
   * Registers for the branch's updates, then asks for its state: an update that arrives
   * while the state is on its way is applied after it, harmlessly.
   */
  private static start(ref: BranchRef): Started {
    const replica = new BranchReplica(ref);
    inUse.add(replica.key);
    const early: Uint8Array[] = [];
    replica.offs.push(
      bridge.on('doc.update', ({ branch, update }) => {
        if (branch !== replica.key) return;
        if (replica.loaded) Y.applyUpdate(replica.doc, fromBase64(update), REMOTE);
        else early.push(fromBase64(update));
      }),
      bridge.on('awareness.update', ({ branch, update }) => {
        if (branch === replica.key && replica.loaded) applyAwarenessUpdate(replica.awareness, fromBase64(update), REMOTE);
      }),
    );
    return { replica, early, answer: bridge.invoke('doc.open', { branch: ref }) };
  }

  /**
   * Asks for a branch's state at once, from the click that opens it, so the LocalNode reads
   * it while the window renders that click; `open` takes the answer over. Nothing is asked
   * for a branch this window already has (or is opening), and an answer nobody takes is
   * closed after a while.
   */
  static prefetch(ref: BranchRef): void {
    const key = branchKey(ref);
    if (inUse.has(key)) return;
    const started = BranchReplica.start(ref);
    const expires = setTimeout(() => {
      if (ahead.get(key)?.started !== started) return;
      ahead.delete(key);
      void started.answer.catch(() => {}).finally(() => started.replica.close());
    }, PREFETCH_KEPT_MS);
    started.answer.catch(() => {});
    ahead.set(key, { started, expires });
  }

  /**
   * `onView` gets what the LocalNode saved to draw before the state is decoded (a large
   * space takes a few hundred milliseconds to decode): the state is then decoded only
   * after the next frame, once that view is on screen.
   */
  static async open(ref: BranchRef, onView?: (view: BranchView) => void): Promise<BranchReplica> {
    const key = branchKey(ref);
    const taken = ahead.get(key);
    ahead.delete(key);
    if (taken) clearTimeout(taken.expires);
    const { replica, early, answer } = taken?.started ?? BranchReplica.start(ref);
    let opened: IpcOutput<'doc.open'>;
    try {
      opened = await answer;
    } catch (err) {
      await replica.close();
      throw err;
    }
    const { state, format, awareness, view } = opened;
    if (view && onView && state.length >= DRAW_VIEW_ABOVE) {
      onView(JSON.parse(view) as BranchView);
      replica.openedFromView = true;
      await afterNextPaint();
    }
    applyState(replica.doc, fromBase64(state), format, REMOTE);
    for (const u of early) Y.applyUpdate(replica.doc, u, REMOTE);
    applyAwarenessUpdate(replica.awareness, fromBase64(awareness), REMOTE);
    replica.loaded = true;
    replica.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== REMOTE) replica.send(update);
    });
    replica.offs.push(onBackendBack(() => void replica.reattach()));
    replica.awareness.on(
      'update',
      ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
        if (origin === REMOTE || replica.closed) return;
        const changed = [...added, ...updated, ...removed];
        void bridge
          .invoke('awareness.update', { branch: ref, update: toBase64(encodeAwarenessUpdate(replica.awareness, changed)) })
          .catch(() => {});
      },
    );
    return replica;
  }

  /**
   * The LocalNode came back (restarted, or the socket reconnected) without this window's
   * branch open: open it again, take what it has, and send what only this window has, such
   * as what was typed while it was gone. Y.js makes the exchange exact in both directions.
   */
  private async reattach() {
    if (this.closed) return;
    try {
      const { state, format } = await bridge.invoke('doc.open', { branch: this.ref });
      const theirs = fromBase64(state);
      applyState(this.doc, theirs, format, REMOTE);
      const missing = Y.encodeStateAsUpdate(this.doc, stateVectorOf(theirs, format));
      this.failed = undefined;
      // An empty update is two zero bytes: nothing to send.
      if (missing.length > 2) this.send(missing);
      else this.notify();
    } catch (err) {
      this.failed = (err as Error).message;
      this.notify();
    }
  }

  private send(update: Uint8Array) {
    this.inFlight++;
    this.notify();
    bridge
      .invoke('doc.update', { branch: this.ref, update: toBase64(update) })
      .then(() => {
        this.failed = undefined;
      })
      .catch((err: Error) => {
        this.failed = err.message;
      })
      .finally(() => {
        this.inFlight--;
        this.notify();
      });
  }

  get saveState(): SaveState {
    if (this.failed) return 'error';
    return this.inFlight > 0 ? 'saving' : 'saved';
  }

  get saveError(): string | undefined {
    return this.failed;
  }

  onSaveState(listener: () => void): () => void {
    this.saveListeners.add(listener);
    return () => this.saveListeners.delete(listener);
  }

  private notify() {
    for (const l of this.saveListeners) l();
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    inUse.delete(this.key);
    this.awareness.setLocalState(null);
    for (const off of this.offs) off();
    this.awareness.destroy();
    await bridge.invoke('doc.close', { branch: this.ref }).catch(() => {});
    this.doc.destroy();
  }
}
