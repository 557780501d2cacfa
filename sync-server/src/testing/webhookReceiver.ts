import { createHmac, timingSafeEqual } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  payload: { id: string; type: string; [k: string]: unknown };
  /** Whether the signature checked out with the receiver's secret (when it has one), as the README tells receivers to check it. */
  verified: boolean;
  /** What the receiver answered. */
  answered: number | 'hang';
  at: number;
}

/**
 * A webhook receiver on 127.0.0.1 for tests and benchmarks: records every request,
 * verifies its signature, and answers as told (a status, or never: a hanging receiver).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  secret: string | undefined;
  /** Decides the answer to the n-th request (0-based) carrying this event id's attempt number. */
  answer: (r: { eventId: string; attempt: number; n: number }) => number | 'hang' = () => 200;
  private readonly hanging = new Set<ServerResponse>();
  private readonly attemptsByEvent = new Map<string, number>();
  private readonly waiters: (() => void)[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => receiver.handle(req.headers, Buffer.concat(chunks), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  private handle(headers: IncomingHttpHeaders, raw: Buffer, res: ServerResponse) {
    const body = raw.toString('utf8');
    let payload: Received['payload'];
    try {
      payload = JSON.parse(body);
    } catch {
      payload = { id: '', type: '' };
    }
    const attempt = this.attemptsByEvent.get(payload.id) ?? 0;
    this.attemptsByEvent.set(payload.id, attempt + 1);
    const answered = this.answer({ eventId: payload.id, attempt, n: this.received.length });
    const header = String(headers['quire-signature'] ?? '');
    const verified = !!this.secret && documentedSignatureValid(this.secret, header, raw, 7 * 24 * 3600);
    this.received.push({ headers, body, payload, verified, answered, at: performance.now() });
    for (const w of this.waiters.splice(0)) w();
    if (answered === 'hang') {
      this.hanging.add(res);
      return;
    }
    res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'no');
  }

  /** Requests answered 2xx: what the receiver took in. */
  accepted(): Received[] {
    return this.received.filter((r) => typeof r.answered === 'number' && r.answered < 300);
  }

  /** Waits until `check` holds over what was received so far. */
  async waitFor(check: (r: WebhookReceiver) => boolean, ms = 20_000, what = 'webhook deliveries'): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check(this)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; received ${this.received.map((r) => r.payload.type).join(', ')}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * The check the README gives receivers (`Quire-Signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<raw body>">`), written from the documentation rather than taken from
 * the server's signing code, so that a change in what the server signs fails the tests.
 */
function documentedSignatureValid(secret: string, header: string, rawBody: Buffer, toleranceSeconds: number): boolean {
  const { t, v1 } = Object.fromEntries(header.split(',').map((p) => p.split('=', 2))) as { t?: string; v1?: string };
  if (!t || !/^\d+$/.test(t)) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  const given = Buffer.from(v1 ?? '', 'hex');
  return (
    given.length === expected.length && timingSafeEqual(given, expected) && Math.abs(Date.now() / 1000 - Number(t)) <= toleranceSeconds
  );
}
