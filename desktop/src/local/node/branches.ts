import { changeRequestRoom, spaceRoom } from '@quire/shared/sync';
import type { BranchRef, ComputedPageView, SearchHit } from '../../common/ipc';
import { branchKey } from '../../common/ipc';
import { BranchDoc } from '../BranchDoc';
import { fetchComputedPage, fetchPdfLink } from '../computedPages';
import { searchBranch } from '../content';
import { getSpace } from '../store/catalog';
import { getChangeRequest } from '../store/changeRequests';
import { loadDocStateBase64, type SavedState, unsentCount } from '../store/docs';
import { LocalError, type NodeContext, docIdOf, type BranchesPart } from './context';

const PUSH_RETRY_FIRST_MS = 1000;
const PUSH_RETRY_MAX_MS = 30_000;

interface OpenBranch {
  ref: BranchRef;
  branch: BranchDoc;
  users: number;
}

/**
 * The branches open in memory (a space's main or a change request, one Y.Doc each),
 * shared by every window and by background work, and their sync with the server's rooms.
 */
export class Branches implements BranchesPart {
  private readonly open = new Map<string, OpenBranch>();
  private readonly opening = new Map<string, Promise<OpenBranch>>();
  /** Branches saving their last edits on close: opened again only after, from what they saved. */
  private readonly closing = new Map<string, Promise<void>>();
  private pushing?: Promise<void>;
  private pushAgain = false;
  /** A push that failed (timed out, refused for now) is tried again, less often each time. */
  private pushRetry?: NodeJS.Timeout;
  private pushRetryMs = PUSH_RETRY_FIRST_MS;

  constructor(private readonly ctx: NodeContext) {}

  /** Opens a branch for a user of it (a window, a diff); pair with `release`. */
  async acquire(ref: BranchRef): Promise<BranchDoc> {
    const key = branchKey(ref);
    let open = this.open.get(key);
    if (!open) {
      let pending = this.opening.get(key);
      if (!pending) {
        pending = this.afterClosing(key).then(() => this.open.get(key) ?? this.load(ref));
        this.opening.set(key, pending);
      }
      try {
        open = await pending;
      } finally {
        this.opening.delete(key);
      }
    }
    open.users++;
    return open.branch;
  }

  /** One user fewer; the branch closes (after saving) when nobody uses it. */
  async release(ref: BranchRef, opts: { pushing?: boolean } = {}): Promise<void> {
    const key = branchKey(ref);
    const open = this.open.get(key);
    if (!open) return;
    open.users--;
    if (open.users > 0) return;
    this.open.delete(key);
    const closing = open.branch.close().finally(() => this.closing.delete(key));
    this.closing.set(key, closing);
    await closing;
    this.ctx.session.scheduleStatus();
    // Edits made just before the close (or by a brief open, like updating from main) may not
    // be confirmed yet: they are sent now, not at the next reconnect. A push under way may
    // have looked for waiting branches before these edits: it looks again. The push's own
    // releases do not ask: a branch it could not send is tried again after a pause.
    if (!opts.pushing && this.ctx.session.reachable && !this.ctx.closed && (await unsentCount(this.ctx.db, docIdOf(ref))) > 0) {
      void this.pushWaiting().catch(() => {});
    }
  }

  private async afterClosing(key: string): Promise<void> {
    while (this.closing.has(key)) await this.closing.get(key);
  }

  private async check(ref: BranchRef): Promise<void> {
    await this.ctx.catalog.spaceOrThrow(ref.spaceId);
    if (ref.changeRequestId) {
      const cr = await getChangeRequest(this.ctx.db, ref.changeRequestId);
      if (!cr || cr.spaceId !== ref.spaceId) throw new LocalError('This change request is not on this machine.');
    }
  }

  /**
   * The saved state of a branch that is not in memory, as one base64 update read straight
   * from disk; undefined when it is (or is being) loaded, and the doc itself answers.
   * Decoding a large branch takes a while: a window shown this can draw before the node has
   * loaded the branch for itself.
   */
  async savedState(ref: BranchRef): Promise<SavedState | undefined> {
    const key = branchKey(ref);
    await this.afterClosing(key);
    if (this.open.has(key) || this.opening.has(key)) return undefined;
    await this.check(ref);
    return loadDocStateBase64(this.ctx.db, docIdOf(ref));
  }

  private async load(ref: BranchRef): Promise<OpenBranch> {
    await this.check(ref);
    const key = branchKey(ref);
    const branch = await BranchDoc.open(this.ctx.db, docIdOf(ref));
    const open: OpenBranch = { ref, branch, users: 0 };
    const { events, session } = this.ctx;
    branch.on('update', (update, origin) => events.emit('docUpdate', key, update, origin));
    branch.on('awareness', (update, origin, ids) => events.emit('awareness', key, update, origin, ids));
    branch.on('connection', (state) => {
      if (state === 'offline' && session.reachable) void session.probe();
      if (state === 'refused')
        events.emit('notice', { level: 'error', message: `The server refused to sync this branch: ${branch.refusal}` });
      session.scheduleStatus();
    });
    branch.on('saved', () => session.scheduleStatus());
    branch.on('error', (err) => events.emit('notice', { level: 'error', message: `Could not save an edit: ${err.message}` }));
    this.open.set(key, open);
    void this.ctx.files
      .settleUploads(branch)
      .catch((err: Error) => console.error(`[quire] could not point ${key} at its uploaded files: ${err.message}`));
    void this.connect(open).catch(() => {});
    return open;
  }

  /** The server room of a branch, once the server knows the space (and change request). */
  private async roomOf(ref: BranchRef): Promise<string | undefined> {
    const space = await getSpace(this.ctx.db, ref.spaceId);
    if (!space?.remoteId || space.syncState !== 'remote') return undefined;
    if (!ref.changeRequestId) return spaceRoom(space.remoteId);
    const cr = await getChangeRequest(this.ctx.db, ref.changeRequestId);
    if (!cr?.remoteId) return undefined;
    return changeRequestRoom(space.remoteId, cr.remoteId);
  }

  private async connect(open: OpenBranch) {
    const client = this.ctx.session.server;
    if (!client || !this.ctx.session.reachable) return;
    const room = await this.roomOf(open.ref);
    if (!room) return;
    // Nothing waits for uploads: a page refers to a file as `upload:<id>` until the server has its bytes.
    if (this.open.get(branchKey(open.ref)) === open && this.ctx.session.server === client) open.branch.connect(client, room);
  }

  /** Connects a branch that just learnt its room (its space or change request reached the server). */
  async reconnect(ref: BranchRef) {
    const open = this.open.get(branchKey(ref));
    if (open) await this.connect(open);
  }

  connectAll() {
    for (const open of this.open.values()) void this.connect(open).catch(() => {});
  }

  disconnectAll() {
    clearTimeout(this.pushRetry);
    for (const open of this.open.values()) open.branch.disconnect();
  }

  anyConnecting(): boolean {
    return [...this.open.values()].some((b) => b.branch.connection === 'connecting');
  }

  /**
   * Sends the edits of branches nobody has open: written before a crash, offline in a
   * space since closed, or a space just published. Each such branch is opened, synced
   * until the server confirms it, and closed again.
   */
  pushWaiting(): Promise<void> {
    if (this.pushing) {
      this.pushAgain = true;
      return this.pushing;
    }
    clearTimeout(this.pushRetry);
    this.pushing = (async () => {
      let failed = false;
      try {
        do {
          this.pushAgain = false;
          failed = !(await this.pushOnce());
        } while (this.pushAgain);
      } finally {
        this.pushing = undefined;
        this.ctx.session.scheduleStatus();
      }
      if (failed && !this.ctx.closed) {
        this.pushRetry = setTimeout(() => void this.pushWaiting().catch(() => {}), this.pushRetryMs);
        this.pushRetry.unref?.();
        this.pushRetryMs = Math.min(this.pushRetryMs * 2, PUSH_RETRY_MAX_MS);
      } else {
        this.pushRetryMs = PUSH_RETRY_FIRST_MS;
      }
    })();
    return this.pushing;
  }

  /**
   * One pass over the branches with unsent edits; false when one of them could not be
   * confirmed. Stops early when the server goes away: finding it again pushes again.
   */
  private async pushOnce(): Promise<boolean> {
    const rows = await this.ctx.db.query<{ space_id: string; cr_id: string | null }>(
      `SELECT s.id AS space_id, NULL AS cr_id FROM doc_heads h JOIN spaces s ON h.doc_id = 'space:' || s.id
        WHERE h.unsent > 0 AND s.sync_state = 'remote'
       UNION ALL
       SELECT c.space_id, c.id FROM doc_heads h JOIN change_requests c ON h.doc_id = 'cr:' || c.id
         JOIN spaces s ON s.id = c.space_id
        WHERE h.unsent > 0 AND s.sync_state = 'remote' AND c.remote_id IS NOT NULL AND c.merge_state <> 'merged'`,
    );
    let allSent = true;
    for (const row of rows) {
      const { session } = this.ctx;
      if (!session.server || !session.reachable || this.ctx.closed) return true;
      const ref: BranchRef = row.cr_id ? { spaceId: row.space_id, changeRequestId: row.cr_id } : { spaceId: row.space_id };
      try {
        const branch = await this.acquire(ref);
        try {
          await this.connect(this.open.get(branchKey(ref)) as OpenBranch);
          await branch.flushToServer(this.ctx.options.branchPushTimeoutMs ?? 15_000);
        } finally {
          await this.release(ref, { pushing: true });
        }
      } catch {
        allSent = false;
      }
    }
    return allSent;
  }

  /** Runs `fn` with a branch open, without keeping it open afterwards. */
  async with<T>(ref: BranchRef, fn: (branch: BranchDoc) => Promise<T> | T): Promise<T> {
    const branch = await this.acquire(ref);
    try {
      return await fn(branch);
    } finally {
      await this.release(ref);
    }
  }

  /** The branch if some window has it open (no loading). */
  get(ref: BranchRef): BranchDoc | undefined {
    return this.open.get(branchKey(ref))?.branch;
  }

  async search(ref: BranchRef, query: string): Promise<SearchHit[]> {
    return this.with(ref, (branch) => searchBranch(branch.doc, query));
  }

  /** What a computed page (`builtin:openapi`) shows, rendered by the server that holds its spec. */
  async computedPage(ref: BranchRef, pageId: string): Promise<ComputedPageView> {
    const space = await this.ctx.catalog.spaceOrThrow(ref.spaceId);
    const cr = ref.changeRequestId ? await this.ctx.changeRequests.orThrow(ref.changeRequestId) : undefined;
    return fetchComputedPage(this.ctx.session.server, space, cr, pageId);
  }

  /** A link to the branch's PDF (or one page's and those under it), made by the server; the reason when it cannot be. */
  async pdfLink(ref: BranchRef, pageId?: string): Promise<{ url: string | null; reason: string | null }> {
    const space = await this.ctx.catalog.spaceOrThrow(ref.spaceId);
    const cr = ref.changeRequestId ? await this.ctx.changeRequests.orThrow(ref.changeRequestId) : undefined;
    return fetchPdfLink(this.ctx.session.server, space, cr, pageId);
  }

  /** Waits for queued saves of every open branch. */
  async flush(): Promise<void> {
    await Promise.all([...this.open.values()].map((b) => b.branch.saved()));
  }

  async closeAll(): Promise<void> {
    clearTimeout(this.pushRetry);
    for (const open of this.open.values()) await open.branch.close();
    this.open.clear();
    await Promise.all(this.closing.values());
  }
}
