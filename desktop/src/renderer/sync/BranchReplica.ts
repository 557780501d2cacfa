import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { type BranchRef, branchKey } from '../../common/ipc';
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

  private constructor(readonly ref: BranchRef) {
    this.key = branchKey(ref);
  }

  /**
   * `onView` gets what the LocalNode saved to draw before the state is decoded (a large
   * space takes a few hundred milliseconds to decode): the state is then decoded only
   * after the next frame, once that view is on screen.
   */
  static async open(ref: BranchRef, onView?: (view: BranchView) => void): Promise<BranchReplica> {
    const replica = new BranchReplica(ref);
    // Listen first: an update that arrives while the state is on its way is applied after it, harmlessly.
    const early: Uint8Array[] = [];
    let loaded = false;
    replica.offs.push(
      bridge.on('doc.update', ({ branch, update }) => {
        if (branch !== replica.key) return;
        if (loaded) Y.applyUpdate(replica.doc, fromBase64(update), REMOTE);
        else early.push(fromBase64(update));
      }),
      bridge.on('awareness.update', ({ branch, update }) => {
        if (branch === replica.key && loaded) applyAwarenessUpdate(replica.awareness, fromBase64(update), REMOTE);
      }),
    );
    const { state, format, awareness, view } = await bridge.invoke('doc.open', { branch: ref });
    if (view && onView && state.length >= DRAW_VIEW_ABOVE) {
      onView(JSON.parse(view) as BranchView);
      replica.openedFromView = true;
      await afterNextPaint();
    }
    applyState(replica.doc, fromBase64(state), format, REMOTE);
    for (const u of early) Y.applyUpdate(replica.doc, u, REMOTE);
    applyAwarenessUpdate(replica.awareness, fromBase64(awareness), REMOTE);
    loaded = true;
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
    this.closed = true;
    this.awareness.setLocalState(null);
    for (const off of this.offs) off();
    this.awareness.destroy();
    await bridge.invoke('doc.close', { branch: this.ref }).catch(() => {});
    this.doc.destroy();
  }
}
