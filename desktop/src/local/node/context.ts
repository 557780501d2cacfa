import type { EventEmitter } from 'node:events';
import type { BranchRef, SyncStatus } from '../../common/ipc';
import type { Outbox } from '../Outbox';
import type { LocalDb } from '../store/database';
import type { Branches } from './branches';
import type { Catalog } from './catalog';
import type { ChangeRequests } from './changeRequests';
import type { Comments } from './comments';
import type { Files } from './files';
import type { History } from './history';
import type { OutboxQueue } from './outbox';
import type { Session } from './session';

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
  readonly session: Session;
  readonly catalog: Catalog;
  readonly branches: Branches;
  readonly changeRequests: ChangeRequests;
  readonly comments: Comments;
  readonly files: Files;
  readonly history: History;
  readonly queue: OutboxQueue;
  /** True once the node is closing: timers and background work stop. */
  readonly closed: boolean;
}

/** The local doc id of a branch. */
export function docIdOf(ref: BranchRef): string {
  return ref.changeRequestId ? `cr:${ref.changeRequestId}` : `space:${ref.spaceId}`;
}
