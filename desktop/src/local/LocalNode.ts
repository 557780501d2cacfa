import { EventEmitter } from 'node:events';
import type {
  BranchRef,
  Catalog as CatalogView,
  ChangeRequestBase,
  ChangeRequestDiff,
  ChangeRequestSummary,
  CommentAnchorInput,
  CommentView,
  ComputedPageView,
  OutboxEntryView,
  PageHistoryView,
  SearchHit,
  SessionState,
  SpaceSummary,
  SyncStatus,
  UserSummary,
} from '../common/ipc';
import type { FileInfo } from '@quire/shared/content/files';
import type { BranchDoc } from './BranchDoc';
import { MemoryCredentialStore } from './credentials';
import { Branches } from './node/branches';
import { Catalog } from './node/catalog';
import { ChangeRequests } from './node/changeRequests';
import { Comments } from './node/comments';
import { Files, type NewFile } from './node/files';
import { History } from './node/history';
import type { LocalNodeOptions, NodeContext, NodeEvents } from './node/context';
import { OutboxQueue } from './node/outbox';
import { Session } from './node/session';
import { Outbox } from './Outbox';
import { createPerformer } from './replay';
import type { ServerClient } from './ServerClient';
import { type LocalDb, openLocalDb } from './store/database';
import type { RevisionPage } from './store/history';
import type { SavedState } from './store/docs';

export { LocalError, docIdOf } from './node/context';
export type { LocalNodeOptions, Notice } from './node/context';
export { commentsPath } from './paths';

/**
 * The desktop's local-first core, in plain Node: the local database, the open branches
 * and their sync, the outbox of REST mutations, and the sync status. The Electron main
 * process and the browser-mode bridge both serve windows from one LocalNode; tests drive it
 * directly.
 *
 * This class is only the facade: each job lives in its own part under `node/` (session,
 * catalog, branches, change requests, comments, outbox), and the parts reach each other
 * through one shared context.
 */
export class LocalNode extends EventEmitter<NodeEvents> {
  readonly outbox: Outbox;
  private readonly ctx: NodeContext;
  private readonly parts: {
    session: Session;
    catalog: Catalog;
    branches: Branches;
    changeRequests: ChangeRequests;
    comments: Comments;
    files: Files;
    history: History;
    queue: OutboxQueue;
  };
  private closed = false;

  private constructor(
    readonly db: LocalDb,
    options: LocalNodeOptions,
  ) {
    super();
    this.setMaxListeners(100);
    const node = this;
    const ctx = {
      db,
      events: this as EventEmitter<NodeEvents>,
      options,
      get closed() {
        return node.closed;
      },
    } as NodeContext & Record<string, unknown>;
    this.ctx = ctx;
    this.parts = {
      session: new Session(ctx, options.credentials ?? new MemoryCredentialStore()),
      catalog: new Catalog(ctx),
      branches: new Branches(ctx),
      changeRequests: new ChangeRequests(ctx),
      comments: new Comments(ctx),
      files: new Files(ctx),
      history: new History(ctx),
      queue: new OutboxQueue(ctx),
    };
    Object.assign(ctx, this.parts);
    this.outbox = new Outbox(db, createPerformer(this.replayContext()));
    Object.assign(ctx, { outbox: this.outbox });
    const { session } = this.parts;
    this.outbox.on('changed', () => {
      this.emit('outbox');
      session.scheduleStatus();
    });
    this.outbox.on('refused', (entry, message) => {
      this.emit('notice', { level: 'error', message: `The server refused “${entry.label}”: ${message}` });
    });
    this.outbox.on('unauthorized', (message) => session.refused(message));
    this.outbox.on('unreachable', (message) => session.lost(message));
    this.outbox.on('reached', () => session.setReachable(true));
    this.outbox.on('problem', (message) => this.emit('notice', { level: 'error', message }));
  }

  static async open(options: LocalNodeOptions = {}): Promise<LocalNode> {
    const db = await openLocalDb(options.dataDir);
    const node = new LocalNode(db, options);
    await node.parts.session.restore();
    return node;
  }

  /** What the outbox's replay needs of the node, and nothing else. */
  private replayContext() {
    const { branches } = this.parts;
    return {
      db: this.db,
      server: () => this.parts.session.server,
      withBranch: <T>(ref: BranchRef, fn: (branch: BranchDoc) => Promise<T> | T) => branches.with(ref, fn),
      reconnectBranch: (ref: BranchRef) => branches.reconnect(ref),
      pushWaitingBranches: () => branches.pushWaiting().catch(() => {}),
      fileUploaded: (ref: BranchRef) => this.parts.files.uploaded(ref),
      changed: (what: { spaceId?: string; branch?: string; catalog?: boolean }) => {
        if (what.catalog) this.emit('catalog');
        if (what.spaceId) this.emit('changeRequests', what.spaceId);
        if (what.branch) this.emit('comments', what.branch);
      },
    };
  }

  // session and connectivity
  session(): Promise<SessionState> {
    return this.parts.session.state();
  }
  connect(url: string, token: string): Promise<SessionState> {
    return this.parts.session.connect(url, token);
  }
  useLocal(): Promise<SessionState> {
    return this.parts.session.useLocal();
  }
  signOut(): Promise<SessionState> {
    return this.parts.session.signOut();
  }
  get currentUser(): UserSummary {
    return this.parts.session.user;
  }
  /** The REST client while signed in and not working offline. */
  get server(): ServerClient | undefined {
    return this.parts.session.server;
  }
  setWorkOffline(offline: boolean): Promise<SyncStatus> {
    return this.parts.session.setWorkOffline(offline);
  }
  probe(): Promise<boolean> {
    return this.parts.session.probe();
  }
  status(): Promise<SyncStatus> {
    return this.parts.session.status();
  }

  // catalog and spaces
  catalog(): Promise<CatalogView> {
    return this.parts.catalog.get();
  }
  refreshCatalog(): Promise<CatalogView> {
    return this.parts.catalog.refresh();
  }
  createSpace(input: { title: string; emoji?: string; organizationId?: string }): Promise<SpaceSummary> {
    return this.parts.catalog.createSpace(input);
  }
  renameSpace(input: { spaceId: string; title?: string; emoji?: string | null }): Promise<SpaceSummary> {
    return this.parts.catalog.renameSpace(input);
  }
  publishSpace(spaceId: string, organizationId: string): Promise<SpaceSummary> {
    return this.parts.catalog.publishSpace(spaceId, organizationId);
  }

  // branches
  acquireBranch(ref: BranchRef): Promise<BranchDoc> {
    return this.parts.branches.acquire(ref);
  }
  releaseBranch(ref: BranchRef): Promise<void> {
    return this.parts.branches.release(ref);
  }
  withBranch<T>(ref: BranchRef, fn: (branch: BranchDoc) => Promise<T> | T): Promise<T> {
    return this.parts.branches.with(ref, fn);
  }
  /** A branch's saved state read from disk (base64), when it is not in memory. */
  savedBranchState(ref: BranchRef): Promise<SavedState | undefined> {
    return this.parts.branches.savedState(ref);
  }
  openBranch(ref: BranchRef): BranchDoc | undefined {
    return this.parts.branches.get(ref);
  }
  reconnectBranch(ref: BranchRef): Promise<void> {
    return this.parts.branches.reconnect(ref);
  }
  pushWaitingBranches(): Promise<void> {
    return this.parts.branches.pushWaiting();
  }
  search(ref: BranchRef, query: string): Promise<SearchHit[]> {
    return this.parts.branches.search(ref, query);
  }
  computedPage(ref: BranchRef, pageId: string): Promise<ComputedPageView> {
    return this.parts.branches.computedPage(ref, pageId);
  }
  pdfLink(ref: BranchRef, pageId?: string): Promise<{ url: string | null; reason: string | null }> {
    return this.parts.branches.pdfLink(ref, pageId);
  }

  // change requests
  listChangeRequests(spaceId: string): Promise<ChangeRequestSummary[]> {
    return this.parts.changeRequests.list(spaceId);
  }
  refreshChangeRequests(spaceId: string): Promise<ChangeRequestSummary[]> {
    return this.parts.changeRequests.refresh(spaceId);
  }
  createChangeRequest(spaceId: string, subject: string): Promise<ChangeRequestSummary> {
    return this.parts.changeRequests.create(spaceId, subject);
  }
  renameChangeRequest(changeRequestId: string, subject: string): Promise<ChangeRequestSummary> {
    return this.parts.changeRequests.rename(changeRequestId, subject);
  }
  mergeChangeRequest(changeRequestId: string): Promise<ChangeRequestSummary> {
    return this.parts.changeRequests.merge(changeRequestId);
  }
  updateChangeRequestFromMain(changeRequestId: string): Promise<ChangeRequestSummary> {
    return this.parts.changeRequests.updateFromMain(changeRequestId);
  }
  diffChangeRequest(changeRequestId: string): Promise<ChangeRequestDiff> {
    return this.parts.changeRequests.diff(changeRequestId);
  }

  /** Main as the change request took it in: what its changes are drawn against. */
  changeRequestBase(changeRequestId: string): Promise<ChangeRequestBase> {
    return this.parts.changeRequests.base(changeRequestId);
  }

  // comments
  listComments(ref: BranchRef, pageId?: string): Promise<CommentView[]> {
    return this.parts.comments.list(ref, pageId);
  }
  refreshComments(ref: BranchRef): Promise<CommentView[]> {
    return this.parts.comments.refresh(ref);
  }
  postComment(ref: BranchRef, pageId: string, markdown: string, anchor?: CommentAnchorInput): Promise<CommentView> {
    return this.parts.comments.post(ref, pageId, markdown, anchor);
  }
  reply(commentId: string, markdown: string): Promise<CommentView> {
    return this.parts.comments.reply(commentId, markdown);
  }
  react(input: { commentId: string; replyId?: string; emoji: string; on: boolean }): Promise<CommentView> {
    return this.parts.comments.react(input);
  }
  resolve(commentId: string, resolved: boolean): Promise<CommentView> {
    return this.parts.comments.resolve(commentId, resolved);
  }

  // files
  putFile(ref: BranchRef, file: NewFile): Promise<FileInfo & { src: string }> {
    return this.parts.files.put(ref, file);
  }
  readFile(ref: BranchRef, fileId: string): Promise<{ contentType: string; bytes: Uint8Array } | null> {
    return this.parts.files.read(ref, fileId);
  }
  migratePageImages(ref: BranchRef, pageId: string): Promise<number> {
    return this.parts.files.migratePage(ref, pageId);
  }

  // page history
  pageHistory(ref: BranchRef, pageId: string): Promise<PageHistoryView> {
    return this.parts.history.list(ref, pageId);
  }
  pageAtRevision(ref: BranchRef, pageId: string, revisionId: string): Promise<RevisionPage> {
    return this.parts.history.page(ref, pageId, revisionId);
  }
  restorePageRevision(ref: BranchRef, pageId: string, revisionId: string): Promise<void> {
    return this.parts.history.restore(ref, pageId, revisionId);
  }

  // outbox
  outboxEntries(): Promise<OutboxEntryView[]> {
    return this.parts.queue.entries();
  }
  retryOutbox(seq: number): Promise<OutboxEntryView[]> {
    return this.parts.queue.retry(seq);
  }
  discardOutbox(seq: number): Promise<OutboxEntryView[]> {
    return this.parts.queue.discard(seq);
  }

  // lifecycle

  /** Waits for queued saves of every open branch (tests, quitting). */
  flush(): Promise<void> {
    return this.parts.branches.flush();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.parts.session.stop();
    this.outbox.stop();
    await this.outbox.idle().catch(() => {});
    await this.parts.branches.closeAll();
    await this.db.close();
  }
}
