import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { WebSocketServer } from 'ws';
import { IpcSession } from '../local/IpcSession';
import type { LocalNode } from '../local/LocalNode';
import type { SessionFactory } from '../local/windowSession';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json',
  '.ico': 'image/x-icon',
};

export interface WebBridge {
  url: string;
  port: number;
  server: Server;
  /** This start's secret: the served page carries it, the bridge asks for it. */
  secret: string;
  close(): Promise<void>;
}

/** The meta tag the served page carries the secret in; the renderer's bridge reads it. */
export const SECRET_META = 'quire-bridge-key';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A Host header that names this machine's loopback. A page of another site whose name was
 * rebound to 127.0.0.1 still sends its own name here, so it is refused before anything runs.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  let name: string;
  try {
    name = new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return false;
  }
  return LOOPBACK_NAMES.has(name);
}

function sameSecret(given: string | null, secret: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The browser mode: serves the built renderer and carries the IPC contract over a
 * WebSocket at `/bridge`, each connection being one window (an IpcSession) of the same
 * headless LocalNode. The bridge can read and write everything the node holds, so it
 * listens on loopback only and answers only requests that name a loopback host (no DNS
 * rebinding), and a bridge connection also needs this start's secret, which only the page
 * served here carries (a page of another local origin cannot read it).
 */
export async function startWebBridge(opts: {
  node?: LocalNode;
  /** Where windows' requests go; defaults to an IpcSession on `node` in this process. */
  sessions?: SessionFactory;
  rendererDir: string;
  port?: number;
  host?: string;
}): Promise<WebBridge> {
  const openSession: SessionFactory =
    opts.sessions ??
    ((send) => {
      if (!opts.node) throw new Error('startWebBridge needs a node or a session factory');
      return new IpcSession(opts.node, send);
    });
  const secret = randomBytes(32).toString('base64url');
  const root = resolve(opts.rendererDir);
  if (!existsSync(join(root, 'index.html'))) {
    throw new Error(`No renderer build in ${root}: run \`npm run build -w desktop\` (or \`npm run desktop:web\`, which builds first).`);
  }
  const serveFile = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let path = normalize(join(root, decodeURIComponent(url.pathname)));
    if (!path.startsWith(root + sep) && path !== root) {
      res.writeHead(403).end();
      return;
    }
    if (!existsSync(path) || statSync(path).isDirectory()) path = join(root, 'index.html');
    const type = TYPES[extname(path)] ?? 'application/octet-stream';
    const immutable = path.includes(`${sep}assets${sep}`);
    const isPage = path === join(root, 'index.html');
    res.writeHead(200, {
      'content-type': type,
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : isPage ? 'no-store' : 'no-cache',
      'x-content-type-options': 'nosniff',
    });
    if (isPage) {
      // The page carries this start's secret; it changes on every start, so it is never cached.
      const html = readFileSync(path, 'utf8').replace('<head>', `<head>\n    <meta name="${SECRET_META}" content="${secret}" />`);
      res.end(html);
      return;
    }
    res.end(readFileSync(path));
  };
  const server = createServer((req, res) => {
    if (!isLoopbackHost(req.headers.host)) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('This address does not name this machine.');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    serveFile(req, res);
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 80 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const origin = req.headers.origin;
    let sameOrigin = !origin;
    try {
      sameOrigin ||= new URL(origin as string).host === req.headers.host;
    } catch {
      sameOrigin = false;
    }
    const allowed =
      url.pathname === '/bridge' && isLoopbackHost(req.headers.host) && sameOrigin && sameSecret(url.searchParams.get('key'), secret);
    if (!allowed) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const session = openSession((event, payload) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ kind: 'event', event, payload }));
      });
      ws.on('message', async (data) => {
        let message: { id?: unknown; channel?: unknown; input?: unknown };
        try {
          message = JSON.parse(String(data));
        } catch {
          return;
        }
        if (typeof message.id !== 'number') return;
        const result = await session.invoke(message.channel, message.input);
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ kind: 'result', id: message.id, ...result }));
      });
      ws.on('close', () => void session.close());
    });
  });
  await new Promise<void>((resolveListen) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolveListen));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    port,
    server,
    secret,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
