import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError, guardedFetch } from './fetchGuard';

/**
 * The guard must hold on every hop, not only the first: a public page that redirects to
 * the server's own network is the classic way around an SSRF check. 127.0.0.2 stands in
 * for a public host (trusted explicitly); 127.0.0.1 and the metadata address stay private.
 */
let publicHost: Server;
let privateHost: Server;
let publicBase: string;
let privatePort: number;

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

beforeAll(async () => {
  privateHost = createServer((_req, res) => res.end('internal secret'));
  privatePort = await listen(privateHost, '127.0.0.1');
  publicHost = createServer((req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
    if (to) {
      res.writeHead(302, { location: to });
      res.end();
    } else res.end('public page');
  });
  publicBase = `http://127.0.0.2:${await listen(publicHost, '127.0.0.2')}`;
});

afterAll(() => {
  publicHost.close();
  privateHost.close();
});

const opts = { allowPrivate: false, timeoutMs: 5_000, maxBytes: 1_000_000, trustedAddresses: ['127.0.0.2'] };

async function failureOf(url: string) {
  try {
    await guardedFetch(url, opts);
  } catch (err) {
    return err instanceof FetchError ? err.failure : String(err);
  }
  return 'fetched';
}

describe('guardedFetch', () => {
  it('fetches a host it trusts', async () => {
    const res = await guardedFetch(`${publicBase}/`, opts);
    expect(res.body.toString()).toBe('public page');
  });

  it('refuses a private address reached directly', async () => {
    expect(await failureOf(`http://127.0.0.1:${privatePort}/`)).toBe('REFUSED');
  });

  it('refuses a redirect from an accepted host to loopback', async () => {
    const to = encodeURIComponent(`http://127.0.0.1:${privatePort}/`);
    expect(await failureOf(`${publicBase}/?to=${to}`)).toBe('REFUSED');
  });

  it('refuses a redirect to the cloud metadata address', async () => {
    const to = encodeURIComponent('http://169.254.169.254/latest/meta-data/');
    expect(await failureOf(`${publicBase}/?to=${to}`)).toBe('REFUSED');
  });

  it('refuses a redirect chain that reaches loopback on a later hop', async () => {
    const last = encodeURIComponent(`http://127.0.0.1:${privatePort}/`);
    const middle = encodeURIComponent(`${publicBase}/?to=${last}`);
    expect(await failureOf(`${publicBase}/?to=${middle}`)).toBe('REFUSED');
  });

  it('refuses schemes other than http and https after a redirect', async () => {
    expect(await failureOf(`${publicBase}/?to=${encodeURIComponent('file:///etc/passwd')}`)).toBe('REFUSED');
  });
});
