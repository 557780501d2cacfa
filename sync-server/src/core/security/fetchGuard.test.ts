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
/** The same host on another port: another origin. */
let otherBase: string;
let otherHost: Server;
let privatePort: number;

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

beforeAll(async () => {
  privateHost = createServer((_req, res) => res.end('internal secret'));
  privatePort = await listen(privateHost, '127.0.0.1');
  publicHost = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    const status = Number(url.searchParams.get('status') ?? 302);
    if (url.pathname === '/chain') {
      // /chain?n=3 redirects three times, then answers
      const n = Number(url.searchParams.get('n'));
      if (n > 0) res.writeHead(307, { location: `/chain?n=${n - 1}` }).end();
      else res.end('end of chain');
    } else if (url.pathname === '/echo') {
      // A webhook receiver: answers with what it got, and a redirect it wants ignored.
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () =>
        res
          .writeHead(Number(url.searchParams.get('status') ?? 200), { location: '/headers', 'content-type': 'application/json' })
          .end(JSON.stringify({ method: req.method, body, signature: req.headers['x-signature'], ua: req.headers['user-agent'] })),
      );
    } else if (url.pathname === '/auth') {
      res.end(JSON.stringify({ authorization: req.headers.authorization ?? null }));
    } else if (url.pathname === '/bytes') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.end(Buffer.concat(chunks).toString('hex')));
    } else if (url.pathname === '/headers') {
      res.end(JSON.stringify({ ua: req.headers['user-agent'], accept: req.headers.accept }));
    } else if (url.pathname === '/status') {
      res.writeHead(status, { location: '/headers' }).end(`status ${status}`);
    } else if (url.pathname === '/hang') {
      // never answers
    } else if (url.pathname === '/slow-redirect') {
      setTimeout(() => res.writeHead(302, { location: '/hang' }).end(), 150);
    } else if (url.pathname === '/declared') {
      res.writeHead(200, { 'content-length': '2000' }).end('x'.repeat(2000));
    } else if (url.pathname === '/streamed') {
      const size = Number(url.searchParams.get('size'));
      res.writeHead(200);
      for (let i = 0; i < size; i += 100) res.write('y'.repeat(Math.min(100, size - i)));
      res.end();
    } else if (url.pathname === '/broken') {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('partial');
      setTimeout(() => res.destroy(), 20);
    } else if (to) {
      res.writeHead(status, { location: to });
      res.end();
    } else res.end('public page');
  });
  publicBase = `http://127.0.0.2:${await listen(publicHost, '127.0.0.2')}`;
  otherHost = createServer(publicHost.listeners('request')[0] as Parameters<typeof createServer>[0]);
  otherBase = `http://127.0.0.2:${await listen(otherHost, '127.0.0.2')}`;
});

afterAll(() => {
  otherHost.close();
  publicHost.close();
  privateHost.close();
});

const opts = { allowPrivate: false, timeoutMs: 5_000, maxBytes: 1_000_000, trustedAddresses: ['127.0.0.2'] };

async function errorOf(url: string, overrides: Partial<typeof opts> = {}): Promise<FetchError> {
  try {
    await guardedFetch(url, { ...opts, ...overrides });
  } catch (err) {
    if (err instanceof FetchError) return err;
    throw err;
  }
  throw new Error(`fetched ${url}`);
}

async function failureOf(url: string) {
  try {
    return (await errorOf(url)).failure;
  } catch (err) {
    return String(err);
  }
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

describe('guardedFetch redirects', () => {
  it('follows up to five redirects', async () => {
    const res = await guardedFetch(`${publicBase}/chain?n=5`, opts);
    expect(res.body.toString()).toBe('end of chain');
  });

  it('gives up on the sixth', async () => {
    const err = await errorOf(`${publicBase}/chain?n=6`);
    expect(err.failure).toBe('FAILED');
    expect(err.message).toBe(`Too many redirects (more than 5) fetching ${publicBase}/chain?n=6.`);
  });

  it.each([300, 301, 302, 303, 307, 308, 399])('follows a %i with a Location', async (status) => {
    const res = await guardedFetch(`${publicBase}/?status=${status}&to=${encodeURIComponent('/headers')}`, opts);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString()).ua).toBe('Quire');
  });

  it.each([200, 201, 299, 400, 404, 500])('returns a %i as it is, Location or not', async (status) => {
    const res = await guardedFetch(`${publicBase}/status?status=${status}`, opts);
    expect(res.status).toBe(status);
    expect(res.body.toString()).toBe(`status ${status}`);
  });

  it('returns a redirect without a Location as it is', async () => {
    const res = await guardedFetch(`${publicBase}/chain?n=0`, opts);
    expect(res.status).toBe(200);
  });
});

describe('guardedFetch headers and bodies', () => {
  const auth = { headers: { authorization: 'Basic c2VjcmV0' } };

  it('sends the headers of a GET, and keeps Authorization on a redirect within the origin', async () => {
    const res = await guardedFetch(`${publicBase}/?to=${encodeURIComponent('/auth')}`, { ...opts, ...auth });
    expect(JSON.parse(res.body.toString())).toEqual({ authorization: 'Basic c2VjcmV0' });
  });

  it('drops Authorization on a redirect to another origin: credentials never reach another host', async () => {
    const res = await guardedFetch(`${publicBase}/?to=${encodeURIComponent(`${otherBase}/auth`)}`, { ...opts, ...auth });
    expect(JSON.parse(res.body.toString())).toEqual({ authorization: null });
  });

  it('posts a binary body as it is', async () => {
    const body = new Uint8Array([0, 255, 1, 254]);
    const res = await guardedFetch(`${publicBase}/bytes`, { ...opts, send: { method: 'POST', body, headers: {} } });
    expect(res.body.toString()).toBe('00ff01fe');
  });
});

describe('guardedFetch limits', () => {
  it('names itself and accepts anything', async () => {
    const res = await guardedFetch(`${publicBase}/headers`, opts);
    expect(JSON.parse(res.body.toString())).toEqual({ ua: 'Quire', accept: '*/*' });
  });

  it('refuses what is not a URL', async () => {
    const err = await errorOf('not a url');
    expect(err.failure).toBe('FAILED');
    expect(err.message).toBe('Not a valid URL: not a url.');
  });

  it('refuses other schemes, naming them', async () => {
    const err = await errorOf('ftp://example.com/file');
    expect(err.failure).toBe('REFUSED');
    expect(err.message).toBe('Only http and https URLs can be fetched, not ftp:.');
  });

  it('speaks TLS to https URLs', async () => {
    // The local server speaks plain HTTP, so the TLS handshake must fail as a fetch failure.
    const err = await errorOf(publicBase.replace('http:', 'https:') + '/');
    expect(err.failure).toBe('FAILED');
    expect(err.message).toMatch(/^Fetching https:\/\/127\.0\.0\.2:\d+\/ failed: /);
  });

  it('times out a server that never answers', async () => {
    const err = await errorOf(`${publicBase}/hang`, { timeoutMs: 200 });
    expect(err.failure).toBe('TIMEOUT');
    expect(err.message).toBe(`Fetching ${publicBase}/hang took longer than 200 ms.`);
  });

  it('counts the deadline across redirects', async () => {
    const err = await errorOf(`${publicBase}/slow-redirect`, { timeoutMs: 300 });
    expect(err.failure).toBe('TIMEOUT');
  });

  it('refuses at once when the deadline has passed before a hop', async () => {
    const err = await errorOf(`${publicBase}/slow-redirect`, { timeoutMs: 100 });
    expect(err.failure).toBe('TIMEOUT');
    expect(err.message).toBe(`Fetching ${publicBase}/slow-redirect took longer than 100 ms.`);
  });

  it('refuses a body whose declared length is over the cap', async () => {
    const err = await errorOf(`${publicBase}/declared`, { maxBytes: 1999 });
    expect(err.failure).toBe('TOO_LARGE');
    expect(err.message).toBe(`The body at ${publicBase}/declared is larger than 1999 bytes.`);
    expect((await guardedFetch(`${publicBase}/declared`, { ...opts, maxBytes: 2000 })).body.length).toBe(2000);
  });

  it('counts a streamed body and stops past the cap', async () => {
    const err = await errorOf(`${publicBase}/streamed?size=1001`, { maxBytes: 1000 });
    expect(err.failure).toBe('TOO_LARGE');
    expect(err.message).toBe(`The body at ${publicBase}/streamed?size=1001 is larger than 1000 bytes.`);
    const exact = await guardedFetch(`${publicBase}/streamed?size=1000`, { ...opts, maxBytes: 1000 });
    expect(exact.body.toString()).toBe('y'.repeat(1000));
  });

  it('reports a connection cut mid-body as a failure', async () => {
    const err = await errorOf(`${publicBase}/broken`);
    expect(err.failure).toBe('FAILED');
    expect(err.message).toMatch(/^Fetching http:\/\/127\.0\.0\.2:\d+\/broken failed: /);
  });

  it('says why a private address was refused', async () => {
    const err = await errorOf(`http://127.0.0.1:${privatePort}/`);
    expect(err.message).toMatch(new RegExp(`^Fetching http://127\\.0\\.0\\.1:${privatePort}/ was refused: `));
  });

  it('reaches private addresses when the operator allows it', async () => {
    const res = await guardedFetch(`http://127.0.0.1:${privatePort}/`, { ...opts, allowPrivate: true });
    expect(res.body.toString()).toBe('internal secret');
  });
});

describe('guardedFetch sending', () => {
  const send = { method: 'POST' as const, body: '{"event":"x"}', headers: { 'x-signature': 'sig', 'content-type': 'application/json' } };

  it('sends its method, body and headers', async () => {
    const res = await guardedFetch(`${publicBase}/echo`, { ...opts, send });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ method: 'POST', body: '{"event":"x"}', signature: 'sig', ua: 'Quire' });
  });

  it("returns the receiver's redirect as its answer instead of following it", async () => {
    const res = await guardedFetch(`${publicBase}/echo?status=302`, { ...opts, send });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/headers');
    expect(JSON.parse(res.body.toString()).method).toBe('POST');
  });

  it('gets with no body when it sends nothing', async () => {
    const res = await guardedFetch(`${publicBase}/echo`, opts);
    expect(JSON.parse(res.body.toString())).toMatchObject({ method: 'GET', body: '' });
  });
});

describe('guardedFetch trusted addresses', () => {
  it('refuses a private address nobody trusted', async () => {
    const { trustedAddresses: _, ...untrusted } = opts;
    await expect(guardedFetch(`${publicBase}/`, untrusted)).rejects.toMatchObject({ failure: 'REFUSED' });
  });
});
