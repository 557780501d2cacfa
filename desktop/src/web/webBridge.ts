import { existsSync, readFileSync, statSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { WebSocketServer } from 'ws';
import { IpcSession } from '../local/IpcSession';
import type { LocalNode } from '../local/LocalNode';

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
  close(): Promise<void>;
}

/**
 * The browser mode: serves the built renderer and carries the IPC contract over a
 * WebSocket at `/bridge`, each connection being one window (an IpcSession) of the same
 * headless LocalNode. Listens on loopback only, and refuses bridge connections from pages
 * of other origins, since the bridge can read and write everything the node holds.
 */
export async function startWebBridge(opts: { node: LocalNode; rendererDir: string; port?: number; host?: string }): Promise<WebBridge> {
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
    res.writeHead(200, {
      'content-type': type,
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
    });
    res.end(readFileSync(path));
  };
  const server = createServer((req, res) => {
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
    const sameOrigin = !origin || new URL(origin).host === req.headers.host;
    if (url.pathname !== '/bridge' || !sameOrigin) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const session = new IpcSession(opts.node, (event, payload) => {
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
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
