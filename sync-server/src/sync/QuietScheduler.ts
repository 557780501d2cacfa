import type { Logger } from '../logger';

/**
 * Calls `onQuiet(docId)` once a document has had no live edit for `quietMs`: that is when
 * a revision is cut, so REST reads catch up with what was typed without a revision per
 * keystroke. Calls for one document never overlap; an edit during a call schedules
 * another.
 */
export class QuietScheduler {
  private timers = new Map<string, NodeJS.Timeout>();
  private running = new Map<string, Promise<void>>();

  constructor(
    private quietMs: number,
    private onQuiet: (docId: string) => Promise<void>,
    private log: Logger,
  ) {}

  /** A live edit of `docId` was stored. */
  touch(docId: string) {
    // Every stored batch touches its document: restarting the timer it has is cheaper than a new one.
    const current = this.timers.get(docId);
    if (current) {
      current.refresh();
      return;
    }
    const timer = setTimeout(() => void this.fire(docId), this.quietMs);
    timer.unref();
    this.timers.set(docId, timer);
  }

  get pending(): number {
    return this.timers.size;
  }

  private fire(docId: string): Promise<void> {
    clearTimeout(this.timers.get(docId));
    this.timers.delete(docId);
    const previous = this.running.get(docId) ?? Promise.resolve();
    const next = previous.then(async () => {
      try {
        await this.onQuiet(docId);
      } catch (err) {
        this.log.error({ err, docId }, 'cutting a revision after live edits failed');
      }
    });
    this.running.set(docId, next);
    void next.finally(() => {
      if (this.running.get(docId) === next) this.running.delete(docId);
    });
    return next;
  }

  /** Calls `onQuiet(docId)` now, after any call for it in progress; a document with a timer running waits for its timer. */
  run(docId: string): Promise<void> {
    if (this.timers.has(docId)) return Promise.resolve();
    return this.fire(docId);
  }

  /** Runs every pending call now and waits for all calls (a stopping server cuts its revisions first). */
  async flush() {
    await Promise.all([...this.timers.keys()].map((docId) => this.fire(docId)));
    await Promise.all([...this.running.values()]);
  }

  stop() {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
