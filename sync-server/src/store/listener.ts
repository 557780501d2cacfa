import pg from 'pg';

const RETRY_MIN_MS = 50;
const RETRY_MAX_MS = 5000;

/**
 * The one connection of an instance that LISTENs. It reconnects when the server drops it
 * (restart, `pg_terminate_backend`, network) and LISTENs again on every channel; while it
 * is down, `up` is false and subscribers of `onState` hear it, because notifications sent
 * meanwhile are lost for good (PostgreSQL keeps none for a session that is gone).
 *
 * `fence()` sends a notification on a channel only this instance listens to and waits for
 * it to come back. PostgreSQL delivers notifications in commit order, so once the fence
 * is back every notification of a transaction committed before the fence was sent has
 * been handled. Callers arriving while a fence is in flight share the next one (it may
 * have been sent before they arrived), so one round trip serves a whole batch.
 */
export class NotificationListener {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private handlers = new Map<string, Set<(payload: string) => void>>();
  private stateHandlers = new Set<(up: boolean) => void>();
  private closed = false;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private pid: number | undefined;
  up = false;

  private fenceSeq = 0;
  private waiting = new Map<string, () => void>();
  private inFlight: Promise<boolean> | undefined;
  private next: Promise<boolean> | undefined;

  constructor(
    private url: string,
    private fenceChannel: string,
  ) {}

  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      if (this.client && this.up) await this.client.query(`LISTEN "${channel.replaceAll('"', '')}"`);
    }
    set.add(onPayload);
    await this.ensure();
    return async () => {
      set.delete(onPayload);
    };
  }

  onState(cb: (up: boolean) => void): () => void {
    this.stateHandlers.add(cb);
    return () => this.stateHandlers.delete(cb);
  }

  /** The server process id of the listening connection (tests terminate it). */
  backendPid(): number | undefined {
    return this.up ? this.pid : undefined;
  }

  /** Resolves true once every notification committed before the call has been handled; false while the listener is down. */
  fence(): Promise<boolean> {
    if (!this.up) return Promise.resolve(false);
    if (!this.inFlight) {
      this.inFlight = this.sendFence().finally(() => (this.inFlight = undefined));
      return this.inFlight;
    }
    this.next ??= this.inFlight
      .catch(() => false)
      .then(() => {
        this.next = undefined;
        return this.fence();
      });
    return this.next;
  }

  private async sendFence(): Promise<boolean> {
    const client = this.client;
    if (!client || !this.up) return false;
    const payload = String(++this.fenceSeq);
    const back = new Promise<void>((resolve) => this.waiting.set(payload, resolve));
    try {
      await client.query('SELECT pg_notify($1, $2)', [this.fenceChannel, payload]);
    } catch {
      this.waiting.delete(payload);
      return false;
    }
    await back;
    return this.up;
  }

  private ensure(): Promise<void> {
    if (this.up || this.closed) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<void> {
    // Named, so an operator (or a test) can find it in pg_stat_activity.
    const client = new pg.Client({ connectionString: this.url, application_name: `quire-listener-${process.pid}` });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (msg) => {
      if (msg.channel === this.fenceChannel) {
        const resolve = this.waiting.get(msg.payload ?? '');
        this.waiting.delete(msg.payload ?? '');
        resolve?.();
        return;
      }
      for (const h of this.handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
    });
    let row: { pid: number } | undefined;
    try {
      await client.connect();
      for (const channel of [this.fenceChannel, ...this.handlers.keys()]) {
        await client.query(`LISTEN "${channel.replaceAll('"', '')}"`);
      }
      [row] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.pid = row?.pid;
    this.up = true;
    this.retryMs = RETRY_MIN_MS;
    for (const cb of this.stateHandlers) cb(true);
  }

  private lost(client: pg.Client) {
    if (client !== this.client) return;
    this.client = undefined;
    this.pid = undefined;
    const wasUp = this.up;
    this.up = false;
    // Fences in flight will never come back on this connection; their callers see `up` false.
    for (const resolve of this.waiting.values()) resolve();
    this.waiting.clear();
    if (wasUp) for (const cb of this.stateHandlers) cb(false);
    client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.ensure().catch(() => {
        this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
        this.scheduleReconnect();
      });
    }, this.retryMs);
    this.retryTimer.unref();
  }

  async close() {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    this.up = false;
    for (const resolve of this.waiting.values()) resolve();
    this.waiting.clear();
    await client?.end().catch(() => {});
  }
}
