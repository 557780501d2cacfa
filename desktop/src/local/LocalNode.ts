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
import { Members } from './node/members';
import { GitStatus } from './node/git';
import { Insights } from './node/insights';
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
  // The parts, each one job; windows reach them through `partChannels.ts`, tests and the outbox's replay directly.
  readonly session: Session;
  readonly catalog: Catalog;
  readonly branches: Branches;
  readonly changeRequests: ChangeRequests;
  readonly comments: Comments;
  readonly files: Files;
  readonly history: History;
  /** The organization's members, for mentions. */
  readonly members: Members;
  /** A space's git connection and last sync, as the server tells it. */
  readonly git: GitStatus;
  /** A space's Insights view, read from the server that publishes its site. */
  readonly insights: Insights;
  /** What the writer sees of the outbox: entries, retry, discard. */
  readonly queue: OutboxQueue;
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
    const parts = {
      session: new Session(ctx, options.credentials ?? new MemoryCredentialStore()),
      catalog: new Catalog(ctx),
      branches: new Branches(ctx),
      changeRequests: new ChangeRequests(ctx),
      comments: new Comments(ctx),
      files: new Files(ctx),
      history: new History(ctx),
      members: new Members(ctx),
      git: new GitStatus(ctx),
      insights: new Insights(ctx),
      queue: new OutboxQueue(ctx),
    };
    Object.assign(ctx, parts);
    ({
      session: this.session,
      catalog: this.catalog,
      branches: this.branches,
      changeRequests: this.changeRequests,
      comments: this.comments,
      files: this.files,
      history: this.history,
      members: this.members,
      git: this.git,
      insights: this.insights,
      queue: this.queue,
    } = parts);
    this.outbox = new Outbox(db, createPerformer(this.replayContext()));
    Object.assign(ctx, { outbox: this.outbox });
    const { session } = parts;
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
    await node.session.restore();
    return node;
  }

  /** What the outbox's replay needs of the node, and nothing else. */
  private replayContext() {
    const { branches } = this;
    return {
      db: this.db,
      server: () => this.session.server,
      withBranch: <T>(ref: BranchRef, fn: (branch: BranchDoc) => Promise<T> | T) => branches.with(ref, fn),
      reconnectBranch: (ref: BranchRef) => branches.reconnect(ref),
      pushWaitingBranches: () => branches.pushWaiting().catch(() => {}),
      fileUploaded: (ref: BranchRef) => this.files.uploaded(ref),
      changed: (what: { spaceId?: string; branch?: string; catalog?: boolean }) => {
        if (what.catalog) this.emit('catalog');
        if (what.spaceId) this.emit('changeRequests', what.spaceId);
        if (what.branch) this.emit('comments', what.branch);
      },
    };
  }

  /** Who is signed in (the local user when working without a server). */
  get currentUser(): UserSummary {
    return this.session.user;
  }
  /** The REST client while signed in and not working offline. */
  get server(): ServerClient | undefined {
    return this.session.server;
  }

  // lifecycle

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.session.stop();
    this.outbox.stop();
    await this.outbox.idle().catch(() => {});
    await this.branches.closeAll();
    await this.db.close();
  }
}
