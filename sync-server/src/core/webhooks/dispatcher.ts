import type { Logger } from '../../logger';
import type { Db } from '../../store/db';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  disableWebhook,
  markWebhookFailing,
  markWebhookHealthy,
  nextDueAt,
  recordAttempt,
} from '../../store/webhooks';
import { FetchError, guardedFetch } from '../security/fetchGuard';
import { DISABLE_AFTER_MS, retryDelay } from './backoff';
import { WEBHOOK_CHANNEL } from './events';
import { SIGNATURE_HEADER, signatureHeader } from './signing';

export interface WebhookSettings {
  /** One attempt, connection to last byte (`WEBHOOK_TIMEOUT_MS`). */
  timeoutMs: number;
  /** Wait after the first failure, doubled after each next one (`WEBHOOK_RETRY_BASE_MS`). */
  retryBaseMs: number;
  allowPrivate: boolean;
}

/** What one attempt got back: the receiver's status, or why there was none. */
export type SendResult = { status: number } | { error: string };

export type Sender = (url: string, body: string, headers: Record<string, string>, timeoutMs: number) => Promise<SendResult>;

export interface DispatcherOptions extends WebhookSettings {
  db: Db;
  log: Logger;
  /** The clock deciding due times, backoff and the day of failures (tests move it). */
  now?: () => Date;
  send?: Sender;
  /** Deliveries in flight at once per process. */
  maxInFlight?: number;
  /** Deliveries in flight at once per process to one webhook, so that a hanging receiver leaves slots to the others. */
  maxPerWebhook?: number;
  /** Looks at the queue at least this often, should a notification be lost. */
  pollMs?: number;
}

/** A receiver's answer body is not used; reading a little of it lets the connection close cleanly. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export function guardedSender(allowPrivate: boolean): Sender {
  return async (url, body, headers, timeoutMs) => {
    try {
      const res = await guardedFetch(url, { allowPrivate, timeoutMs, maxBytes: MAX_ANSWER_BYTES, send: { method: 'POST', body, headers } });
      return { status: res.status };
    } catch (err) {
      if (err instanceof FetchError) return { error: `${err.failure}: ${err.message}` };
      return { error: `FAILED: ${(err as Error).message}` };
    }
  };
}

/**
 * Sends queued webhook deliveries, off the request path: writers only insert rows, and
 * this loop (one per process) claims due rows, posts them signed, and records each attempt.
 * A failure is retried with exponential backoff; a webhook failing for a day is turned
 * off. Several processes share the queue through row claims (see `claimDueDeliveries`).
 */
export class WebhookDispatcher {
  private readonly now: () => Date;
  private readonly send: Sender;
  private readonly maxInFlight: number;
  private readonly pollMs: number;
  private readonly maxPerWebhook: number;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly perWebhook = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly opts: DispatcherOptions) {
    this.now = opts.now ?? (() => new Date());
    this.send = opts.send ?? guardedSender(opts.allowPrivate);
    this.maxInFlight = opts.maxInFlight ?? 16;
    this.maxPerWebhook = opts.maxPerWebhook ?? 4;
    this.pollMs = opts.pollMs ?? 5000;
  }

  async start(): Promise<this> {
    this.unlisten = await this.opts.db.listen(WEBHOOK_CHANNEL, () => this.wake());
    this.wake();
    return this;
  }

  /** Looks at the queue now (new deliveries, a finished send freeing a slot). */
  wake(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump()
      .catch((err) => this.opts.log.error({ err }, 'webhook queue read failed'))
      .finally(() => {
        this.pumping = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        } else this.schedule();
      });
  }

  /** Claims and starts every due delivery that fits in flight; does not wait for the sends. */
  private async pump(): Promise<void> {
    while (!this.stopped && this.inFlight.size < this.maxInFlight) {
      const now = this.now();
      const lease = new Date(now.getTime() + this.opts.timeoutMs + 5000);
      const busy = [...this.perWebhook].filter(([, n]) => n >= this.maxPerWebhook).map(([id]) => id);
      // Webhooks at their cap are left out; batches no larger than the cap keep the others below twice it.
      const room = Math.min(this.maxInFlight - this.inFlight.size, this.maxPerWebhook);
      const claimed = await claimDueDeliveries(this.opts.db, now, lease, room, busy);
      if (!claimed.length) return;
      for (const d of claimed) {
        this.perWebhook.set(d.webhook_id, (this.perWebhook.get(d.webhook_id) ?? 0) + 1);
        const p: Promise<void> = this.attempt(d)
          .catch((err) => this.opts.log.error({ err, delivery: d.id }, 'recording a webhook attempt failed'))
          .finally(() => {
            this.inFlight.delete(p);
            const left = (this.perWebhook.get(d.webhook_id) ?? 1) - 1;
            if (left > 0) this.perWebhook.set(d.webhook_id, left);
            else this.perWebhook.delete(d.webhook_id);
            this.wake();
          });
        this.inFlight.add(p);
      }
    }
  }

  /** Sleeps until the next delivery is due, or the poll interval, whichever is first. */
  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    void nextDueAt(this.opts.db)
      .catch(() => undefined)
      .then((due) => {
        if (this.stopped) return;
        const wait = due ? Math.max(0, Math.min(this.pollMs, due.getTime() - this.now().getTime())) : this.pollMs;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.wake(), wait);
        this.timer.unref();
      });
  }

  /**
   * Sends everything due now and waits for it (tests drive the queue with this and a
   * moved clock instead of timers). Answers how many attempts were made.
   */
  async runOnce(): Promise<number> {
    let made = 0;
    for (;;) {
      const now = this.now();
      const claimed = await claimDueDeliveries(this.opts.db, now, new Date(now.getTime() + this.opts.timeoutMs + 5000), this.maxInFlight);
      if (!claimed.length) return made;
      await Promise.all(claimed.map((d) => this.attempt(d)));
      made += claimed.length;
    }
  }

  private async attempt(d: ClaimedDelivery): Promise<void> {
    const at = this.now();
    const timestamp = Math.floor(at.getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Quire-Webhooks',
      'quire-event': d.event,
      'quire-delivery': d.id,
      'quire-event-id': d.event_id,
      [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(d.secret, timestamp, d.body),
    };
    const started = performance.now();
    const result = await this.send(d.url, d.body, headers, this.opts.timeoutMs);
    const durationMs = Math.round(performance.now() - started);
    const db = this.opts.db;
    const responseStatus = 'status' in result ? result.status : undefined;
    const error = 'error' in result ? result.error : responseStatus! >= 300 ? `The receiver answered ${responseStatus}.` : undefined;
    if (responseStatus !== undefined && responseStatus >= 200 && responseStatus < 300) {
      await recordAttempt(db, d.id, { at, responseStatus, durationMs, status: 'delivered' });
      await markWebhookHealthy(db, d.webhook_id);
      return;
    }
    const failingSince = (await markWebhookFailing(db, d.webhook_id, at)) ?? at;
    const failingFor = at.getTime() - failingSince.getTime();
    const tooOld = at.getTime() - new Date(d.created_at).getTime() >= DISABLE_AFTER_MS;
    if (failingFor >= DISABLE_AFTER_MS || tooOld) {
      await recordAttempt(db, d.id, { at, responseStatus, error, durationMs, status: 'failed' });
      if (failingFor >= DISABLE_AFTER_MS) {
        await disableWebhook(
          db,
          d.webhook_id,
          `Deliveries failed for a day (since ${failingSince.toISOString()}); turn it on again to resume.`,
        );
        this.opts.log.warn({ webhook: d.webhook_id, since: failingSince }, 'webhook disabled after a day of failed deliveries');
      }
      return;
    }
    const retryAt = new Date(at.getTime() + retryDelay(d.attempt_count + 1, this.opts.retryBaseMs));
    await recordAttempt(db, d.id, { at, responseStatus, error, durationMs, status: 'pending', retryAt });
  }

  /** Stops claiming; waits a little for sends in flight (an unrecorded one is sent again after its lease). */
  async stop(graceMs = 2000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.unlisten?.().catch(() => {});
    await Promise.race([Promise.allSettled([this.pumping, ...this.inFlight]), new Promise((r) => setTimeout(r, graceMs).unref())]);
  }
}
