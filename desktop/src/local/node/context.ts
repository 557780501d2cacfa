import type { EventEmitter } from 'node:events';
import type { BranchRef, Catalog as CatalogView, SyncStatus, UserSummary } from '../../common/ipc';
import type { BranchDoc } from '../BranchDoc';
import type { Outbox } from '../Outbox';
import type { ServerClient } from '../ServerClient';
import type { SpaceRow } from '../store/catalog';
import type { ChangeRequestRow } from '../store/changeRequests';
import type { LocalDb, Queryable } from '../store/database';

export interface LocalNodeOptions {
  /** The user's data directory; undefined keeps everything in memory. */
  dataDir?: string;
  credentials?: import('../credentials').CredentialStore;
  /** Sync and replay on their own when a server is reachable (default true). */
  autoSync?: boolean;
  /** How often to look for the server while it is unreachable. */
  probeIntervalMs?: number;
  /** How long a branch nobody has open may take to reach the server before it is tried again later. */
  branchPushTimeoutMs?: number;
}

export interface Notice {
  level: 'info' | 'error';
  message: string;
}

export interface NodeEvents {
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

/** Thrown for requests that cannot work (unknown id, wrong state): the message is for the user. */
export class LocalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalError';
  }
}

export type SessionMode = 'none' | 'local' | 'server';

/*
 * What each part of a LocalNode offers the others. The parts need each other both ways
 * (a sync touches the session, the session reconnects branches), so they meet here, at
 * these interfaces, and not by importing each other's classes; each class implements its own.
 */

export interface SessionPart {
  readonly mode: SessionMode;
  readonly user: UserSummary;
  /** undefined until the first answer (or failure) from the server. */
  readonly reachable: boolean | undefined;
  readonly server: ServerClient | undefined;
  setReachable(reachable: boolean): void;
  /** Asks the server whether it is there; on success starts syncing and replaying. */
  probe(): Promise<boolean>;
  scheduleStatus(): void;
}

export interface CatalogPart {
  refresh(): Promise<CatalogView>;
  spaceOrThrow(spaceId: string): Promise<SpaceRow>;
}

export interface BranchesPart {
  /** The branch when it is open here (a window shows it), without opening it. */
  get(ref: BranchRef): BranchDoc | undefined;
  with<T>(ref: BranchRef, fn: (branch: BranchDoc) => Promise<T> | T): Promise<T>;
  connectAll(): void;
  disconnectAll(): void;
  anyConnecting(): boolean;
  pushWaiting(): Promise<void>;
}

export interface ChangeRequestsPart {
  orThrow(id: string): Promise<ChangeRequestRow>;
}

export interface FilesPart {
  settleUploads(branch: BranchDoc): Promise<void>;
  queueLocalFiles(tx: Queryable, spaceId: string): Promise<void>;
}

export interface QueuePart {
  afterEnqueue(): void;
}

/**
 * What the parts of a LocalNode share: the database, the events windows listen to, and
 * each other. Every part gets this one object, so a part reaches another through it
 * instead of importing it, and the facade wires them once.
 */
export interface NodeContext {
  readonly db: LocalDb;
  readonly events: EventEmitter<NodeEvents>;
  readonly options: LocalNodeOptions;
  readonly outbox: Outbox;
  readonly session: SessionPart;
  readonly catalog: CatalogPart;
  readonly branches: BranchesPart;
  readonly changeRequests: ChangeRequestsPart;
  readonly files: FilesPart;
  readonly queue: QueuePart;
  /** True once the node is closing: timers and background work stop. */
  readonly closed: boolean;
}

/** The local doc id of a branch. */
export function docIdOf(ref: BranchRef): string {
  return ref.changeRequestId ? `cr:${ref.changeRequestId}` : `space:${ref.spaceId}`;
}
