/**
 * The one contract between the renderer and the LocalNode. The preload builds
 * `window.quire` from it, the Electron main process and the browser-mode bridge validate
 * every input against it, and the renderer's types come from it: a channel added here is
 * added everywhere, a channel not here does not exist.
 *
 * Binary payloads (Yjs updates) travel as base64 so both transports (Electron IPC and the
 * browser mode's WebSocket) carry the same JSON.
 */
import { z } from 'zod';
import { INSIGHTS_DAYS, InsightsView, RedirectSuggestion } from './insights';

const Id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an id (letters, digits, _ and -)');
const Text = (max: number, min = 0) =>
  z
    .string()
    .min(min)
    .max(max)
    .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters');
/** Up to ~48 MB of binary: a whole branch state for a very large space. */
const Base64 = z
  .string()
  .max(64 * 1024 * 1024)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');
const Empty = z.strictObject({});

/** A branch: a space's main content, or one of its change requests. */
export const BranchRef = z.strictObject({ spaceId: Id, changeRequestId: Id.optional() });
export type BranchRef = z.infer<typeof BranchRef>;

/** A stable string for a branch, used to route events. */
export function branchKey(ref: BranchRef): string {
  return ref.changeRequestId ? `${ref.spaceId}/cr/${ref.changeRequestId}` : ref.spaceId;
}

export const UserSummary = z.object({ id: z.string(), displayName: z.string(), email: z.string().optional() });
export type UserSummary = z.infer<typeof UserSummary>;

/** The members of a space's organization, for `@` mentions; `kept`: the server could not be asked, this is what it said last. */
export const MemberList = z.object({ members: z.array(UserSummary), source: z.enum(['server', 'kept', 'local']) });
export type MemberList = z.infer<typeof MemberList>;

/**
 * A space's git connection as the window shows it: the branch, the last commit both sides
 * agree on, and how the last sync went. `source`: `server` just asked, `kept` what the server
 * said last (it cannot be asked now), `none` when the space is not connected (or not on a server).
 */
export const GitSpaceState = z.object({
  connection: z
    .object({
      /** The repository's address, never with credentials. */
      url: z.string(),
      ref: z.string(),
      provider: z.string(),
      commit: z.string().nullable(),
    })
    .nullable(),
  operation: z
    .object({
      state: z.enum(['running', 'failure', 'success', 'timeout']),
      direction: z.enum(['import', 'export']),
      startedAt: z.string(),
      endedAt: z.string().nullable(),
      error: z.string().nullable(),
    })
    .nullable(),
  source: z.enum(['server', 'kept', 'none']),
  /** When the server was last asked successfully (ISO time), for "as of" offline. */
  checkedAt: z.string().nullable(),
});
export type GitSpaceState = z.infer<typeof GitSpaceState>;

export const SessionState = z.object({
  /** none: first start, nothing chosen yet; local: no server; server: signed in to one. */
  mode: z.enum(['none', 'local', 'server']),
  server: z.object({ url: z.string(), user: UserSummary }).optional(),
  /** The token is kept encrypted by the OS keychain (false: stored in a private file). */
  credentialsEncrypted: z.boolean(),
  user: UserSummary,
});
export type SessionState = z.infer<typeof SessionState>;

export const SyncStatus = z.object({
  mode: z.enum(['none', 'local', 'server']),
  /** local: no server at all; offline: server unreachable or the user chose to work offline. */
  connection: z.enum(['local', 'offline', 'connecting', 'online', 'unauthorized']),
  workOffline: z.boolean(),
  /** Everything that waits to reach the server: queued mutations plus edits made offline. */
  pending: z.number().int(),
  pendingMutations: z.number().int(),
  unsentEdits: z.number().int(),
  /** Pages with edits waiting to be sent: each page once, however many keystrokes it holds. */
  pendingPages: z.number().int(),
  /** Files inserted here and not yet uploaded (part of `pendingMutations`). */
  pendingFiles: z.number().int(),
  /** Mutations the server refused; kept until the user retries or discards them. */
  failed: z.number().int(),
  lastError: z.string().optional(),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

export const SpaceSummary = z.object({
  id: z.string(),
  title: z.string(),
  emoji: z.string().nullable(),
  organizationId: z.string().nullable(),
  collectionId: z.string().nullable(),
  /** local: on this machine only; publishing: creation queued for the server; remote. */
  syncState: z.enum(['local', 'publishing', 'remote']),
});
export type SpaceSummary = z.infer<typeof SpaceSummary>;

export const Catalog = z.object({
  organizations: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      collections: z.array(z.object({ id: z.string(), title: z.string(), parentId: z.string().nullable() })),
      spaces: z.array(SpaceSummary),
    }),
  ),
  /** Spaces that belong to no server (local mode, or not published yet). */
  localSpaces: z.array(SpaceSummary),
});
export type Catalog = z.infer<typeof Catalog>;

export const ChangeRequestSummary = z.object({
  id: z.string(),
  spaceId: z.string(),
  number: z.number().int().nullable(),
  subject: z.string(),
  status: z.string(),
  outdated: z.boolean(),
  /** pending: creation waits in the outbox; local: on a space no server has. */
  syncState: z.enum(['pending', 'remote', 'local']),
  mergeState: z.enum(['none', 'queued', 'merged']),
  createdBy: z.string().nullable(),
  updatedAt: z.string(),
  /** Changes when what the change request's changes are drawn against changes (an update from main). */
  base: z.string(),
});
export type ChangeRequestSummary = z.infer<typeof ChangeRequestSummary>;

/** Main as the change request took it in: a Yjs update in base64, null while it is not known here. */
export const ChangeRequestBase = z.object({ state: z.string().nullable() });
export type ChangeRequestBase = z.infer<typeof ChangeRequestBase>;

const DiffLine = z.object({ kind: z.enum(['added', 'removed', 'same']), text: z.string() });
export const ChangeRequestDiff = z.object({
  added: z.array(z.object({ pageId: z.string(), title: z.string(), lines: z.array(DiffLine) })),
  removed: z.array(z.object({ pageId: z.string(), title: z.string() })),
  edited: z.array(z.object({ pageId: z.string(), title: z.string(), previousTitle: z.string().optional(), lines: z.array(DiffLine) })),
});
export type ChangeRequestDiff = z.infer<typeof ChangeRequestDiff>;
export type DiffLine = z.infer<typeof DiffLine>;

export const CommentView = z.object({
  id: z.string(),
  /** The id the server gave it (the same as `id` for a comment that came from the server), null until then. */
  serverId: z.string().nullable(),
  pageId: z.string().nullable(),
  author: z.object({ id: z.string(), displayName: z.string() }).nullable(),
  body: z.string(),
  postedAt: z.string(),
  resolved: z.boolean(),
  reactions: z.array(z.object({ emoji: z.string(), count: z.number().int(), mine: z.boolean() })),
  syncState: z.enum(['local', 'pending', 'synced', 'failed']),
  error: z.string().nullable(),
  replies: z.array(
    z.object({
      id: z.string(),
      author: z.object({ id: z.string(), displayName: z.string() }).nullable(),
      body: z.string(),
      postedAt: z.string(),
      reactions: z.array(z.object({ emoji: z.string(), count: z.number().int(), mine: z.boolean() })),
      syncState: z.enum(['local', 'pending', 'synced', 'failed']),
      error: z.string().nullable(),
    }),
  ),
});
export type CommentView = z.infer<typeof CommentView>;

export const OutboxEntryView = z.object({
  seq: z.number().int(),
  kind: z.string(),
  label: z.string(),
  state: z.enum(['pending', 'done', 'failed']),
  error: z.string().nullable(),
  attempts: z.number().int(),
  createdAt: z.string(),
  /** A pending entry held back by a failed one it depends on (that entry's seq): retry or discard that one first. */
  waitingFor: z.number().int().nullable().optional(),
});
export type OutboxEntryView = z.infer<typeof OutboxEntryView>;

const ReviewStatus = z.enum(['approved', 'changes-requested']);

/** A change request's reviews as the server keeps them: asked, given, and who can be asked. */
export const ReviewPanel = z.object({
  me: z.string(),
  reviews: z.array(
    z.object({
      id: z.string(),
      status: ReviewStatus,
      reviewer: UserSummary,
      /** Given on an earlier revision: the change request changed since. */
      outdated: z.boolean(),
      createdAt: z.string(),
      comment: z.string().nullable(),
    }),
  ),
  requested: z.array(z.object({ user: UserSummary, review: ReviewStatus.nullable() })),
  /** Members of the organization who can be asked to review. */
  candidates: z.array(UserSummary),
});
export type ReviewPanel = z.infer<typeof ReviewPanel>;

/** One revision in a page's history, as the history panel lists it. */
export const PageRevisionView = z.object({
  revisionId: z.string(),
  change: z.enum(['added', 'edited', 'removed']),
  title: z.string(),
  type: z.string(),
  createdAt: z.string(),
  /** Whose edits it holds (who restored the page, for a restore), by name when known; null when unknown. */
  by: z.string().nullable(),
  /** That writer's user id (null when unknown): what a history groups by. */
  byId: z.string().nullable().default(null),
  /** That writer's picture, when they have one. */
  byPhoto: z.string().nullable().default(null),
  /** Every page the revision changed (this one included). */
  pages: z.array(z.object({ id: z.string(), title: z.string(), change: z.enum(['added', 'edited', 'removed']) })).default([]),
  /** For a restore (`type` `restore`): the revision whose page it brought back. */
  restoredFrom: z.string().nullable(),
  /** The page as it was in this revision is kept on this machine: it can be compared offline. */
  cached: z.boolean(),
});
export type PageRevisionView = z.infer<typeof PageRevisionView>;

export const PageHistoryView = z.object({
  revisions: z.array(PageRevisionView),
  /** server: just listed by the server; cache: what this machine kept (offline); local: the space has no server. */
  source: z.enum(['server', 'cache', 'local']),
  /** What the writer should know about this list (offline, not published), or null. */
  notice: z.string().nullable(),
  /**
   * Pages of this branch with edits made on this machine that the server has not taken in yet
   * (this writer's own, offline or not sent yet): listed when this page is one of them.
   */
  unsentPages: z.array(z.string()).default([]),
});
export type PageHistoryView = z.infer<typeof PageHistoryView>;

export const SearchHit = z.object({ pageId: z.string(), title: z.string(), snippet: z.string(), score: z.number() });
export type SearchHit = z.infer<typeof SearchHit>;

const Emoji = Text(32, 1);
const Markdown = Text(64 * 1024, 1).refine((s) => s.trim().length > 0, 'must not be blank');
const YId = z.strictObject({ client: z.number().int().nonnegative(), clock: z.number().int().nonnegative() });
/** A Yjs relative position into a page body, as `Y.relativePositionToJSON` writes it. */
const RelativePosition = z.strictObject({
  type: YId.optional(),
  tname: Text(256).optional(),
  item: YId.optional(),
  assoc: z.number().int().optional(),
});
/** The passage a comment is about: where it starts and ends in the page's text. */
export const CommentAnchorInput = z.strictObject({ from: RelativePosition, to: RelativePosition });
export type CommentAnchorInput = z.infer<typeof CommentAnchorInput>;
const Title = Text(256, 1).refine((s) => s.trim().length > 0, 'must not be blank');

/** What a computed page (`builtin:openapi`) shows: a body rendered by the server, or why there is none. */
export const ComputedPageView = z.object({
  /** ProseMirror JSON of the page body schema, shown read-only. */
  document: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string().nullable(),
});
export type ComputedPageView = z.infer<typeof ComputedPageView>;

/** Every request the renderer can make: channel → input schema and output schema. */
export const ipcContract = {
  'session.get': { input: Empty, output: SessionState },
  /** Signs in to a server (the token is checked there first) and remembers it. */
  'session.connect': { input: z.strictObject({ url: Text(2048, 1), token: Text(4096, 1) }), output: SessionState },
  /**
   * Signs in through the system browser (RFC 8252, PKCE): the LocalNode listens on a loopback
   * port and answers the server's sign-in page, which the window opens in the browser.
   */
  'session.browserSignIn': { input: z.strictObject({ url: Text(2048, 1) }), output: z.object({ authorizeUrl: z.string() }) },
  /** Resolves once the browser came back and the token is stored (or fails with why not). */
  'session.browserSignInDone': { input: Empty, output: SessionState },
  'session.browserSignInCancel': { input: Empty, output: z.object({}) },
  'session.useLocal': { input: Empty, output: SessionState },
  'session.signOut': { input: Empty, output: SessionState },

  'sync.status': { input: Empty, output: SyncStatus },
  'sync.setWorkOffline': { input: z.strictObject({ offline: z.boolean() }), output: SyncStatus },

  'catalog.get': { input: Empty, output: Catalog },
  'catalog.refresh': { input: Empty, output: Catalog },

  'spaces.create': {
    input: z.strictObject({ title: Title, emoji: Emoji.optional(), organizationId: Id.optional() }),
    output: SpaceSummary,
  },
  'spaces.rename': {
    input: z.strictObject({ spaceId: Id, title: Title.optional(), emoji: Emoji.nullable().optional() }),
    output: SpaceSummary,
  },
  'spaces.publish': { input: z.strictObject({ spaceId: Id, organizationId: Id }), output: SpaceSummary },

  /**
   * The branch's whole state (a Yjs update, in update format v2 when `format` says so: it
   * decodes in about half the time); updates then flow both ways on `doc.update`, always v1.
   * A branch read from disk may come with `view`, a `BranchView` as JSON, to draw before
   * `state` is decoded.
   */
  'doc.open': {
    input: z.strictObject({ branch: BranchRef }),
    output: z.object({ state: Base64, format: z.enum(['v1', 'v2']), awareness: Base64, view: z.string().optional() }),
  },
  /** Resolves once the update is saved on disk: only then does the window show "Saved". */
  'doc.update': { input: z.strictObject({ branch: BranchRef, update: Base64 }), output: z.object({ saved: z.literal(true) }) },
  'doc.close': { input: z.strictObject({ branch: BranchRef }), output: z.object({}) },
  'awareness.update': { input: z.strictObject({ branch: BranchRef, update: Base64 }), output: z.object({}) },

  'search.space': { input: z.strictObject({ branch: BranchRef, query: Text(200) }), output: z.array(SearchHit) },
  'pages.computed': { input: z.strictObject({ branch: BranchRef, pageId: Id }), output: ComputedPageView },
  /** A link to the branch's PDF (all pages, or one page and those under it), made by the server; `reason` when it cannot be. */
  'pages.pdf': {
    input: z.strictObject({ branch: BranchRef, pageId: Id.optional() }),
    output: z.object({ url: z.string().nullable(), reason: z.string().nullable() }),
  },

  /**
   * Keeps an inserted image or file as a space file (here at once, uploaded by the outbox).
   * The block refers to it by `src` (`upload:<id>`), which the LocalNode points at
   * `file:<id>` once the server has the bytes.
   */
  'files.put': {
    input: z.strictObject({
      branch: BranchRef,
      name: Text(255, 1).refine((s) => !/[/\\]/.test(s), 'must be a file name, without / or \\'),
      contentType: z.string().regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i, 'must be a media type'),
      data: Base64,
      width: z.number().int().positive().optional(),
      height: z.number().int().positive().optional(),
    }),
    output: z.object({ id: z.string(), name: z.string(), contentType: z.string(), size: z.number().int(), src: z.string() }),
  },
  /** A file's bytes for display: from this machine, or fetched once from the server; null when neither has it. */
  'files.read': {
    input: z.strictObject({ branch: BranchRef, fileId: Id }),
    output: z.object({ contentType: z.string(), data: Base64 }).nullable(),
  },
  /** Moves images a page holds inline (`data:` URLs) into space files; how many moved. */
  'files.migratePage': { input: z.strictObject({ branch: BranchRef, pageId: Id }), output: z.object({ moved: z.number().int() }) },
  /** The revisions that changed a page (the space's main content), newest first. */
  'members.list': { input: z.strictObject({ spaceId: Id }), output: MemberList },
  /** The space's git connection and its last sync, asked of the server while it answers, else as kept. */
  'git.state': { input: z.strictObject({ spaceId: Id }), output: GitSpaceState },
  'history.list': { input: z.strictObject({ branch: BranchRef, pageId: Id }), output: PageHistoryView },
  /** A page as it was in a revision: its title and its body (the content model's JSON). */
  'history.page': {
    input: z.strictObject({ branch: BranchRef, pageId: Id, revisionId: Id }),
    output: z.object({ title: z.string(), body: z.unknown() }),
  },
  /** Writes a revision's title and body back into the branch as a new edit, which syncs like any other. */
  'history.restore': { input: z.strictObject({ branch: BranchRef, pageId: Id, revisionId: Id }), output: z.object({}) },

  'changeRequests.list': { input: z.strictObject({ spaceId: Id }), output: z.array(ChangeRequestSummary) },
  'changeRequests.create': { input: z.strictObject({ spaceId: Id, subject: Title }), output: ChangeRequestSummary },
  'changeRequests.rename': { input: z.strictObject({ changeRequestId: Id, subject: Title }), output: ChangeRequestSummary },
  'changeRequests.merge': { input: z.strictObject({ changeRequestId: Id }), output: ChangeRequestSummary },
  'changeRequests.updateFromMain': { input: z.strictObject({ changeRequestId: Id }), output: ChangeRequestSummary },
  'changeRequests.diff': { input: z.strictObject({ changeRequestId: Id }), output: ChangeRequestDiff },
  'changeRequests.base': { input: z.strictObject({ changeRequestId: Id }), output: ChangeRequestBase },

  'reviews.get': { input: z.strictObject({ changeRequestId: Id }), output: ReviewPanel },
  'reviews.submit': {
    input: z.strictObject({ changeRequestId: Id, status: ReviewStatus, comment: Text(64 * 1024).optional() }),
    output: ReviewPanel,
  },
  'reviews.request': { input: z.strictObject({ changeRequestId: Id, userId: Id }), output: ReviewPanel },
  'reviews.withdraw': { input: z.strictObject({ changeRequestId: Id, userId: Id }), output: ReviewPanel },

  'comments.list': { input: z.strictObject({ branch: BranchRef, pageId: Id.optional() }), output: z.array(CommentView) },
  'comments.create': {
    input: z.strictObject({ branch: BranchRef, pageId: Id, markdown: Markdown, anchor: CommentAnchorInput.optional() }),
    output: CommentView,
  },
  'comments.reply': { input: z.strictObject({ commentId: Id, markdown: Markdown }), output: CommentView },
  'comments.react': {
    input: z.strictObject({ commentId: Id, replyId: Id.optional(), emoji: Emoji, on: z.boolean() }),
    output: CommentView,
  },
  'comments.resolve': { input: z.strictObject({ commentId: Id, resolved: z.boolean() }), output: CommentView },

  /** The Insights view of a space: what readers of the site that publishes it read, rate, miss and come from. */
  'insights.get': {
    input: z.strictObject({ spaceId: Id, siteId: Id.optional(), days: z.literal(INSIGHTS_DAYS) }),
    output: InsightsView,
  },
  /** Sends readers of a broken URL of the site to an existing page (the site's redirects). */
  'insights.createRedirect': {
    input: z.strictObject({
      organizationId: Id,
      siteId: Id,
      source: Text(1024, 2).regex(/^\//, 'must be a path starting with /'),
      to: RedirectSuggestion.extend({ siteSpaceId: Id, pageId: Id }).strict(),
    }),
    output: z.object({ id: z.string(), source: z.string() }),
  },

  'outbox.list': { input: Empty, output: z.array(OutboxEntryView) },
  'outbox.retry': { input: z.strictObject({ seq: z.number().int().positive() }), output: z.array(OutboxEntryView) },
  'outbox.discard': { input: z.strictObject({ seq: z.number().int().positive() }), output: z.array(OutboxEntryView) },

  /** Answers at once: windows ask a few times a second to notice a backend that stopped answering. */
  'backend.ping': { input: Empty, output: z.object({}) },
} as const;

export type IpcContract = typeof ipcContract;
export type IpcChannel = keyof IpcContract;
export type IpcInput<C extends IpcChannel> = z.input<IpcContract[C]['input']>;
export type IpcOutput<C extends IpcChannel> = z.output<IpcContract[C]['output']>;
export const IPC_CHANNELS = Object.keys(ipcContract) as IpcChannel[];

/** What the LocalNode pushes to windows. */
export const ipcEvents = {
  'doc.update': z.object({ branch: z.string(), update: Base64 }),
  'awareness.update': z.object({ branch: z.string(), update: Base64 }),
  status: SyncStatus,
  'catalog.changed': z.object({}),
  'changeRequests.changed': z.object({ spaceId: z.string() }),
  'comments.changed': z.object({ branch: z.string() }),
  'outbox.changed': z.object({}),
  /** Something the user must know: a refused replay, a failed save, a refused branch. */
  notice: z.object({ level: z.enum(['info', 'error']), message: z.string() }),
  /**
   * The LocalNode behind this window: lost when its process died or stopped answering,
   * starting while it is being restarted, ready again once it answers.
   */
  backend: z.object({ state: z.enum(['starting', 'ready', 'lost']) }),
} as const;
export type IpcEventName = keyof typeof ipcEvents;
export type IpcEventPayload<E extends IpcEventName> = z.output<(typeof ipcEvents)[E]>;
export const IPC_EVENTS = Object.keys(ipcEvents) as IpcEventName[];

/** The Electron IPC channel names the preload and main use for the contract. */
export const ELECTRON_INVOKE = 'quire:invoke';
export const ELECTRON_EVENT = 'quire:event';

/** An error that crossed the bridge: the message is meant for the user. */
export interface BridgeErrorBody {
  code: 'invalid-input' | 'unknown-channel' | 'failed';
  message: string;
}

/** `window.quire`: the one surface the renderer sees, whatever the transport. */
export interface QuireBridge {
  invoke<C extends IpcChannel>(channel: C, input: IpcInput<C>): Promise<IpcOutput<C>>;
  on<E extends IpcEventName>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
}

/** Turns the first zod issue into a message naming the field, like the server does. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input.';
  const path = issue.path.length ? issue.path.join('.') : 'input';
  return `Invalid "${path}": ${issue.message}`;
}
