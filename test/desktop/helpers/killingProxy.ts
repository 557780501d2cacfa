import { type IncomingMessage, type Server, createServer } from 'node:http';
import { connect } from 'node:net';

/**
 * An HTTP proxy in front of the server that can cut a client off at the worst moment:
 * after the server did the work, before the client hears the answer. Upgrades (the sync
 * WebSocket) are passed through as raw TCP.
 */
export class KillingProxy {
  private constructor(
    readonly server: Server,
    readonly url: string,
  ) {}

  /** Called with each request before it is passed on: a slow network, held as long as it takes. */
  beforeForward: (req: IncomingMessage) => void | Promise<void> = () => {};
  /** Called with each request once the server answered; return true to drop the answer. */
  onAnswered: (req: IncomingMessage, status: number) => boolean | Promise<boolean> = () => false;
  readonly seen: { method: string; path: string; status: number; key?: string }[] = [];
  /** While true, sync connections are cut as soon as they are asked for: REST works, sync does not. */
  cutSync = false;

  static async start(target: string): Promise<KillingProxy> {
    const t = new URL(target);
    let proxy: KillingProxy | undefined;
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (v === undefined || k === 'host' || k === 'connection' || k === 'content-length') continue;
        headers.set(k, Array.isArray(v) ? v.join(', ') : v);
      }
      await proxy?.beforeForward(req);
      let answer: Response;
      try {
        answer = await fetch(`${target}${req.url}`, {
          method: req.method,
          headers,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        });
      } catch {
        res.writeHead(502).end();
        return;
      }
      const body = Buffer.from(await answer.arrayBuffer());
      const key = req.headers['idempotency-key'];
      proxy?.seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        status: answer.status,
        key: typeof key === 'string' ? key : undefined,
      });
      if (await proxy?.onAnswered(req, answer.status)) {
        res.socket?.destroy();
        return;
      }
      const out: Record<string, string> = {};
      answer.headers.forEach((v, k) => {
        if (k !== 'content-encoding' && k !== 'transfer-encoding' && k !== 'content-length') out[k] = v;
      });
      res.writeHead(answer.status, out).end(body);
    });
    server.on('upgrade', (req, socket, head) => {
      if (proxy?.cutSync) {
        socket.destroy();
        return;
      }
      const upstream = connect(Number(t.port), t.hostname, () => {
        const lines = [`${req.method} ${req.url} HTTP/1.1`];
        for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length) upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    proxy = new KillingProxy(server, `http://127.0.0.1:${port}`);
    return proxy;
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
