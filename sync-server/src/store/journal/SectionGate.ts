import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Holds the sync rooms while a piece of work that may read or write the log, or change a
 * branch's write policy, runs on the embedded database (a "section": a transaction, a
 * statement that writes). While a section runs no room journals a batch; the section
 * starts once the journal's records are in the database (`flush`), and when it ends the
 * rooms learn what it changed (`after`: new rows to catch up on, a lock, a merge) before
 * any of them journals again. So a seq the room hands out is never one the section
 * wrote, and a lock or merge that committed refuses the very next batch.
 *
 * Sections run one at a time, in call order; a section started from inside another runs
 * as part of it. Rooms waiting when a section ends get their turn before the next one
 * closes the gate, so a stream of REST writes cannot starve live editing.
 */
export class SectionGate {
  private tail: Promise<void> = Promise.resolve();
  private active = false;
  private openWaiters: (() => void)[] = [];
  private inside = new AsyncLocalStorage<number>();
  private current = 0;
  /** Bumped whenever a section starts: a policy read that saw the gate open and the same epoch at its end is current. */
  epoch = 0;

  /** Whether a section holds the rooms now. */
  get closed(): boolean {
    return this.active;
  }

  /** Resolves when no section holds the rooms. */
  whenOpen(): Promise<void> {
    if (!this.active) return Promise.resolve();
    return new Promise((resolve) => this.openWaiters.push(resolve));
  }

  /** Whether the caller runs inside a section (its statements must not wait for another). */
  get inSection(): boolean {
    // Work a section started and left running after it ended carries its context: not inside any more.
    return this.active && this.inside.getStore() === this.current;
  }

  async run<T>(flush: () => Promise<void>, body: () => Promise<T>, after: () => Promise<void>): Promise<T> {
    if (this.inSection) return body();
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise((resolve) => (release = resolve));
    await previous;
    this.active = true;
    this.epoch++;
    const id = ++this.current;
    try {
      return await this.inside.run(id, async () => {
        await flush();
        return body();
      });
    } finally {
      try {
        // `after` marks the rooms stale before anything that can fail: its errors change nothing here.
        await this.inside.run(id, after).catch(() => {});
      } finally {
        this.active = false;
        // Between sections nothing reads the context: switching the storage off removes the
        // promise hooks it costs every promise the rooms create (`run` switches it on again).
        this.inside.disable();
        const waiting = this.openWaiters;
        this.openWaiters = [];
        for (const w of waiting) w();
        setImmediate(release);
      }
    }
  }
}
