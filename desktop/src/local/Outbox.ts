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
  /** Something went wrong on this machine while replaying; replay goes on. */
  problem: [message: string];
}

/**
 * Replays queued mutations in order, one at a time, while a server is reachable. What
 * can help by waiting (unreachable server, 5xx, 429) is retried with backoff; what cannot
 * (400, 403, 404, 422…, or an answer this machine cannot record) is marked failed and the
 * queue moves on past it, so one refusal does not hold back the rest; entries about what a
 * failed entry creates (the replies to a comment that could not be posted) wait for it.
 * No error in here escapes: a broken entry must never take the node down.
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

  /** Replays whatever is pending now (coalesced when already running). Never rejects. */
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
      } catch (err) {
        // The database itself failed (full disk, closing): nothing is lost, the entry is
        // still pending; try again later rather than take the whole node down.
        this.emit('problem', `The outbox could not go on: ${(err as Error).message}`);
        if (!this.stopped) this.schedule();
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
        await this.fail(entry, message);
        continue;
      }
      this.backoffMs = 500;
      this.emit('reached');
      try {
        await this.db.transaction(async (tx) => {
          await applied.apply(tx);
          await markDone(tx, entry.seq, null);
        });
      } catch (err) {
        // The server did it, but its answer could not be recorded here. Sending the entry
        // again (same key) gets the same answer, so it is kept, failed, for the user to retry.
        await this.fail(entry, `the server did it, but this machine could not record its answer: ${(err as Error).message}`);
        continue;
      }
      try {
        await applied.after?.();
      } catch {
        // a follow-up (reconnecting a branch) retries on its own
      }
      this.emit('changed');
    }
  }

  /**
   * Marks an entry failed, with its error, and undoes what waited on it locally. The entry
   * stays (retry, discard); the queue goes on with entries that do not depend on it.
   */
  private async fail(entry: OutboxRow, message: string) {
    try {
      await this.db.transaction(async (tx) => {
        await markFailed(tx, entry.seq, message);
        await this.performer.refused(entry, message, tx);
      });
    } catch {
      // Undoing failed too: at least the entry is marked, so it is not replayed in a loop.
      await markFailed(this.db, entry.seq, message);
    }
    this.emit('refused', entry, message);
    this.emit('changed');
  }
}
