import { EventEmitter } from 'node:events';
import { RemoteError, UnreachableError } from './ServerClient';
import type { LocalDb, Queryable } from './store/database';
import { type OutboxRow, markDone, markFailed, nextPending, noteAttempt } from './store/outbox';

/** What to record once the server said yes, and what to do after that is committed. */
export interface Applied {
  /**
   * Runs in the same transaction that marks the entry done: after a crash the entry is
   * either still pending (and is sent again with the same key, which the server answers
   * with its first answer) or done with its result applied, never half of it.
   */
  apply(tx: Queryable): Promise<void>;
  /** Side effects that need the commit first (connect a branch that just got its room). */
  after?(): void | Promise<void>;
}

export interface OutboxPerformer {
  /** Sends one entry; throws RemoteError, UnreachableError or RefusedError. */
  perform(entry: OutboxRow): Promise<Applied>;
  /** The server refused the entry for good: undo what waited on it locally. */
  refused(entry: OutboxRow, message: string, tx: Queryable): Promise<void>;
}

/** A replay the server refused for good: kept with its error and shown to the user. */
export class RefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedError';
  }
}

/**
 * Not yet, but soon: the server cannot take the entry *yet* (it has not caught up with an
 * edit the entry depends on). Retried with backoff like an unreachable server.
 */
export class RetryLaterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetryLaterError';
  }
}

interface OutboxEvents {
  changed: [];
  /** The server refused an entry; it stays in the outbox, failed, until the user acts. */
  refused: [entry: OutboxRow, message: string];
  /** The token was refused: replay stops until the user signs in again. */
  unauthorized: [message: string];
  unreachable: [message: string];
  reached: [];
}

/**
 * Replays queued mutations in order, one at a time, while a server is reachable. What
 * can help by waiting (unreachable server, 5xx, 429) is retried with backoff; what cannot
 * (400, 403, 404, 422…) is marked failed and the queue moves on, so one refusal does not
 * hold back the rest.
 */
export class Outbox extends EventEmitter<OutboxEvents> {
  private running?: Promise<void>;
  private again = false;
  private timer?: NodeJS.Timeout;
  private backoffMs = 500;
  private stopped = true;

  constructor(
    private readonly db: LocalDb,
    private readonly performer: OutboxPerformer,
  ) {
    super();
  }

  /** Allows replay and starts it. */
  start() {
    this.stopped = false;
    this.kick();
  }

  /** Stops replaying (offline mode, signed out); entries stay queued. */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  get active(): boolean {
    return !this.stopped;
  }

  /** Replays whatever is pending now (coalesced when already running). */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.drain();
        } while (this.again && !this.stopped);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Resolves once the queue is drained or replay stopped. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.kick(), this.backoffMs);
    this.timer.unref?.();
    this.backoffMs = Math.min(this.backoffMs * 2, 15_000);
  }

  private async drain() {
    while (!this.stopped) {
      const entry = await nextPending(this.db);
      if (!entry) return;
      let applied: Applied;
      try {
        applied = await this.performer.perform(entry);
      } catch (err) {
        if (err instanceof UnreachableError) {
          await noteAttempt(this.db, entry.seq, err.message);
          this.emit('unreachable', err.message);
          this.schedule();
          return;
        }
        if (err instanceof RemoteError && err.status === 401) {
          await noteAttempt(this.db, entry.seq, err.message);
          this.stopped = true;
          this.emit('unauthorized', err.message);
          return;
        }
        if (err instanceof RetryLaterError || (err instanceof RemoteError && err.transient)) {
          await noteAttempt(this.db, entry.seq, err.message);
          this.schedule();
          return;
        }
        const message = err instanceof RemoteError ? `${err.message} (${err.status})` : (err as Error).message;
        await this.db.transaction(async (tx) => {
          await markFailed(tx, entry.seq, message);
          await this.performer.refused(entry, message, tx);
        });
        this.emit('refused', entry, message);
        this.emit('changed');
        continue;
      }
      this.backoffMs = 500;
      this.emit('reached');
      await this.db.transaction(async (tx) => {
        await applied.apply(tx);
        await markDone(tx, entry.seq, null);
      });
      try {
        await applied.after?.();
      } catch {
        // a follow-up (reconnecting a branch) retries on its own
      }
      this.emit('changed');
    }
  }
}
