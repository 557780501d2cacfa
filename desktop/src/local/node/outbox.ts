import type { OutboxEntryView } from '../../common/ipc';
import { deleteEntry, getEntry, openEntries, retryEntry, waitingOnFailed } from '../store/outbox';
import { LocalError, type NodeContext, type QueuePart } from './context';

/** What the writer sees of the outbox: what waits, what the server refused, and retry or discard. */
export class OutboxQueue implements QueuePart {
  constructor(private readonly ctx: NodeContext) {}

  /** Something was queued: replay now when we can, and tell the windows. */
  afterEnqueue() {
    this.ctx.events.emit('outbox');
    this.ctx.session.scheduleStatus();
    if (this.ctx.session.server && this.ctx.session.reachable) void this.ctx.outbox.kick();
  }

  async entries(): Promise<OutboxEntryView[]> {
    const waiting = await waitingOnFailed(this.ctx.db);
    return (await openEntries(this.ctx.db)).map((e) => ({
      seq: e.seq,
      kind: e.kind,
      label: e.label,
      state: e.state,
      error: e.error,
      attempts: e.attempts,
      createdAt: e.createdAt,
      waitingFor: waiting.get(e.seq) ?? null,
    }));
  }

  /** Sends a refused entry again (same key: the server still does it at most once). */
  async retry(seq: number): Promise<OutboxEntryView[]> {
    if (!(await retryEntry(this.ctx.db, seq))) throw new LocalError('Only a refused change can be retried.');
    await this.markRetried(seq);
    this.afterEnqueue();
    return this.entries();
  }

  /** Gives up a refused entry; what it created locally stays marked as not on the server. */
  async discard(seq: number): Promise<OutboxEntryView[]> {
    const entry = await getEntry(this.ctx.db, seq);
    if (!entry || entry.state !== 'failed') throw new LocalError('Only a refused change can be discarded.');
    await deleteEntry(this.ctx.db, seq);
    this.ctx.events.emit('outbox');
    this.ctx.session.scheduleStatus();
    return this.entries();
  }

  private async markRetried(seq: number) {
    const entry = await getEntry(this.ctx.db, seq);
    const id = (entry?.payload.replyId ?? entry?.payload.commentId) as string | undefined;
    if (id && (entry?.kind === 'comment.create' || entry?.kind === 'comment.reply')) {
      await this.ctx.db.query("UPDATE comments SET sync_state = 'pending', error = NULL WHERE id = $1", [id]);
    }
  }
}
