/**
 * The REST side of the server, as the LocalNode needs it. Every answer is either the
 * parsed body or a thrown error that says whether trying again later can help: the outbox
 * and the status line decide on that, not on status codes scattered around.
 */

/** The server answered with an error body (or an unexpected status). */
export class RemoteError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteError';
  }

  /**
   * Worth retrying unchanged: overload, rate limits, server bugs, and the idempotency
   * layer saying the first attempt with this key is still running.
   */
  get transient(): boolean {
    if (this.status === 408 || this.status === 425 || this.status === 429 || this.status >= 500) return true;
    return this.status === 409 && /idempotency-key/i.test(this.message) && /still being handled/i.test(this.message);
  }
}

/** The server could not be reached at all (offline, DNS, refused, timed out). */
export class UnreachableError extends Error {
  constructor(cause: unknown) {
    const reason = cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
    super(`The server cannot be reached: ${reason}`);
    this.name = 'UnreachableError';
  }
}

export interface RequestOptions {
  body?: unknown;
  /** Bytes sent as they are, with their own type (a file upload), instead of a JSON body. */
  raw?: { bytes: Uint8Array; contentType: string };
  /** Sent as `Idempotency-Key`: the server then does the work once however often we ask. */
  idempotencyKey?: string;
  timeoutMs?: number;
}

export interface ListEnvelope<T> {
  items: T[];
  count?: number;
  next?: { page: string };
}

export class ServerClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly token: string,
  ) {
    this.baseUrl = normalizeServerUrl(baseUrl);
  }

  /** `ws(s)://host/v1/sync`: where the WebsocketProvider connects (it appends `/<room>`). */
  get syncUrl(): string {
    return `${this.baseUrl.replace(/^http/, 'ws')}/v1/sync`;
  }

  get authHeader(): string {
    return `Bearer ${this.token}`;
  }

  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { authorization: this.authHeader, accept: 'application/json' };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.raw) headers['content-type'] = opts.raw.contentType;
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    const send = () =>
      fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: opts.raw ? new Uint8Array(opts.raw.bytes) : opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
      });
    let res: Response;
    try {
      res = await send();
    } catch (err) {
      // A kept-alive socket the server just closed fails at once; a request safe to repeat
      // (a read, or a write with an idempotency key) gets one more try on a fresh socket.
      const repeatable = method === 'GET' || method === 'PUT' || !!opts.idempotencyKey;
      if (!repeatable || (err as Error).name === 'TimeoutError') throw new UnreachableError(err);
      try {
        res = await send();
      } catch (again) {
        throw new UnreachableError(again);
      }
    }
    const text = await res.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!res.ok) {
      const message = (parsed as { error?: { message?: string } } | undefined)?.error?.message ?? `${res.status} ${res.statusText}`.trim();
      throw new RemoteError(res.status, message);
    }
    return parsed as T;
  }

  get<T>(path: string) {
    return this.request<T>('GET', path);
  }

  /** Every item of a list, following `next.page` cursors. */
  async listAll<T>(path: string, pageLimit = 20): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < pageLimit; i++) {
      const sep = path.includes('?') ? '&' : '?';
      const page = await this.get<ListEnvelope<T>>(`${path}${sep}limit=1000${cursor ? `&page=${encodeURIComponent(cursor)}` : ''}`);
      items.push(...page.items);
      if (!page.next?.page) break;
      cursor = page.next.page;
    }
    return items;
  }
}

/** `http://host:port` without a trailing slash or `/v1`, whatever the user typed. */
export function normalizeServerUrl(input: string): string {
  let url = input.trim();
  if (!/^https?:\/\//i.test(url)) url = `http://${url}`;
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${parsed.protocol}//${parsed.host}${path}`;
}
