import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LocalNode } from '../../desktop/src/local/LocalNode';
import { MemoryCredentialStore } from '../../desktop/src/local/credentials';
import { type WebBridge, startWebBridge } from '../../desktop/src/web/webBridge';

/**
 * DNS rebinding against the browser mode: a page of `evil.example` whose name is rebound to
 * 127.0.0.1 is same-origin with itself, so an Origin-equals-Host check lets it in. The
 * bridge must answer only loopback host names, and only a page it served (carrying this
 * start's key) may open the bridge.
 */

let dir: string;
let node: LocalNode;
let bridge: WebBridge;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-bridge-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>Quire</title></head><body></body></html>');
  node = await LocalNode.open({ credentials: new MemoryCredentialStore() });
  await node.session.useLocal();
  bridge = await startWebBridge({ node, rendererDir: dir });
});
afterAll(async () => {
  await bridge?.close();
  await node?.close();
  rmSync(dir, { recursive: true, force: true });
});

function get(path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: bridge.port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => {
        body += String(d);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens the bridge as a page of `origin` would, sending `host`; resolves with what `spaces.create` answered, or the refusal. */
function tryBridge(opts: { host: string; origin: string; key?: string }): Promise<string> {
  return new Promise((resolve) => {
    const query = opts.key === undefined ? '' : `?key=${encodeURIComponent(opts.key)}`;
    const ws = new WebSocket(`ws://127.0.0.1:${bridge.port}/bridge${query}`, { headers: { host: opts.host }, origin: opts.origin });
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, channel: 'spaces.create', input: { title: 'Planted' } })));
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { kind: string; ok?: boolean };
      if (message.kind !== 'result') return;
      ws.close();
      resolve(message.ok ? 'created' : 'failed');
    });
    ws.on('unexpected-response', (_req, res) => resolve(`refused ${res.statusCode}`));
    ws.on('error', () => resolve('refused'));
  });
}

const keyOf = (html: string) => /<meta name="quire-bridge-key" content="([^"]+)"/.exec(html)?.[1];

describe('the browser-mode bridge', () => {
  it('serves the page only under loopback names, with a key that changes on every start', async () => {
    const page = await get('/', `127.0.0.1:${bridge.port}`);
    expect(page.status).toBe(200);
    expect(keyOf(page.body)).toBe(bridge.secret);
    expect((await get('/', `localhost:${bridge.port}`)).status).toBe(200);
    const rebound = await get('/', `evil.example:${bridge.port}`);
    expect(rebound.status).toBe(421);
    expect(keyOf(rebound.body)).toBeUndefined();

    const other = await startWebBridge({ node, rendererDir: dir });
    try {
      expect(other.secret).not.toBe(bridge.secret);
    } finally {
      await other.close();
    }
  });

  it('refuses a rebound page, and a local page without this start’s key; the served page gets in', async () => {
    const port = bridge.port;
    // The rebinding attack: Origin and Host agree, both name the attacker's site.
    expect(await tryBridge({ host: `evil.example:${port}`, origin: `http://evil.example:${port}`, key: bridge.secret })).toMatch(/refused/);
    expect(await tryBridge({ host: `evil.example:${port}`, origin: `http://evil.example:${port}` })).toMatch(/refused/);
    // Another page on this machine (another port) cannot read the key, and its origin differs anyway.
    expect(await tryBridge({ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` })).toMatch(/refused/);
    expect(await tryBridge({ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, key: 'guessed' })).toMatch(/refused/);
    expect(await tryBridge({ host: `127.0.0.1:${port}`, origin: 'http://localhost:3000', key: bridge.secret })).toMatch(/refused/);
    expect((await node.catalog.get()).localSpaces).toEqual([]);

    expect(await tryBridge({ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, key: bridge.secret })).toBe('created');
    expect((await node.catalog.get()).localSpaces.map((s) => s.title)).toEqual(['Planted']);
  });
});
