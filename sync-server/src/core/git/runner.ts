import { mkdir } from 'node:fs/promises';
import { DomainError } from '@quire/shared/domainErrors';
import {
  GIT_CHANNEL,
  type GitOperationEnd,
  type GitOperationRow,
  claimGitOperation,
  finishGitOperation,
  gitOperationWaiting,
  nextGitLeaseEnd,
  releaseGitOperation,
} from '../../store/git';
import { queueGitSync } from '../../store/gitConnections';
import { getSpace } from '../../store/spaces';
import { loadOrgAccess } from '../access/callerAccess';
import type { Deps } from '../platform/deps';
import { gitDecision } from '../policies/git';
import { redact } from './address';
import { unsealCredentials } from './credentials';
import { runExport } from './exportRun';
import { runImport } from './importRun';
import { runSync } from './syncRun';
import type { GitRunResult } from './job';
import { GitFailure, Remote, timedOut } from './remote';
import { boundGitStore, dropGitStore, gitStorePath } from './store';

type RunnerDeps = Pick<Deps, 'db' | 'config' | 'log'>;

/** A claim outlives the operation's time limit by this much before another instance may take it over. */
const LEASE_MARGIN_MS = 60_000;
/** An operation claimed this many times without ending (its instances kept stopping) is given up. */
const MAX_ATTEMPTS = 5;
/** The longest a failed sync waits before it is tried again. */
const RETRY_MAX_MS = 3_600_000;

export interface GitRunnerOptions {
  /** Looks at the queue at least this often, should a notification be lost or a lease run out. */
  pollMs?: number;
}

/**
 * Runs queued git imports and exports in the background, one at a time per process:
 * requests only insert rows, and this loop (one per process, on every instance) claims
 * them (see `claimGitOperation`: one instance per operation, a space's operations in
 * order), runs them against the repository and records how they ended. An operation whose
 * instance stopped is claimed again once its lease runs out, so a restart resumes it.
 */
export class GitRunner {
  private readonly pollMs: number;
  private timer: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private current: { op: GitOperationRow; done: Promise<unknown> } | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly deps: RunnerDeps,
    opts: GitRunnerOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 5000;
  }

  async start(): Promise<this> {
    this.unlisten = await this.deps.db.listen(GIT_CHANNEL, () => this.wake());
    this.wake();
    return this;
  }

  /** Looks at the queue now. */
  wake(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.runOnce()
      .then(() => undefined)
      .catch((err) => this.deps.log.error({ err }, 'git operation queue read failed'))
      .finally(() => {
        this.pumping = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        } else this.schedule();
      });
  }

  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    void nextGitLeaseEnd(this.deps.db)
      .catch(() => undefined)
      .then((leaseEnd) => {
        if (this.stopped) return;
        const wait = leaseEnd ? Math.max(0, Math.min(this.pollMs, leaseEnd.getTime() - Date.now() + 1)) : this.pollMs;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.wake(), wait);
        this.timer.unref();
      });
  }

  /** Runs every operation that can be claimed now, one after the other; answers how many ran (tests drive the queue with it). */
  async runOnce(): Promise<number> {
    let ran = 0;
    while (!this.stopped) {
      const now = new Date();
      if (!(await gitOperationWaiting(this.deps.db, now))) return ran;
      const op = await claimGitOperation(this.deps.db, now, new Date(now.getTime() + this.deps.config.git.timeoutMs + LEASE_MARGIN_MS));
      if (!op) return ran;
      const done = this.run(op);
      this.current = { op, done };
      await done;
      this.current = undefined;
      ran++;
    }
    return ran;
  }

  /**
   * Stops claiming and waits a little for the operation in progress; one still running is
   * handed back to the queue (its writes check that they still hold it, so this process
   * writes nothing more), and the next instance to start resumes it at once.
   */
  async stop(graceMs = 5000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.unlisten?.().catch(() => {});
    const current = this.current;
    const settled = await Promise.race([
      Promise.allSettled([this.pumping, current?.done]).then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs).unref()),
    ]);
    if (!settled && current) await releaseGitOperation(this.deps.db, current.op.id, current.op.attempts).catch(() => {});
  }

  private async run(op: GitOperationRow): Promise<void> {
    const { db, config, log } = this.deps;
    const store = gitStorePath(config.dataDir, op.space_id, op.url);
    let credentials;
    let end: GitRunResult;
    try {
      credentials = await unsealCredentials(db, op.credentials);
      end = await this.attempt(op, store, credentials);
    } catch (err) {
      if (err instanceof GitFailure) end = { state: err.state, error: err.message };
      else if (err instanceof DomainError) end = { state: 'failure', error: err.message };
      else {
        log.error(
          { err: new Error(redact((err as Error)?.message ?? String(err), credentials)), operation: op.id },
          'git operation failed',
        );
        end = { state: 'failure', error: 'the operation failed unexpectedly; the error has been logged' };
      }
    }
    // The store may be what failed (an interrupted write, a corrupt object): the next run builds it again.
    if (end.state !== 'success') await dropGitStore(store).catch(() => {});
    if (end.recorded) return;
    const { recorded: _, ...rest } = end;
    const recorded: GitOperationEnd = rest.error ? { ...rest, error: redact(rest.error, credentials) } : rest;
    await finishGitOperation(db, op.id, op.attempts, recorded);
    if (op.request.sync && recorded.state !== 'success') await this.retryLater(op);
  }

  /**
   * A sync that failed (the remote unreachable, the credential refused) is tried again,
   * waiting twice as long each time up to an hour; a push or a new revision meanwhile runs
   * it at once.
   */
  private async retryLater(op: GitOperationRow): Promise<void> {
    const retry = (op.request.retry ?? 0) + 1;
    const wait = Math.min(RETRY_MAX_MS, this.deps.config.git.retryBaseMs * 2 ** (retry - 1));
    await queueGitSync(this.deps.db, op.space_id, { sync: 'pull', retry }, new Date(Date.now() + wait)).catch((err) =>
      this.deps.log.error({ err, operation: op.id }, 'queueing a git sync retry failed'),
    );
  }

  private async attempt(
    op: GitOperationRow,
    store: string,
    credentials: Awaited<ReturnType<typeof unsealCredentials>>,
  ): Promise<GitRunResult> {
    const { db, config } = this.deps;
    if (op.attempts > MAX_ATTEMPTS) {
      throw new GitFailure(`the operation was interrupted ${MAX_ATTEMPTS} times (its server stopped while it ran); ask for it again`);
    }
    const space = await getSpace(db, op.space_id);
    if (!space) throw new GitFailure('the space was deleted');
    // Who asked may have lost their role since: the operation runs only while they may still ask for it.
    const role = (await loadOrgAccess(db, space.org_id, op.requested_by)).roleOn(space);
    const decision = gitDecision(op.request.sync ? 'sync' : op.direction, {
      role,
      locked: space.edit_mode === 'locked',
      standalone: !!op.request.standalone,
    });
    if (!decision.allowed) throw new GitFailure(`the operation is no longer allowed: ${decision.message}`);

    const limits = {
      allowPrivate: config.allowPrivateFetch,
      maxBytes: config.git.maxBytes,
      deadline: Date.now() + config.git.timeoutMs,
      timeoutMs: config.git.timeoutMs,
    };
    await boundGitStore(store, 2 * config.git.maxBytes);
    await mkdir(store, { recursive: true, mode: 0o700 });
    const remote = await Remote.open(op.url, credentials, store, limits);
    const job = { deps: this.deps, op, space, remote, limits };
    const work = op.request.sync ? runSync(job) : op.direction === 'import' ? runImport(job) : runExport(job);
    // Reading and planning between requests is bounded too: past the deadline the operation ends as timed out.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timedOut(limits)), Math.max(0, limits.deadline - Date.now()));
    });
    try {
      return await Promise.race([work, deadline]);
    } finally {
      clearTimeout(timer);
      work.catch(() => {});
    }
  }
}
