import type { Logger } from '../../logger';
import type { Db } from '../../store/db';
import { insertEvents } from '../../store/insights';
import { type Draft, finishRows } from './events';

/**
 * An event as a site's answer leaves it: either its draft, or what makes the draft, made
 * when the buffer is written. Deferring keeps the request path to a few header reads and
 * keeps 45-field drafts from outliving a request in memory (they would age into the old
 * generation while they wait, and cost the collector more than building them).
 */
export type PendingEvent = Draft | (() => Draft);

/**
 * What sites record as they answer, kept on the side: a page is answered first (from its
 * cached bytes when it has them), its event joins a buffer in memory, and the buffer is
 * written as one statement every few seconds, when it fills, and on shutdown. Never a
 * transaction per page view.
 */
export class InsightsRecorder {
  private pending: PendingEvent[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  /** Events dropped because the buffer was full (the database too slow to keep up). */
  dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly log: Logger | undefined,
    readonly opts: { everyMs: number; batch: number; maxPending: number } = { everyMs: 5000, batch: 2000, maxPending: 50_000 },
  ) {
    this.timer = setInterval(() => void this.flush(), opts.everyMs);
    this.timer.unref();
  }

  add(draft: PendingEvent) {
    if (this.pending.length >= this.opts.maxPending) {
      this.dropped++;
      return;
    }
    this.pending.push(draft);
    if (this.pending.length >= this.opts.batch) void this.flush();
  }

  /** Writes what is buffered; resolves once it (and any write before it) is stored. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      while (this.pending.length) {
        const batch = this.pending.splice(0, this.opts.batch).map((e) => (typeof e === 'function' ? e() : e));
        try {
          await insertEvents(this.db, await finishRows(this.db, batch));
        } catch (err) {
          // Counting readers is never worth failing a page for: the batch is let go.
          this.log?.error({ err, events: batch.length }, 'storing site insights failed');
        }
      }
    });
    return this.flushing;
  }

  async stop() {
    clearInterval(this.timer);
    await this.flush();
  }
}

const recorders = new WeakMap<Db, InsightsRecorder>();

/** The recorder of a database, made on first use. */
export function insightsRecorder(db: Db, log?: Logger): InsightsRecorder {
  let r = recorders.get(db);
  if (!r) {
    r = new InsightsRecorder(db, log);
    recorders.set(db, r);
  }
  return r;
}

/** Writes what a database's recorder holds and stops it (before the database closes). */
export async function stopInsightsRecorder(db: Db): Promise<void> {
  const r = recorders.get(db);
  if (!r) return;
  recorders.delete(db);
  await r.stop();
}
