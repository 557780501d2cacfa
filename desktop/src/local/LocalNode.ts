import { EventEmitter } from 'node:events';
import { userInfo } from 'node:os';
import { newId } from '@quire/shared/ids';
import { changeRequestRoom, spaceRoom } from '@quire/shared/sync';
import * as Y from 'yjs';
import type {
  BranchRef,
  Catalog,
  ChangeRequestDiff,
  ChangeRequestSummary,
  CommentView,
  ComputedPageView,
  OutboxEntryView,
  SearchHit,
  SessionState,
  SpaceSummary,
  SyncStatus,
  UserSummary,
} from '../common/ipc';
import { branchKey } from '../common/ipc';
import { BranchDoc } from './BranchDoc';
import { fetchComputedPage, fetchPdfLink } from './computedPages';
import { diffBranches, searchBranch, seedNewSpace } from './content';
import { type CredentialStore, MemoryCredentialStore } from './credentials';
import { Outbox } from './Outbox';
import { createPerformer } from './replay';
import { RemoteError, ServerClient, UnreachableError, normalizeServerUrl } from './ServerClient';
import {
  type SpaceRow,
  deleteMeta,
  getMeta,
  getSpace,
  insertLocalSpace,
  listCollections,
  listOrgs,
  listSpaces,
  replaceCatalog,
  setMeta,
  setSpacePublishing,
  updateSpaceLocal,
} from './store/catalog';
import {
  type ChangeRequestRow,
  type RemoteChangeRequest,
  getChangeRequest,
  insertChangeRequest,
  listChangeRequests,
  mergeRemoteChangeRequests,
  updateChangeRequestLocal,
} from './store/changeRequests';
import {
  type CommentRow,
  type RemoteComment,
  getComment,
  insertComment,
  listComments,
  mergeRemoteComments,
  setReactions,
  setResolved,
  toggleReaction,
} from './store/comments';
import { type LocalDb, openLocalDb } from './store/database';
import { appendDocUpdateIn, docLastSeq, unsentEdits } from './store/docs';
import { countByState, deleteEntry, enqueue, getEntry, openEntries, retryEntry } from './store/outbox';

export interface LocalNodeOptions {
  /** The user's data directory; undefined keeps everything in memory. */
  dataDir?: string;
  credentials?: CredentialStore;
  /** Sync and replay on their own when a server is reachable (default true). */
  autoSync?: boolean;
  /** How often to look for the server while it is unreachable. */
  probeIntervalMs?: number;
}

type Mode = 'none' | 'local' | 'server';

export interface Notice {
  level: 'info' | 'error';
  message: string;
}

interface NodeEvents {
  status: [SyncStatus];
  catalog: [];
  changeRequests: [spaceId: string];
  comments: [branch: string];
  outbox: [];
  notice: [Notice];
  /** A change to an open branch, for the windows showing it. */
  docUpdate: [branch: string, update: Uint8Array, origin: unknown];
  awareness: [branch: string, update: Uint8Array, origin: unknown, clientIds: number[]];
}

interface OpenBranch {
  ref: BranchRef;
  branch: BranchDoc;
  users: number;
}

/** Thrown for requests that cannot work (unknown id, wrong state): the message is for the user. */
export class LocalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalError';
  }
}

const LOCAL_USER: UserSummary = { id: 'local', displayName: safeUserName() };

function safeUserName(): string {
  try {
    const name = userInfo().username;
    return name ? name.charAt(0).toUpperCase() + name.slice(1) : 'You';
  } catch {
    return 'You';
  }
}

/**
 * The desktop's local-first core, in plain Node: the local database, the open branches
 * and their sync, the outbox of REST mutations, and the sync status. The Electron main
 * process and the browser-mode bridge both serve windows from one LocalNode; tests drive it
 * directly.
 */
export class LocalNode extends EventEmitter<NodeEvents> {
  private mode: Mode = 'none';
  private client?: ServerClient;
  private user: UserSummary = LOCAL_USER;
  private workOffline = false;
  private reachable: boolean | undefined;
  private unauthorized = false;
  private lastError?: string;
  private readonly branches = new Map<string, OpenBranch>();
  private readonly opening = new Map<string, Promise<OpenBranch>>();
  readonly outbox: Outbox;
  private probeTimer?: NodeJS.Timeout;
  private statusTimer?: NodeJS.Timeout;
  private closed = false;

  private constructor(
    readonly db: LocalDb,
    private readonly credentials: CredentialStore,
    private readonly options: LocalNodeOptions,
  ) {
    super();
    this.setMaxListeners(100);
    this.outbox = new Outbox(db, createPerformer(this));
    this.outbox.on('changed', () => {
      this.emit('outbox');
      this.scheduleStatus();
    });
    this.outbox.on('refused', (entry, message) => {
      this.emit('notice', { level: 'error', message: `The server refused “${entry.label}”: ${message}` });
    });
    this.outbox.on('unauthorized', (message) => {
      this.unauthorized = true;
      this.lastError = message;
      this.scheduleStatus();
    });
    this.outbox.on('unreachable', (message) => {
      this.lastError = message;
      this.setReachable(false);
    });
    this.outbox.on('reached', () => this.setReachable(true));
  }

  static async open(options: LocalNodeOptions = {}): Promise<LocalNode> {
    const db = await openLocalDb(options.dataDir);
    const node = new LocalNode(db, options.credentials ?? new MemoryCredentialStore(), options);
    await node.restore();
    return node;
  }

  private get autoSync() {
    return this.options.autoSync ?? true;
  }

  /** Picks up where the last run stopped: mode, server, user, offline choice. */
  private async restore() {
    this.mode = (await getMeta<Mode>(this.db, 'mode')) ?? 'none';
    this.workOffline = (await getMeta<boolean>(this.db, 'workOffline')) ?? false;
    if (this.mode === 'server') {
      const creds = await this.credentials.load();
      const user = await getMeta<UserSummary>(this.db, 'user');
      if (creds) {
        this.client = new ServerClient(creds.url, creds.token);
        if (user) this.user = user;
      } else {
        // The token is gone (another machine's keychain, signed out elsewhere): local until signed in again.
        this.unauthorized = true;
        this.lastError = 'Sign in again to sync with the server.';
      }
    }
    if (this.client && this.autoSync && !this.workOffline) void this.probe();
  }

  // ---------------------------------------------------------------- session

  async session(): Promise<SessionState> {
    return {
      mode: this.mode,
      server: this.client && this.mode === 'server' ? { url: this.client.baseUrl, user: this.user } : undefined,
      credentialsEncrypted: this.credentials.encrypted,
      user: this.user,
    };
  }

  /** Signs in: the token is checked against the server before anything is stored. */
  async connect(url: string, token: string): Promise<SessionState> {
    let normalized: string;
    try {
      normalized = normalizeServerUrl(url);
    } catch {
      throw new LocalError('The server address is not a valid URL.');
    }
    const client = new ServerClient(normalized, token.trim());
    let me: { id: string; displayName?: string; email?: string };
    try {
      me = await client.get('/v1/user');
    } catch (err) {
      if (err instanceof RemoteError && err.status === 401) throw new LocalError('The server refused this token.');
      if (err instanceof UnreachableError)
        throw new LocalError(`Cannot reach ${normalized} (${err.message}). Check the address, or work locally.`);
      throw new LocalError((err as Error).message);
    }
    await this.credentials.save({ url: normalized, token: token.trim() });
    this.client = client;
    this.user = { id: me.id, displayName: me.displayName || me.email || 'You', email: me.email };
    this.mode = 'server';
    this.unauthorized = false;
    this.lastError = undefined;
    await setMeta(this.db, 'mode', 'server');
    await setMeta(this.db, 'user', this.user);
    await setMeta(this.db, 'server', normalized);
    this.setReachable(true);
    await this.refreshCatalog().catch(() => {});
    return this.session();
  }

  /** Works with no server: spaces live on this machine until published. */
  async useLocal(): Promise<SessionState> {
    if (this.mode === 'none') {
      this.mode = 'local';
      await setMeta(this.db, 'mode', 'local');
    }
    this.scheduleStatus();
    return this.session();
  }

  /** Forgets the token; everything local stays, queued changes wait for the next sign-in. */
  async signOut(): Promise<SessionState> {
    await this.credentials.clear();
    this.client = undefined;
    this.outbox.stop();
    for (const open of this.branches.values()) open.branch.disconnect();
    this.mode = 'local';
    this.user = LOCAL_USER;
    await setMeta(this.db, 'mode', 'local');
    await deleteMeta(this.db, 'user');
    this.scheduleStatus();
    return this.session();
  }

  get currentUser(): UserSummary {
    return this.user;
  }

  /** The REST client while signed in and not working offline. */
  get server(): ServerClient | undefined {
    return this.mode === 'server' && !this.workOffline ? this.client : undefined;
  }

  // ---------------------------------------------------------------- connectivity

  /** "Work offline": stop talking to the server without signing out. */
  async setWorkOffline(offline: boolean): Promise<SyncStatus> {
    this.workOffline = offline;
    await setMeta(this.db, 'workOffline', offline);
    if (offline) {
      this.outbox.stop();
      clearTimeout(this.probeTimer);
      for (const open of this.branches.values()) open.branch.disconnect();
      this.reachable = false;
    } else {
      await this.probe();
    }
    this.scheduleStatus();
    return this.status();
  }

  /** Asks the server whether it is there; on success starts syncing and replaying. */
  async probe(): Promise<boolean> {
    clearTimeout(this.probeTimer);
    const client = this.server;
    if (!client || this.closed) return false;
    try {
      await client.request('GET', '/v1/user', { timeoutMs: 5000 });
      this.unauthorized = false;
      this.setReachable(true);
      return true;
    } catch (err) {
      if (err instanceof RemoteError && err.status === 401) {
        this.unauthorized = true;
        this.lastError = 'The server no longer accepts this token. Sign in again.';
      } else {
        this.lastError = (err as Error).message;
      }
      this.setReachable(false);
      return false;
    }
  }

  private setReachable(reachable: boolean) {
    const was = this.reachable;
    this.reachable = reachable;
    clearTimeout(this.probeTimer);
    if (reachable && this.server) {
      this.lastError = undefined;
      if (was !== true) {
        this.outbox.start();
        for (const open of this.branches.values()) void this.connectBranch(open);
        void this.refreshCatalog().catch(() => {});
        void this.pushWaitingBranches();
      }
    } else if (!reachable && this.server && !this.unauthorized && !this.closed) {
      this.outbox.stop();
      this.probeTimer = setTimeout(() => void this.probe(), this.options.probeIntervalMs ?? 3000);
      this.probeTimer.unref?.();
    }
    this.scheduleStatus();
  }

  async status(): Promise<SyncStatus> {
    const counts = await countByState(this.db);
    const unsent = this.mode === 'server' ? await unsentEdits(this.db) : 0;
    let connection: SyncStatus['connection'];
    if (this.mode !== 'server') connection = 'local';
    else if (this.unauthorized) connection = 'unauthorized';
    else if (this.workOffline || this.reachable === false) connection = 'offline';
    else if (this.reachable === undefined) connection = 'connecting';
    else {
      const states = [...this.branches.values()].map((b) => b.branch.connection);
      connection = states.some((s) => s === 'connecting') ? 'connecting' : 'online';
    }
    return {
      mode: this.mode,
      connection,
      workOffline: this.workOffline,
      pending: counts.pending + unsent,
      pendingMutations: counts.pending,
      unsentEdits: unsent,
      failed: counts.failed,
      lastError: this.lastError,
    };
  }

  /** Status changes come in bursts (a sync touches many rows): tell the windows once. */
  private scheduleStatus() {
    if (this.statusTimer || this.closed) return;
    this.statusTimer = setTimeout(async () => {
      this.statusTimer = undefined;
      if (this.closed) return;
      try {
        this.emit('status', await this.status());
      } catch {
        // closing
      }
    }, 30);
  }

  // ---------------------------------------------------------------- catalog

  async catalog(): Promise<Catalog> {
    const [orgs, collections, spaces] = await Promise.all([listOrgs(this.db), listCollections(this.db), listSpaces(this.db)]);
    const summary = (s: SpaceRow): SpaceSummary => ({
      id: s.id,
      title: s.title,
      emoji: s.emoji,
      organizationId: s.orgId,
      collectionId: s.collectionId,
      syncState: s.syncState,
    });
    const orgIds = new Set(orgs.map((o) => o.id));
    return {
      organizations: orgs.map((o) => ({
        id: o.id,
        title: o.title,
        collections: collections.filter((c) => c.orgId === o.id).map((c) => ({ id: c.id, title: c.title, parentId: c.parentId })),
        spaces: spaces.filter((s) => s.orgId === o.id && s.syncState !== 'local').map(summary),
      })),
      localSpaces: spaces.filter((s) => s.syncState === 'local' || !s.orgId || !orgIds.has(s.orgId)).map(summary),
    };
  }

  /** Fetches organizations, collections and spaces from the server into the local database. */
  async refreshCatalog(): Promise<Catalog> {
    const client = this.server;
    if (!client) return this.catalog();
    interface RemoteOrg {
      id: string;
      title: string;
    }
    interface RemoteCollection {
      id: string;
      title: string;
      parent?: string;
    }
    interface RemoteSpace {
      id: string;
      title: string;
      emoji?: string;
      parent?: string;
    }
    const orgs = await client.listAll<RemoteOrg>('/v1/orgs');
    const collections: { id: string; orgId: string; parentId: string | null; title: string }[] = [];
    const spaces: { id: string; orgId: string; collectionId: string | null; title: string; emoji: string | null }[] = [];
    for (const org of orgs) {
      const [cols, sps] = await Promise.all([
        client.listAll<RemoteCollection>(`/v1/orgs/${org.id}/collections`).catch(() => [] as RemoteCollection[]),
        client.listAll<RemoteSpace>(`/v1/orgs/${org.id}/spaces`).catch(() => [] as RemoteSpace[]),
      ]);
      for (const c of cols) collections.push({ id: c.id, orgId: org.id, parentId: c.parent ?? null, title: c.title });
      for (const s of sps) spaces.push({ id: s.id, orgId: org.id, collectionId: s.parent ?? null, title: s.title, emoji: s.emoji ?? null });
    }
    await this.db.transaction((tx) => replaceCatalog(tx, { orgs: orgs.map((o) => ({ id: o.id, title: o.title })), collections, spaces }));
    this.emit('catalog');
    return this.catalog();
  }

  // ---------------------------------------------------------------- spaces

  private async spaceOrThrow(spaceId: string): Promise<SpaceRow> {
    const space = await getSpace(this.db, spaceId);
    if (!space) throw new LocalError('This space is not on this machine.');
    return space;
  }

  private async spaceSummary(spaceId: string): Promise<SpaceSummary> {
    const s = await this.spaceOrThrow(spaceId);
    return { id: s.id, title: s.title, emoji: s.emoji, organizationId: s.orgId, collectionId: s.collectionId, syncState: s.syncState };
  }

  /**
   * Creates a space here and now, with a first page. With an organization it is also
   * queued for creation on the server (and syncs once created); without, it stays local
   * until published.
   */
  async createSpace(input: { title: string; emoji?: string; organizationId?: string }): Promise<SpaceSummary> {
    if (input.organizationId && this.mode !== 'server') throw new LocalError('Sign in to a server to create a space in an organization.');
    const id = newId();
    const seed = seedNewSpace(input.title);
    await this.db.transaction(async (tx) => {
      await insertLocalSpace(tx, { id, title: input.title, emoji: input.emoji ?? null, orgId: null, syncState: 'local' });
      // Counted as waiting: the first page is content the server does not have yet.
      await appendDocUpdateIn(tx, docIdOf({ spaceId: id }), seed, true);
    });
    if (input.organizationId) await this.publishSpace(id, input.organizationId);
    this.emit('catalog');
    return this.spaceSummary(id);
  }

  async renameSpace(input: { spaceId: string; title?: string; emoji?: string | null }): Promise<SpaceSummary> {
    const space = await this.spaceOrThrow(input.spaceId);
    await this.db.transaction(async (tx) => {
      await updateSpaceLocal(tx, space.id, { title: input.title, emoji: input.emoji });
      if (space.syncState !== 'local') {
        const body: Record<string, unknown> = {};
        if (input.title !== undefined) body.title = input.title;
        if (input.emoji !== undefined) body.emoji = input.emoji;
        await enqueue(tx, 'space.update', { spaceId: space.id, body }, `Rename space “${input.title ?? space.title}”`);
      }
    });
    this.afterEnqueue();
    this.emit('catalog');
    return this.spaceSummary(space.id);
  }

  /**
   * Publishes a local space to an organization on the server: creation is queued (exactly
   * once, by its idempotency key), then the branch pushes its whole state over sync, and
   * the comments and change requests made meanwhile follow in the outbox, in order.
   */
  async publishSpace(spaceId: string, organizationId: string): Promise<SpaceSummary> {
    if (this.mode !== 'server') throw new LocalError('Sign in to a server before publishing.');
    const space = await this.spaceOrThrow(spaceId);
    if (space.syncState !== 'local') throw new LocalError('This space is already on a server.');
    await this.db.transaction(async (tx) => {
      await setSpacePublishing(tx, space.id, organizationId);
      await enqueue(
        tx,
        'space.publish',
        { spaceId: space.id, organizationId, title: space.title, emoji: space.emoji },
        `Publish space “${space.title}”`,
      );
      // What was made while the space was local follows its creation, oldest first.
      const comments = await listComments(tx, space.id, null);
      await this.queueLocalComments(tx, comments);
      for (const cr of (await listChangeRequests(tx, space.id)).reverse()) {
        if (cr.syncState !== 'local' || cr.mergeState === 'merged') continue;
        await tx.query("UPDATE change_requests SET sync_state = 'pending' WHERE id = $1", [cr.id]);
        await enqueue(
          tx,
          'changeRequest.create',
          { changeRequestId: cr.id, spaceId: space.id, subject: cr.subject },
          `Open change request “${cr.subject}”`,
        );
        await this.queueLocalComments(tx, await listComments(tx, space.id, cr.id));
      }
    });
    this.afterEnqueue();
    this.emit('catalog');
    return this.spaceSummary(space.id);
  }

  private async queueLocalComments(tx: import('./store/database').Queryable, comments: CommentRow[]) {
    for (const c of comments) {
      if (c.syncState !== 'local') continue;
      await tx.query("UPDATE comments SET sync_state = 'pending' WHERE id = $1", [c.id]);
      if (c.parentId) await enqueue(tx, 'comment.reply', { replyId: c.id, commentId: c.parentId }, 'Reply to a comment');
      else await enqueue(tx, 'comment.create', { commentId: c.id }, 'Post a comment');
      if (!c.parentId && c.resolved) await enqueue(tx, 'comment.resolve', { commentId: c.id, resolved: true }, 'Resolve a comment');
      for (const r of c.reactions) {
        if (r.users.includes(this.user.id) || r.users.includes(LOCAL_USER.id)) {
          await enqueue(
            tx,
            'comment.react',
            { commentId: c.parentId ?? c.id, replyId: c.parentId ? c.id : undefined, emoji: r.emoji, on: true },
            `React ${r.emoji}`,
          );
        }
      }
    }
  }

  /** Something was queued: replay now when we can, and tell the windows. */
  private afterEnqueue() {
    this.emit('outbox');
    this.scheduleStatus();
    if (this.server && this.reachable) void this.outbox.kick();
  }

  // ---------------------------------------------------------------- branches

  /** Opens a branch for a user of it (a window, a diff); pair with `releaseBranch`. */
  async acquireBranch(ref: BranchRef): Promise<BranchDoc> {
    const key = branchKey(ref);
    let open = this.branches.get(key);
    if (!open) {
      let pending = this.opening.get(key);
      if (!pending) {
        pending = this.loadBranch(ref);
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
  async releaseBranch(ref: BranchRef): Promise<void> {
    const key = branchKey(ref);
    const open = this.branches.get(key);
    if (!open) return;
    open.users--;
    if (open.users > 0) return;
    this.branches.delete(key);
    await open.branch.close();
    this.scheduleStatus();
  }

  private async loadBranch(ref: BranchRef): Promise<OpenBranch> {
    await this.spaceOrThrow(ref.spaceId);
    if (ref.changeRequestId) {
      const cr = await getChangeRequest(this.db, ref.changeRequestId);
      if (!cr || cr.spaceId !== ref.spaceId) throw new LocalError('This change request is not on this machine.');
    }
    const key = branchKey(ref);
    const branch = await BranchDoc.open(this.db, docIdOf(ref));
    const open: OpenBranch = { ref, branch, users: 0 };
    branch.on('update', (update, origin) => this.emit('docUpdate', key, update, origin));
    branch.on('awareness', (update, origin, ids) => this.emit('awareness', key, update, origin, ids));
    branch.on('connection', (state) => {
      if (state === 'offline' && this.reachable) void this.probe();
      if (state === 'refused')
        this.emit('notice', { level: 'error', message: `The server refused to sync this branch: ${branch.refusal}` });
      this.scheduleStatus();
    });
    branch.on('saved', () => this.scheduleStatus());
    branch.on('error', (err) => this.emit('notice', { level: 'error', message: `Could not save an edit: ${err.message}` }));
    this.branches.set(key, open);
    void this.connectBranch(open);
    return open;
  }

  /** The server room of a branch, once the server knows the space (and change request). */
  private async roomOf(ref: BranchRef): Promise<string | undefined> {
    const space = await getSpace(this.db, ref.spaceId);
    if (!space?.remoteId || space.syncState !== 'remote') return undefined;
    if (!ref.changeRequestId) return spaceRoom(space.remoteId);
    const cr = await getChangeRequest(this.db, ref.changeRequestId);
    if (!cr?.remoteId) return undefined;
    return changeRequestRoom(space.remoteId, cr.remoteId);
  }

  private async connectBranch(open: OpenBranch) {
    const client = this.server;
    if (!client || !this.reachable) return;
    const room = await this.roomOf(open.ref);
    if (room && this.branches.get(branchKey(open.ref)) === open) open.branch.connect(client, room);
  }

  /** Connects a branch that just learnt its room (its space or change request reached the server). */
  async reconnectBranch(ref: BranchRef) {
    const open = this.branches.get(branchKey(ref));
    if (open) await this.connectBranch(open);
  }

  private pushing?: Promise<void>;

  /**
   * Sends the edits of branches nobody has open: written before a crash, offline in a
   * space since closed, or a space just published. Each such branch is opened, synced
   * until the server confirms it, and closed again.
   */
  pushWaitingBranches(): Promise<void> {
    if (this.pushing) {
      this.pushAgain = true;
      return this.pushing;
    }
    this.pushing = (async () => {
      try {
        do {
          this.pushAgain = false;
          await this.pushOnce();
        } while (this.pushAgain);
      } finally {
        this.pushing = undefined;
        this.scheduleStatus();
      }
    })();
    return this.pushing;
  }

  private pushAgain = false;

  private async pushOnce(): Promise<void> {
    const rows = await this.db.query<{ space_id: string; cr_id: string | null }>(
      `SELECT s.id AS space_id, NULL AS cr_id FROM doc_heads h JOIN spaces s ON h.doc_id = 'space:' || s.id
        WHERE h.unsent > 0 AND s.sync_state = 'remote'
       UNION ALL
       SELECT c.space_id, c.id FROM doc_heads h JOIN change_requests c ON h.doc_id = 'cr:' || c.id
         JOIN spaces s ON s.id = c.space_id
        WHERE h.unsent > 0 AND s.sync_state = 'remote' AND c.remote_id IS NOT NULL AND c.merge_state <> 'merged'`,
    );
    for (const row of rows) {
      if (!this.server || !this.reachable || this.closed) return;
      const ref: BranchRef = row.cr_id ? { spaceId: row.space_id, changeRequestId: row.cr_id } : { spaceId: row.space_id };
      await this.withBranch(ref, async (branch) => {
        await this.connectBranch(this.branches.get(branchKey(ref)) as OpenBranch);
        await branch.flushToServer(15_000);
      }).catch(() => {});
    }
  }

  /** Runs `fn` with a branch open, without keeping it open afterwards. */
  async withBranch<T>(ref: BranchRef, fn: (branch: BranchDoc) => Promise<T> | T): Promise<T> {
    const branch = await this.acquireBranch(ref);
    try {
      return await fn(branch);
    } finally {
      await this.releaseBranch(ref);
    }
  }

  /** The branch if some window has it open (no loading). */
  openBranch(ref: BranchRef): BranchDoc | undefined {
    return this.branches.get(branchKey(ref))?.branch;
  }

  async search(ref: BranchRef, query: string): Promise<SearchHit[]> {
    return this.withBranch(ref, (branch) => searchBranch(branch.doc, query));
  }

  /** What a computed page (`builtin:openapi`) shows, rendered by the server that holds its spec. */
  async computedPage(ref: BranchRef, pageId: string): Promise<ComputedPageView> {
    const space = await this.spaceOrThrow(ref.spaceId);
    const cr = ref.changeRequestId ? await this.crOrThrow(ref.changeRequestId) : undefined;
    return fetchComputedPage(this.server, space, cr, pageId);
  }

  async pdfLink(ref: BranchRef, pageId?: string): Promise<{ url: string | null; reason: string | null }> {
    const space = await this.spaceOrThrow(ref.spaceId);
    const cr = ref.changeRequestId ? await this.crOrThrow(ref.changeRequestId) : undefined;
    return fetchPdfLink(this.server, space, cr, pageId);
  }

  // ---------------------------------------------------------------- change requests

  private async crOrThrow(id: string): Promise<ChangeRequestRow> {
    const cr = await getChangeRequest(this.db, id);
    if (!cr) throw new LocalError('This change request is not on this machine.');
    return cr;
  }

  private async crSummary(cr: ChangeRequestRow): Promise<ChangeRequestSummary> {
    let outdated = cr.outdated;
    if (cr.syncState !== 'remote' && cr.mergeState !== 'merged') {
      outdated = (await docLastSeq(this.db, docIdOf({ spaceId: cr.spaceId }))) > cr.baseMainSeq;
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
    };
  }

  async listChangeRequests(spaceId: string): Promise<ChangeRequestSummary[]> {
    await this.spaceOrThrow(spaceId);
    return Promise.all((await listChangeRequests(this.db, spaceId)).map((cr) => this.crSummary(cr)));
  }

  /** Pulls the server's change requests of a space (when online); the local list otherwise. */
  async refreshChangeRequests(spaceId: string): Promise<ChangeRequestSummary[]> {
    const space = await this.spaceOrThrow(spaceId);
    const client = this.server;
    if (client && this.reachable && space.remoteId && space.syncState === 'remote') {
      try {
        const remote = await client.listAll<RemoteChangeRequest>(`/v1/spaces/${space.remoteId}/change-requests`);
        const before = JSON.stringify(await listChangeRequests(this.db, space.id));
        await this.db.transaction((tx) => mergeRemoteChangeRequests(tx, space.id, remote));
        // Only a real change is announced: windows re-list on it, which refreshes again.
        if (JSON.stringify(await listChangeRequests(this.db, space.id)) !== before) this.emit('changeRequests', space.id);
      } catch (err) {
        if (err instanceof UnreachableError) this.setReachable(false);
      }
    }
    return this.listChangeRequests(spaceId);
  }

  /**
   * Opens a change request at once, offline too: its branch starts as a copy of main as it
   * is here; the server learns of it through the outbox and its branch then syncs.
   */
  async createChangeRequest(spaceId: string, subject: string): Promise<ChangeRequestSummary> {
    const space = await this.spaceOrThrow(spaceId);
    const id = newId();
    await this.withBranch({ spaceId }, async (main) => {
      await main.saved();
      const state = Y.encodeStateAsUpdate(main.doc);
      const stateVector = Y.encodeStateVector(main.doc);
      const seq = await docLastSeq(this.db, docIdOf({ spaceId }));
      await this.db.transaction(async (tx) => {
        await insertChangeRequest(tx, {
          id,
          spaceId,
          subject,
          syncState: space.syncState === 'local' ? 'local' : 'pending',
          baseMainSeq: seq,
          baseStateVector: stateVector,
          createdBy: this.user,
        });
        await appendDocUpdateIn(tx, docIdOf({ spaceId, changeRequestId: id }), state, true);
        if (space.syncState !== 'local') {
          await enqueue(tx, 'changeRequest.create', { changeRequestId: id, spaceId, subject }, `Open change request “${subject}”`);
        }
      });
    });
    this.afterEnqueue();
    this.emit('changeRequests', spaceId);
    return this.crSummary(await this.crOrThrow(id));
  }

  async renameChangeRequest(changeRequestId: string, subject: string): Promise<ChangeRequestSummary> {
    const cr = await this.crOrThrow(changeRequestId);
    await this.db.transaction(async (tx) => {
      await updateChangeRequestLocal(tx, cr.id, { subject });
      if (cr.syncState !== 'local') {
        await enqueue(tx, 'changeRequest.update', { changeRequestId: cr.id, subject }, `Rename change request to “${subject}”`);
      }
    });
    this.afterEnqueue();
    this.emit('changeRequests', cr.spaceId);
    return this.crSummary(await this.crOrThrow(cr.id));
  }

  /**
   * Merges a change request. A local space merges here and now; a space on a server asks
   * the server (queued when offline), which is where merge rules and permissions are
   * decided: main changes when the server's merged main syncs back.
   */
  async mergeChangeRequest(changeRequestId: string): Promise<ChangeRequestSummary> {
    const cr = await this.crOrThrow(changeRequestId);
    if (cr.mergeState !== 'none') throw new LocalError(cr.mergeState === 'merged' ? 'Already merged.' : 'The merge is already queued.');
    if (cr.syncState === 'local') {
      await this.mergeLocally(cr);
    } else {
      await this.db.transaction(async (tx) => {
        await updateChangeRequestLocal(tx, cr.id, { mergeState: 'queued' });
        await enqueue(tx, 'changeRequest.merge', { changeRequestId: cr.id }, `Merge change request “${cr.subject}”`);
      });
      this.afterEnqueue();
    }
    this.emit('changeRequests', cr.spaceId);
    return this.crSummary(await this.crOrThrow(cr.id));
  }

  private async mergeLocally(cr: ChangeRequestRow) {
    const mainRef = { spaceId: cr.spaceId };
    const crRef = { spaceId: cr.spaceId, changeRequestId: cr.id };
    await this.withBranch(mainRef, (main) =>
      this.withBranch(crRef, async (branch) => {
        const update = cr.baseStateVector ? Y.encodeStateAsUpdate(branch.doc, cr.baseStateVector) : Y.encodeStateAsUpdate(branch.doc);
        Y.applyUpdate(main.doc, update, 'merge');
        await main.saved();
      }),
    );
    await updateChangeRequestLocal(this.db, cr.id, { mergeState: 'merged', status: 'merged' });
  }

  /** Takes main's changes into the change request (here at once; the server is told too). */
  async updateChangeRequestFromMain(changeRequestId: string): Promise<ChangeRequestSummary> {
    const cr = await this.crOrThrow(changeRequestId);
    if (cr.mergeState === 'merged') throw new LocalError('This change request is already merged.');
    const mainRef = { spaceId: cr.spaceId };
    const crRef = { spaceId: cr.spaceId, changeRequestId: cr.id };
    await this.withBranch(mainRef, (main) =>
      this.withBranch(crRef, async (branch) => {
        await main.saved();
        Y.applyUpdate(branch.doc, Y.encodeStateAsUpdate(main.doc, Y.encodeStateVector(branch.doc)), 'update-from-main');
        await branch.saved();
        const seq = await docLastSeq(this.db, docIdOf(mainRef));
        await this.db.transaction(async (tx) => {
          await updateChangeRequestLocal(tx, cr.id, { outdated: false, baseMainSeq: seq, baseStateVector: Y.encodeStateVector(main.doc) });
          if (cr.syncState !== 'local') {
            await enqueue(tx, 'changeRequest.updateFromMain', { changeRequestId: cr.id }, `Update “${cr.subject}” from main`);
          }
        });
      }),
    );
    this.afterEnqueue();
    this.emit('changeRequests', cr.spaceId);
    return this.crSummary(await this.crOrThrow(cr.id));
  }

  /** What the change request changes against main: pages added, removed, edited. */
  async diffChangeRequest(changeRequestId: string): Promise<ChangeRequestDiff> {
    const cr = await this.crOrThrow(changeRequestId);
    return this.withBranch({ spaceId: cr.spaceId }, (main) =>
      this.withBranch({ spaceId: cr.spaceId, changeRequestId: cr.id }, (branch) => diffBranches(main.doc, branch.doc)),
    );
  }

  // ---------------------------------------------------------------- comments

  private commentView(rows: CommentRow[]): CommentView[] {
    const reactionsView = (c: CommentRow) =>
      c.reactions.map((r) => ({ emoji: r.emoji, count: r.users.length, mine: r.users.includes(this.user.id) }));
    const top = rows.filter((r) => !r.parentId);
    return top.map((c) => ({
      id: c.id,
      pageId: c.pageId,
      author: c.author,
      body: c.body,
      postedAt: c.postedAt,
      resolved: c.resolved,
      reactions: reactionsView(c),
      syncState: c.syncState,
      error: c.error,
      replies: rows
        .filter((r) => r.parentId === c.id)
        .map((r) => ({
          id: r.id,
          author: r.author,
          body: r.body,
          postedAt: r.postedAt,
          reactions: reactionsView(r),
          syncState: r.syncState,
          error: r.error,
        })),
    }));
  }

  async listComments(ref: BranchRef, pageId?: string): Promise<CommentView[]> {
    await this.spaceOrThrow(ref.spaceId);
    return this.commentView(await listComments(this.db, ref.spaceId, ref.changeRequestId ?? null, pageId));
  }

  private async oneCommentView(commentId: string): Promise<CommentView> {
    const c = await getComment(this.db, commentId);
    if (!c) throw new LocalError('This comment is not on this machine.');
    const rootId = c.parentId ?? c.id;
    const root = await getComment(this.db, rootId);
    const rows = await listComments(this.db, c.spaceId, c.changeRequestId);
    const view = this.commentView(rows.filter((r) => r.id === rootId || r.parentId === rootId));
    if (!view[0] || !root) throw new LocalError('This comment is not on this machine.');
    return view[0];
  }

  /** Pulls the server's comments of a branch (with replies) into the local database. */
  async refreshComments(ref: BranchRef): Promise<CommentView[]> {
    const space = await this.spaceOrThrow(ref.spaceId);
    const client = this.server;
    const cr = ref.changeRequestId ? await getChangeRequest(this.db, ref.changeRequestId) : undefined;
    const base = commentsPath(space, cr);
    if (client && this.reachable && base) {
      try {
        const comments = await client.listAll<RemoteComment>(`${base}?order=asc`);
        const withReplies: { comment: RemoteComment; replies: RemoteComment[] }[] = [];
        for (const comment of comments) {
          let replies: RemoteComment[] = [];
          if ((comment.replies ?? 0) > 0) {
            replies = await client.listAll<RemoteComment>(`${base}/${comment.id}/replies`).catch(() => [] as RemoteComment[]);
          }
          withReplies.push({ comment, replies });
        }
        const scope = { spaceId: space.id, changeRequestId: ref.changeRequestId ?? null };
        const before = JSON.stringify(await listComments(this.db, scope.spaceId, scope.changeRequestId));
        await this.db.transaction((tx) => mergeRemoteComments(tx, scope, withReplies));
        // Only a real change is announced: windows re-list on it, which refreshes again.
        if (JSON.stringify(await listComments(this.db, scope.spaceId, scope.changeRequestId)) !== before)
          this.emit('comments', branchKey(ref));
      } catch (err) {
        if (err instanceof UnreachableError) this.setReachable(false);
      }
    }
    return this.listComments(ref);
  }

  private async commentTarget(ref: BranchRef): Promise<{ space: SpaceRow; queued: boolean }> {
    const space = await this.spaceOrThrow(ref.spaceId);
    let queued = space.syncState !== 'local';
    if (ref.changeRequestId) {
      const cr = await this.crOrThrow(ref.changeRequestId);
      queued = queued && cr.syncState !== 'local';
    }
    return { space, queued };
  }

  /** Posts a comment on a page: stored at once, sent when the server is reachable. */
  async postComment(ref: BranchRef, pageId: string, markdown: string): Promise<CommentView> {
    const { space, queued } = await this.commentTarget(ref);
    const id = newId();
    await this.db.transaction(async (tx) => {
      await insertComment(tx, {
        id,
        spaceId: space.id,
        changeRequestId: ref.changeRequestId ?? null,
        pageId,
        parentId: null,
        author: { id: this.user.id, displayName: this.user.displayName },
        body: markdown,
        syncState: queued ? 'pending' : 'local',
      });
      if (queued) await enqueue(tx, 'comment.create', { commentId: id }, 'Post a comment');
    });
    this.afterEnqueue();
    this.emit('comments', branchKey(ref));
    return this.oneCommentView(id);
  }

  async reply(commentId: string, markdown: string): Promise<CommentView> {
    const parent = await getComment(this.db, commentId);
    if (!parent || parent.parentId) throw new LocalError('Replies go on a comment that is on this machine.');
    const ref = { spaceId: parent.spaceId, changeRequestId: parent.changeRequestId ?? undefined };
    const { space, queued } = await this.commentTarget(ref);
    const id = newId();
    await this.db.transaction(async (tx) => {
      await insertComment(tx, {
        id,
        spaceId: space.id,
        changeRequestId: parent.changeRequestId,
        pageId: parent.pageId,
        parentId: parent.id,
        author: { id: this.user.id, displayName: this.user.displayName },
        body: markdown,
        syncState: queued ? 'pending' : 'local',
      });
      if (queued) await enqueue(tx, 'comment.reply', { replyId: id, commentId: parent.id }, 'Reply to a comment');
    });
    this.afterEnqueue();
    this.emit('comments', branchKey(ref));
    return this.oneCommentView(parent.id);
  }

  async react(input: { commentId: string; replyId?: string; emoji: string; on: boolean }): Promise<CommentView> {
    const target = await getComment(this.db, input.replyId ?? input.commentId);
    if (!target || (input.replyId && target.parentId !== input.commentId)) throw new LocalError('This comment is not on this machine.');
    const ref = { spaceId: target.spaceId, changeRequestId: target.changeRequestId ?? undefined };
    const { queued } = await this.commentTarget(ref);
    await this.db.transaction(async (tx) => {
      await setReactions(tx, target.id, toggleReaction(target.reactions, input.emoji, this.user.id, input.on));
      if (queued) {
        await enqueue(
          tx,
          'comment.react',
          { commentId: input.commentId, replyId: input.replyId, emoji: input.emoji, on: input.on },
          `${input.on ? 'React' : 'Remove reaction'} ${input.emoji}`,
        );
      }
    });
    this.afterEnqueue();
    this.emit('comments', branchKey(ref));
    return this.oneCommentView(input.commentId);
  }

  async resolve(commentId: string, resolved: boolean): Promise<CommentView> {
    const c = await getComment(this.db, commentId);
    if (!c || c.parentId) throw new LocalError('This comment is not on this machine.');
    const ref = { spaceId: c.spaceId, changeRequestId: c.changeRequestId ?? undefined };
    const { queued } = await this.commentTarget(ref);
    await this.db.transaction(async (tx) => {
      await setResolved(tx, c.id, resolved);
      if (queued) await enqueue(tx, 'comment.resolve', { commentId: c.id, resolved }, resolved ? 'Resolve a comment' : 'Reopen a comment');
    });
    this.afterEnqueue();
    this.emit('comments', branchKey(ref));
    return this.oneCommentView(c.id);
  }

  // ---------------------------------------------------------------- outbox

  async outboxEntries(): Promise<OutboxEntryView[]> {
    return (await openEntries(this.db)).map((e) => ({
      seq: e.seq,
      kind: e.kind,
      label: e.label,
      state: e.state,
      error: e.error,
      attempts: e.attempts,
      createdAt: e.createdAt,
    }));
  }

  /** Sends a refused entry again (same key: the server still does it at most once). */
  async retryOutbox(seq: number): Promise<OutboxEntryView[]> {
    if (!(await retryEntry(this.db, seq))) throw new LocalError('Only a refused change can be retried.');
    await this.markRetried(seq);
    this.afterEnqueue();
    return this.outboxEntries();
  }

  /** Gives up a refused entry; what it created locally stays marked as not on the server. */
  async discardOutbox(seq: number): Promise<OutboxEntryView[]> {
    const entry = await getEntry(this.db, seq);
    if (!entry || entry.state !== 'failed') throw new LocalError('Only a refused change can be discarded.');
    await deleteEntry(this.db, seq);
    this.emit('outbox');
    this.scheduleStatus();
    return this.outboxEntries();
  }

  private async markRetried(seq: number) {
    const entry = await getEntry(this.db, seq);
    const id = (entry?.payload.replyId ?? entry?.payload.commentId) as string | undefined;
    if (id && (entry?.kind === 'comment.create' || entry?.kind === 'comment.reply')) {
      await this.db.query("UPDATE comments SET sync_state = 'pending', error = NULL WHERE id = $1", [id]);
    }
  }

  // ---------------------------------------------------------------- lifecycle

  /** Waits for queued saves of every open branch (tests, quitting). */
  async flush(): Promise<void> {
    await Promise.all([...this.branches.values()].map((b) => b.branch.saved()));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.probeTimer);
    clearTimeout(this.statusTimer);
    this.outbox.stop();
    await this.outbox.idle().catch(() => {});
    for (const open of this.branches.values()) await open.branch.close();
    this.branches.clear();
    await this.db.close();
  }

  /** Internal hooks for the outbox performer (same package, not part of the app surface). */
  get internals() {
    return {
      db: this.db,
      notify: (n: Notice) => this.emit('notice', n),
      changed: (what: { spaceId?: string; branch?: string; catalog?: boolean }) => {
        if (what.catalog) this.emit('catalog');
        if (what.spaceId) this.emit('changeRequests', what.spaceId);
        if (what.branch) this.emit('comments', what.branch);
      },
    };
  }
}

/** The local doc id of a branch. */
export function docIdOf(ref: BranchRef): string {
  return ref.changeRequestId ? `cr:${ref.changeRequestId}` : `space:${ref.spaceId}`;
}

/** REST path of a branch's comments, once the server knows the space (and change request). */
export function commentsPath(space: SpaceRow, cr?: ChangeRequestRow): string | undefined {
  if (!space.remoteId) return undefined;
  if (!cr) return `/v1/spaces/${space.remoteId}/comments`;
  if (!cr.remoteId) return undefined;
  return `/v1/spaces/${space.remoteId}/change-requests/${cr.remoteId}/comments`;
}
